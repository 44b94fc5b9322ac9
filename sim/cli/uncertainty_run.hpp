// `t3sim run --uncertainty N` and `t3sim sensitivity`: one point run many times in child processes
// with the machine's uncertain parameters moved (param_ranges.hpp), each as `run --summary --param`.
#pragma once
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"

namespace t3sim::cli {

// Median and 5-95% band of each headline figure over N Latin-hypercube samples; with --summary, the
// nominal run's summary line with an "uncertainty" object added (what `sweep` reads).
int cmd_run_uncertainty(const protocol::RunRequest& a);

struct SensitivityArgs {
  protocol::RunRequest run;
  std::string figure = "makespan";  // makespan | pe_bandwidth (median per PE, first size)
};
// Each ranged parameter at its low and at its high end, the others nominal; parameters ranked by how
// far that moves the figure.
int cmd_sensitivity(const SensitivityArgs& a);

}  // namespace t3sim::cli
