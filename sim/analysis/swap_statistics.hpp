// What the PSTSWM page reports for a swap curve, computed the page's way from a run's records:
//   time per swap T(B)     : per PE and size, from its first to its last "swap" operation, / iterations;
//                            the slowest PE counts
//   unidirectional rate    : B / T(B); the peak over sizes is the reported bandwidth
//   estimated latency      : the intercept of the line through the 512- and 1024-word points,
//                            2 T(4096 B) - T(8192 B). The page writes "(T_1024 - T_512)/512", which is
//                            that line's slope per word; only the intercept has the unit and size of the
//                            latencies it reports (6.4 .. 10.5 us/msg), so that is what it must mean.
//   model error            : max over sizes of |latency + B / peak - T(B)| / T(B)
#pragma once
#include <vector>

#include "sim/core/run/results.hpp"

namespace t3sim::analysis {

struct SwapPoint {
  double bytes = 0;
  double seconds = 0;  // per swap
};

struct SwapStatistics {
  std::vector<SwapPoint> curve;  // by increasing size
  double peak_bandwidth = 0;     // bytes/s, one direction
  double estimated_latency = 0;  // s; NaN when the 4096 B or 8192 B point is missing
  double model_max_rel_error = 0;
};

SwapStatistics swap_statistics(const core::RunResult& run, int iterations);

}  // namespace t3sim::analysis
