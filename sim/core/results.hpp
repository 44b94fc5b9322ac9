// What a run produced: one record per operation, in the order operations were issued.
#pragma once
#include <string>
#include <vector>

#include "sim/core/workload.hpp"

namespace t3sim::core {

struct OpRecord {
  int step = 0;
  int iteration = 0;
  std::string label;
  OpKind kind = OpKind::Get;
  int pe = 0;
  int peer = -1;
  double bytes = 0;
  double start = 0;  // s of simulated time
  double end = 0;    // s
  double duration() const { return end - start; }
};

struct RunResult {
  std::string machine;
  std::string profile;
  std::string workload;
  int pes = 0;
  double makespan = 0;            // s: when the last PE finished (outstanding puts delivered and acknowledged)
  int swap_iterations = 0;        // from the workload: > 0 when the run is a swap pattern
  std::vector<OpRecord> records;  // sorted by (pe, start, step) for deterministic output
};

void sort_records(std::vector<OpRecord>& records);

}  // namespace t3sim::core
