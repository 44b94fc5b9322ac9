// The streamed replay of a SimGrid TI trace (what `run --trace` uses): the trace is read twice, and
// its operations are never all held. The first reading checks every line, counts what each became
// (LoadedWorkload::account), plans the collectives and indexes the messages (core::MessageIndex:
// 16 bytes a point-to-point message), taking each rank's calls as they are made. The second, during
// the run, reads each rank's lines again as its PE reaches them (core::OpSource) and expands them
// through the same message layer as the whole-trace path (load_ti_trace), a few operations at a time.
// Memory: the trace's text, 24 bytes a line, the message index and the collective plan; the run's
// records and transfers are sums (core::RunResult::summed). The operations each PE runs, and so every
// time of the run, are those of the whole-trace path (a test holds the makespans equal on the corpus).
#pragma once
#include <string>

#include "sim/core/messages/message_layer.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace t3sim::io {

// As load_ti_trace; the workload's operations come from its source as the run reaches them. A trace
// whose messages the index cannot match without holding them (ranks that disagree on a collective's
// size, or an unmatched message, which is an error) is expanded whole, as load_ti_trace does.
LoadedWorkload load_ti_trace_streamed(const std::string& path, const core::MessageProtocols& protocols,
                                      double max_operations = core::kMaxOperations, bool strict = false);

}  // namespace t3sim::io
