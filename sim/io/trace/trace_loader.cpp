#include "sim/io/trace/trace_loader.hpp"

#include "sim/io/trace/common/trace_lines.hpp"
#include "sim/io/trace/shmem/shmem_trace_reader.hpp"
#include "sim/io/trace/ti/ti_trace_reader.hpp"
#include "sim/io/trace/ti/ti_trace_stream.hpp"

namespace t3sim::io {

LoadedWorkload load_trace(const std::string& path, const core::MessageProtocols& protocols, int pes, double size,
                          double max_operations, bool strict, bool whole, double max_streamed) {
  if (first_token(path) == kShmemTraceMagic) return load_shmem_trace(path, protocols, pes, size, max_operations);
  LoadedWorkload w = whole ? load_ti_trace(path, protocols, max_operations, strict)
                           : load_ti_trace_streamed(path, protocols, max_streamed, strict);
  if (pes > 0 && pes != w.workload.pes)
    throw InputError({"--pes", 0, 0}, "pes",
                     "a time-independent trace has as many PEs as ranks (" + std::to_string(w.workload.pes) + ")",
                     std::to_string(pes));
  if (size > 0) throw InputError({"--size", 0, 0}, "size", "a time-independent trace fixes its message sizes");
  return w;
}

}  // namespace t3sim::io
