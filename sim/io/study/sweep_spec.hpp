// A what-if study: every combination of machines x PE counts x placements x workloads (and SHMEM
// traces) x message sizes x the study's own axes (sweep_axes.hpp: workload variables, machine
// parameters, background jobs), one `t3sim run --summary` each. Read from a sweep file (strict YAML,
// paths relative to it).
#pragma once
#include <string>
#include <vector>

#include "sim/io/study/sweep_axes.hpp"

namespace t3sim::io {

constexpr int kAllPes = 0;  // `pes: [all]`

struct SweepSpec {
  std::string name;
  std::vector<std::string> machines;    // resolved paths
  std::vector<int> pes;                 // kAllPes: each machine's every PE
  std::vector<std::string> placements;  // contiguous, block, random:SEED
  std::vector<std::string> workloads;   // resolved paths
  std::vector<std::string> traces;      // resolved paths of SHMEM traces (`run --trace`; --pes and --size apply)
  std::vector<double> sizes;            // bytes; empty: each workload's own sizes (no --size)
  int jobs = 0;                         // parallel processes; 0: one per core
  std::vector<SweepAxis> axes;          // the study's own axes, in file order
  RunSettings common;                   // every point's (`fitted:`, then `set:`); axis values override
  // `plot:` the figure of a study with axes: y against x (a column: pes, bytes, or an axis), one line per
  // value of `series`, one panel per row x column value; other axes with several values get a figure
  // each. Empty x: the default figures (per-PE bandwidth against the job size, one per message size).
  struct Plot {
    std::string x, series, rows, columns, y;
  } plot;
};

struct SweepPoint {
  int index = 0;
  std::string machine, workload, placement;
  bool trace = false;  // `workload` is a SHMEM trace
  int pes = 0;
  double bytes = 0;                                         // 0: the workload's own sizes
  std::vector<std::pair<std::string, std::string>> labels;  // (axis, value label), one per SweepSpec::axes
  RunSettings settings;                                     // what the point's run is given beyond the above
  // "machine-file|workload-file|pes|placement|bytes" then "|axis=label" per axis, stable across runs
  std::string id() const;
  // What the point's `t3sim run` is asked (with --summary: sweep.csv's row is read from its answer).
  protocol::RunRequest request() const;
};

SweepSpec load_sweep(const std::string& path);
// sweep.csv's header: the measured columns, then (with axes) main_job_end_us and one column per axis,
// then the point's id.
std::string sweep_header(const SweepSpec& spec);
// Every column name sweep.csv may have besides the axes' (an axis may not take one of them).
const std::vector<std::string>& sweep_columns();
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);

}  // namespace t3sim::io
