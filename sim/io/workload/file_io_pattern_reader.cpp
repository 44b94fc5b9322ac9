#include "sim/io/workload/file_io_pattern_reader.hpp"

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/program/file_io_workloads.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/workload/workload_loader.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {
namespace {

constexpr double kMaxFileBytes = 1e12;  // one write or frame: a terabyte

core::IoMode read_buffering(MapReader& m, const WorkloadContext& ctx) {
  auto n = m.optional("buffering");
  return n ? resolve_enum<core::IoMode>(*n, ctx, m.child_path("buffering")) : core::IoMode::Runtime;
}

}  // namespace

bool is_io_pattern(const std::string& kind) { return kind == "md" || kind == "io_writers"; }

void read_io_pattern(const std::string& kind, const YAML::Node& node, const WorkloadContext& ctx, core::Workload& w) {
  MapReader m(node, ctx.file, "pattern." + kind);
  auto quantity = [&](const char* key, core::Quantity q, double min, double max, double fallback) {
    auto n = m.optional(key);
    return n ? resolve_quantity(*n, ctx, m.child_path(key), q, min, max) : fallback;
  };
  auto required = [&](const char* key, core::Quantity q, double min, double max) {
    return resolve_quantity(m.required(key), ctx, m.child_path(key), q, min, max);
  };
  if (kind == "md") {
    core::MdRunSpec s;
    s.steps = static_cast<int>(resolve_int(m.required("steps"), ctx, m.child_path("steps"), 1, 100000000));
    s.frame_interval =
        static_cast<int>(m.has("frame_interval") ? resolve_int(m.required("frame_interval"), ctx,
                                                               m.child_path("frame_interval"), 1, 100000000)
                                                 : s.steps);
    if (m.has("communication_every")) {
      const YAML::Node g = m.required("communication_every");
      s.communication_every =
          static_cast<int>(resolve_int(g, ctx, m.child_path("communication_every"), 1, s.frame_interval));
      if (s.frame_interval % s.communication_every != 0)
        throw InputError(pos_of(ctx.file, g), m.child_path("communication_every"),
                         "must divide frame_interval (" + std::to_string(s.frame_interval) + ")");
    }
    s.step_compute = required("step_compute", core::Quantity::Time, 0, 3600);
    s.halo_bytes = quantity("halo_bytes", core::Quantity::Size, 0, 1073741824.0, 0);
    if (auto r = m.optional("sized_for_pes"))
      s.sized_for_pes = static_cast<int>(resolve_int(*r, ctx, m.child_path("sized_for_pes"), 1, core::kMaxNodes));
    s.allreduce_bytes = quantity("allreduce_bytes", core::Quantity::Size, 0, 1073741824.0, 0);
    s.gather_bytes = quantity("gather_bytes", core::Quantity::Size, 0, kMaxFileBytes, 0);
    s.frame_bytes = quantity("frame_bytes", core::Quantity::Size, 0, kMaxFileBytes, 0);
    s.record_bytes = quantity("record", core::Quantity::Size, 1, 1073741824.0, 81);
    if (auto f = m.optional("file")) s.file = resolve_text(*f, ctx, m.child_path("file"), nullptr);
    s.buffering = read_buffering(m, ctx);
    // 5000 steps of 128 PEs hold one step per frame (repeats): the bound is per frame, not per step.
    const double frames = s.frame_bytes > 0 ? static_cast<double>(s.steps) / s.frame_interval + 1 : 1;
    if (frames * w.pes * 40 > core::kMaxOperations)
      throw InputError(m.key_pos("steps"), m.child_path("steps"),
                       "too many frames for t3sim's operation limit (each frame holds one step's operations)");
    m.finish();
    core::append_md_run(w, s);
  } else {
    core::IoWritersSpec s;
    s.bytes = required("bytes", core::Quantity::Size, 1, kMaxFileBytes);
    s.record_bytes = quantity("record", core::Quantity::Size, 1, kMaxFileBytes, s.bytes);
    s.think_seconds = required("think", core::Quantity::Time, 1e-9, 3600);
    s.writes = static_cast<int>(
        m.has("writes") ? resolve_int(m.required("writes"), ctx, m.child_path("writes"), 0, 100000000) : 0);
    s.buffering = read_buffering(m, ctx);
    if (auto seed = m.optional("seed"))
      w.seed = static_cast<uint64_t>(resolve_int(*seed, ctx, m.child_path("seed"), 0, 2000000000L));
    m.finish();
    core::append_io_writers(w, s);
  }
  w.pattern = kind;
}

const std::vector<core::KeyDoc>& io_pattern_keys() {
  static const std::vector<core::KeyDoc> keys = {
      {"pattern.md", "map",
       "an MD run in pmemd's shape (sim/core/program/file_io_workloads.hpp): per step compute, halo exchange, "
       "all-reduce; "
       "every frame_interval steps a frame gathered to PE 0 and written"},
      {"pattern.md.steps", "integer >= 1", "time steps"},
      {"pattern.md.frame_interval", "integer >= 1", "steps between trajectory frames; default: steps"},
      {"pattern.md.step_compute", "time", "each PE's computation per step"},
      {"pattern.md.communication_every", "integer >= 1",
       "coarsening: G steps run as one compute of G x step_compute and one halo exchange and all-reduce; must "
       "divide frame_interval; default 1 (every step communicates)"},
      {"pattern.md.halo_bytes", "size", "per grid neighbour per step; default 0 (no halo exchange)"},
      {"pattern.md.sized_for_pes", "integer >= 1",
       "the job size step_compute and halo_bytes are given for: at P PEs each PE computes step_compute x R / P "
       "(perfect strong scaling, assumed) and sends halo_bytes x (R / P)^(2/3); default: the job's own size"},
      {"pattern.md.allreduce_bytes", "size", "the step's all-reduce (recursive doubling); default 0 (none)"},
      {"pattern.md.gather_bytes", "size", "per frame, over all PEs, gathered to PE 0; default 0"},
      {"pattern.md.frame_bytes", "size", "per frame, written by PE 0; default 0 (no trajectory)"},
      {"pattern.md.record", "size", "bytes per formatted record of the frame; default 81B"},
      {"pattern.md.file", "name", "the trajectory file; default trajectory"},
      {"pattern.md.buffering", core::enum_names_text<core::IoMode>("|"),
       "none: the language runtime's buffer (io.runtime_buffer), written synchronously; iobuf: the buffering "
       "library's buffers (io.iobuf_size x io.iobuf_count), written asynchronously; default none"},
      {"pattern.io_writers", "map",
       "other users' writers (a background job): each PE thinks (exponential, seeded) then writes, in a loop"},
      {"pattern.io_writers.bytes", "size", "per write"},
      {"pattern.io_writers.record", "size", "per record; default: the whole write"},
      {"pattern.io_writers.think", "time", "mean of the exponential time between a write's return and the next"},
      {"pattern.io_writers.writes", "integer >= 0", "writes per PE; default 0: until the main job has finished"},
      {"pattern.io_writers.buffering", core::enum_names_text<core::IoMode>("|"),
       "as pattern.md.buffering; default none"},
      {"pattern.io_writers.seed", "integer", "seed of the think times; default 1"},
  };
  return keys;
}

}  // namespace t3sim::io
