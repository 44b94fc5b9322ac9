// Imports SimGrid's time-independent MPI traces (`smpirun -trace-ti`, SimGrid 3.32's format): one file
// whose lines start with the rank, or a file listing files of such lines (one per rank, SimGrid's
// default, or one for all ranks, its tracing/smpi/format/ti-one-file option; paths relative to it).
// Every action the 3.32 writer emits is read with its meaning (ti_rank_reader.hpp; the rules for users
// in workloads/README.md); every line is replayed or without cost by a named rule, and the guesses the
// trace forces are warnings (LoadedWorkload::account). Counts are in datatype units (MPI_BYTE unless
// `init` names a type, then MPI_DOUBLE, as SimGrid). Collectives expand as sim/core/messages/collectives.hpp.
#pragma once
#include <string>

#include "sim/core/messages/message_layer.hpp"
#include "sim/io/trace/ti/ti_collective_plan.hpp"
#include "sim/io/trace/ti/ti_rank_reader.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace t3sim::io {

// `strict`: every warning (LoadedWorkload::account) is an error. The whole trace is expanded into the
// workload's operations before the run (a test's oracle for the streamed replay, ti_trace_stream.hpp,
// which `run --trace` uses).
LoadedWorkload load_ti_trace(const std::string& path, const core::MessageProtocols& protocols,
                             double max_operations = core::kMaxOperations, bool strict = false);

// A trace's text and its lines grouped by rank: texts[i] is files[i]; the lines keep their order.
struct TiTraceText {
  std::vector<TraceText> texts;  // their line lists freed: per_rank has them
  std::vector<std::string> files;
  std::vector<std::vector<TiLine>> per_rank;
  int ranks() const { return static_cast<int>(per_rank.size()); }
};
TiTraceText read_ti_trace_text(const std::string& path);

// Every rank's reader of `trace`, writing into `program`, and the collectives planned across them
// (plan_collectives into *plan): where both readings of a trace start (the readers have looked ahead,
// not read).
std::vector<TiRankReader> look_ahead(TraceProgram& program, const TiTraceText& trace, CollectivePlan* plan);

}  // namespace t3sim::io
