// A what-if study: every combination of machines x PE counts x placements x workloads (and SHMEM
// traces) x message sizes,
// one `t3sim run --summary` each. Read from a sweep file (strict YAML, paths relative to it).
#pragma once
#include <string>
#include <vector>

namespace t3sim::io {

constexpr int kAllPes = 0;  // `pes: [all]`

struct SweepSpec {
  std::string name;
  std::vector<std::string> machines;    // resolved paths
  std::vector<int> pes;                 // kAllPes: each machine's every PE
  std::vector<std::string> placements;  // contiguous, block, random:SEED
  std::vector<std::string> workloads;   // resolved paths
  std::vector<std::string> traces;      // resolved paths of SHMEM traces (`run --trace`; --pes and --size apply)
  std::vector<double> sizes;            // bytes
  int jobs = 0;                         // parallel processes; 0: one per core
};

struct SweepPoint {
  int index = 0;
  std::string machine, workload, placement;
  bool trace = false;  // `workload` is a SHMEM trace
  int pes = 0;
  double bytes = 0;
  std::string id() const;  // "machine-file|workload-file|pes|placement|bytes", stable across runs
};

SweepSpec load_sweep(const std::string& path);
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);

}  // namespace t3sim::io
