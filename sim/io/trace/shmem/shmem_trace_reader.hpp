// Reads a t3sim SHMEM trace (format: workloads/README.md, "SHMEM traces"): a header naming the PE count,
// then one section per PE (or per set of PEs; `pe LIST from FILE`: one file per PE), one operation per line: one-sided
// SHMEM operations, messages of the message layer, collectives, computation. Errors name file:line:column and the
// operation.
#pragma once
#include <string>

#include "sim/core/messages/message_layer.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace t3sim::io {

constexpr const char* kShmemTraceMagic = "t3sim-trace";

// The operations of the format: "name ARGUMENTS", options, meaning (`t3sim describe trace`; the reader
// takes its operation names from here). Every operation also takes `label NAME`.
const std::vector<core::KeyDoc>& shmem_trace_operations();
const std::vector<std::string>& shmem_trace_operation_names();  // their first words

// `protocols` are the machine profile's (eager_threshold, mpi_queue_bytes); `pes`, when > 0,
// replaces the header's PE count (`run --pes`); `size`, when > 0, replaces the `sizes` list.
// `max_operations` caps the expansion (t3sim's limit; the fuzzer passes less).
LoadedWorkload load_shmem_trace(const std::string& path, const core::MessageProtocols& protocols, int pes = 0,
                                double size = 0, double max_operations = core::kMaxOperations);

}  // namespace t3sim::io
