#include "sim/analysis/swap_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/core/program/swap_pattern.hpp"

namespace t3sim::analysis {

SwapStatistics swap_statistics(const core::RunResult& run, int iterations) {
  struct Span {
    double start = INFINITY, end = -INFINITY, bytes = 0;
  };
  std::map<std::pair<int, int>, Span> spans;  // (size index, pe)
  const core::NameId swap = run.labels.find(core::kSwapLabel);
  for (const auto& r : run.records) {
    if (r.label != swap) continue;
    Span& s = spans[{r.iteration, r.pe}];
    s.start = std::min(s.start, r.start);
    s.end = std::max(s.end, r.end);
    s.bytes = std::max(s.bytes, r.bytes);
  }
  std::map<int, SwapPoint> by_size;
  for (const auto& [key, s] : spans) {
    SwapPoint& p = by_size[key.first];
    p.bytes = std::max(p.bytes, s.bytes);
    p.seconds = std::max(p.seconds, (s.end - s.start) / iterations);
  }
  SwapStatistics st;
  for (const auto& [index, p] : by_size) st.curve.push_back(p);
  std::sort(st.curve.begin(), st.curve.end(), [](const SwapPoint& a, const SwapPoint& b) { return a.bytes < b.bytes; });
  double t512 = NAN, t1024 = NAN;
  for (const auto& p : st.curve) {
    st.peak_bandwidth = std::max(st.peak_bandwidth, p.bytes / p.seconds);
    if (p.bytes == 4096) t512 = p.seconds;
    if (p.bytes == 8192) t1024 = p.seconds;
  }
  st.estimated_latency = 2 * t512 - t1024;
  if (std::isfinite(st.estimated_latency))
    for (const auto& p : st.curve) {
      const double model = st.estimated_latency + p.bytes / st.peak_bandwidth;
      st.model_max_rel_error = std::max(st.model_max_rel_error, std::fabs(model - p.seconds) / p.seconds);
    }
  return st;
}

}  // namespace t3sim::analysis
