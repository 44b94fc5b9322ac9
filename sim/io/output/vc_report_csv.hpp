// run --vc-report: what each virtual channel of a packet run did in the recorded window, as CSV
// (core/packet/vc_recorder.hpp says what each figure measures; docs/commands.md lists the columns).
#pragma once
#include <string>

#include "sim/core/run/results.hpp"

namespace t3sim::io {

std::string vc_report_csv(const core::RunResult& r);

}  // namespace t3sim::io
