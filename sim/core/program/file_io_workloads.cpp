#include "sim/core/program/file_io_workloads.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/program/traffic_pattern.hpp"

namespace t3sim::core {
namespace {

// The distinct grid neighbours of PE p (+-x, +-y, +-z with wrap; none along a dimension of size 1).
std::vector<int> grid_neighbours(const Coord& g, int p) {
  const Coord c{p % g[0], (p / g[0]) % g[1], p / (g[0] * g[1])};
  std::vector<int> out;
  for (int d = 0; d < 3; ++d) {
    if (g[d] == 1) continue;
    for (int step : {1, -1}) {
      Coord n = c;
      n[d] = (c[d] + step + g[d]) % g[d];
      const int q = n[0] + g[0] * (n[1] + g[1] * n[2]);
      if (std::find(out.begin(), out.end(), q) == out.end()) out.push_back(q);
    }
  }
  return out;
}

class Emitter {
 public:
  explicit Emitter(Workload& w) : w_(w) {}
  void compute(int pe, double seconds, const char* label, bool exponential = false) {
    Op op = make(OpKind::Compute, pe, -1, 0, label);
    op.seconds = seconds;
    op.exponential = exponential;
    w_.ops.push_back(op);
  }
  // A put of `bytes` that raises `flag` at `to` when it lands (an MPI message's arrival).
  void put(int pe, int to, double bytes, const std::string& flag, const char* label) {
    Op op = make(OpKind::Put, pe, to, bytes, label);
    op.flag = w_.flags.intern(flag);
    op.complete = false;
    w_.ops.push_back(op);
  }
  void wait(int pe, const std::string& flag, const char* label) {
    Op op = make(OpKind::Wait, pe, -1, 0, label);
    op.flag = w_.flags.intern(flag);
    w_.ops.push_back(op);
  }
  void file_op(OpKind kind, int pe, const std::string& file, double bytes, double record, IoMode mode,
               const char* label) {
    Op op = make(kind, pe, static_cast<int>(w_.files.intern(file)), bytes, label);
    op.flops = record;  // record_bytes(op)
    op.io_mode = mode;
    w_.ops.push_back(op);
  }
  // Operations emitted from `first` on run `count` times (0: until the main job has finished).
  void repeat_from(size_t first, int count) {
    if (count != 1 && w_.ops.size() > first)
      w_.repeats.push_back({static_cast<uint32_t>(first), static_cast<uint32_t>(w_.ops.size()), count});
  }

 private:
  Op make(OpKind kind, int pe, int peer, double bytes, const char* label) {
    Op op;
    op.kind = kind;
    op.pe = pe;
    op.peer = peer;
    op.bytes = bytes;
    op.label = w_.labels.intern(label);
    op.step = static_cast<int>(w_.ops.size());
    return op;
  }
  Workload& w_;
};

void md_step(Emitter& e, const MdRunSpec& s, int pes, const Coord& grid, int pe) {
  e.compute(pe, s.step_compute * s.communication_every, "compute");
  if (s.halo_bytes > 0) {
    const std::vector<int> near = grid_neighbours(grid, pe);
    for (int q : near) e.put(pe, q, s.halo_bytes, "halo", "halo");
    for (size_t i = 0; i < near.size(); ++i) e.wait(pe, "halo", "halo_wait");
  }
  if (s.allreduce_bytes <= 0 || pes == 1) return;
  int q = 1;  // the largest power of two <= pes
  while (q * 2 <= pes) q *= 2;
  if (pe >= q) {  // fold in, then wait for the result
    e.put(pe, pe - q, s.allreduce_bytes, "ar_in", "allreduce");
    e.wait(pe, "ar_out", "allreduce");
    return;
  }
  if (pe + q < pes) e.wait(pe, "ar_in", "allreduce");
  for (int bit = 1; bit < q; bit *= 2) {
    const std::string flag = "ar" + std::to_string(bit);
    e.put(pe, pe ^ bit, s.allreduce_bytes, flag, "allreduce");
    e.wait(pe, flag, "allreduce");
  }
  if (pe + q < pes) e.put(pe, pe + q, s.allreduce_bytes, "ar_out", "allreduce");
}

}  // namespace

void append_md_run(Workload& w, const MdRunSpec& given) {
  Emitter e(w);
  const int pes = w.pes;
  MdRunSpec s = given;
  if (s.sized_for_pes > 0) {
    const double share = static_cast<double>(s.sized_for_pes) / pes;
    s.step_compute *= share;
    s.halo_bytes = std::round(s.halo_bytes * std::cbrt(share * share));
  }
  const Coord grid = balanced_grid(pes);
  auto steps = [&](int n) {  // n steps (a multiple of communication_every, but for the last few)
    const size_t first = w.ops.size();
    MdRunSpec grouped = s;
    if (n % s.communication_every != 0) grouped.communication_every = 1;
    for (int pe = 0; pe < pes; ++pe) md_step(e, grouped, pes, grid, pe);
    e.repeat_from(first, n / grouped.communication_every);
  };
  const int frames = s.frame_bytes > 0 ? s.steps / s.frame_interval : 0;
  for (int f = 0; f < frames; ++f) {
    steps(s.frame_interval);
    if (s.gather_bytes > 0 && pes > 1) {
      for (int pe = 1; pe < pes; ++pe) e.put(pe, 0, s.gather_bytes / pes, "gather", "gather");
      for (int pe = 1; pe < pes; ++pe) e.wait(0, "gather", "gather_wait");
    }
    e.file_op(OpKind::Write, 0, s.file, s.frame_bytes, s.record_bytes, s.buffering, "write");
  }
  if (const int left = s.steps - frames * s.frame_interval; left > 0) steps(left);
  if (frames > 0) e.file_op(OpKind::Close, 0, s.file, 0, s.record_bytes, s.buffering, "close");
}

void append_io_writers(Workload& w, const IoWritersSpec& s) {
  Emitter e(w);
  const size_t first = w.ops.size();
  for (int pe = 0; pe < w.pes; ++pe) {
    e.compute(pe, s.think_seconds, "think", true);
    e.file_op(OpKind::Write, pe, "writer" + std::to_string(pe), s.bytes, s.record_bytes > 0 ? s.record_bytes : s.bytes,
              s.buffering, "write");
  }
  e.repeat_from(first, s.writes);
}

}  // namespace t3sim::core
