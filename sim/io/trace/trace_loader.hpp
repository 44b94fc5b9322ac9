// `t3sim run --trace FILE`: a t3sim SHMEM trace (first line `t3sim-trace 1`) or, otherwise, a SimGrid
// time-independent MPI trace; both become a workload through the message layer. A TI trace is replayed
// streamed (ti_trace_stream.hpp): its operations made as the run reaches them, its records summed.
#pragma once
#include <string>

#include "sim/core/messages/message_layer.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace t3sim::io {

// `pes` / `size` (> 0) override a SHMEM trace's PE count / sizes; a TI trace's ranks are fixed, so
// they are errors there.
// `max_operations` caps the expansion (t3sim's limit; the fuzzer passes less to stay fast).
// `strict`: a TI trace's warnings are errors.
// `whole`: a TI trace expanded whole (load_ti_trace) instead of streamed. `max_operations` caps what a
// trace expanded whole may make, `max_streamed` a streamed one (its memory does not grow with them).
LoadedWorkload load_trace(const std::string& path, const core::MessageProtocols& protocols, int pes = 0,
                          double size = 0, double max_operations = core::kMaxOperations, bool strict = false,
                          bool whole = false, double max_streamed = core::kMaxStreamedOperations);

}  // namespace t3sim::io
