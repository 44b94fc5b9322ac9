// Compares the data movements of two runs of the same workload (e.g. the fast and the reference
// drivers): messages are matched by (source, destination, measurement) and, among equal keys, by
// order of start. Reports how far each message's completion instant and duration moved.
#pragma once
#include <string>
#include <vector>

#include "sim/core/run/results.hpp"

namespace t3sim::analysis {

struct TransferComparison {
  size_t messages = 0;          // matched pairs
  std::string mismatch;         // "" or why the two runs do not hold the same messages
  double max_end_rel = 0;       // max |end_b - end_a| / end_a (completion instant)
  double max_duration_rel = 0;  // max |dur_b - dur_a| / dur_a (dur = end - start)
  double median_duration_rel = 0;
  double within_1pct = 0;  // fraction of messages whose duration moved by <= 1%
};

TransferComparison compare_transfers(std::vector<core::Transfer> a, std::vector<core::Transfer> b);

}  // namespace t3sim::analysis
