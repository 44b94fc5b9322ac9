#include "sim/analysis/transfer_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "sim/analysis/traffic_report.hpp"

namespace t3sim::analysis {
namespace {

void sort_by_key(std::vector<core::Transfer>& v) {
  std::stable_sort(v.begin(), v.end(), [](const core::Transfer& x, const core::Transfer& y) {
    return std::tie(x.src, x.dst, x.iteration, x.start) < std::tie(y.src, y.dst, y.iteration, y.start);
  });
}

}  // namespace

TransferComparison compare_transfers(std::vector<core::Transfer> a, std::vector<core::Transfer> b) {
  TransferComparison c;
  if (a.size() != b.size()) {
    c.mismatch = "the runs moved " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " messages";
    return c;
  }
  sort_by_key(a);
  sort_by_key(b);
  std::vector<double> duration_rel;
  duration_rel.reserve(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const core::Transfer& x = a[i];
    const core::Transfer& y = b[i];
    if (x.src != y.src || x.dst != y.dst || x.iteration != y.iteration || x.bytes != y.bytes) {
      c.mismatch = "message " + std::to_string(i) + " differs: " + std::to_string(x.src) + "->" +
                   std::to_string(x.dst) + " vs " + std::to_string(y.src) + "->" + std::to_string(y.dst);
      return c;
    }
    if (x.end > 0) c.max_end_rel = std::max(c.max_end_rel, std::abs(y.end - x.end) / x.end);
    const double dx = x.end - x.start;
    const double dy = y.end - y.start;
    duration_rel.push_back(dx > 0 ? std::abs(dy - dx) / dx : 0.0);
  }
  c.messages = a.size();
  if (duration_rel.empty()) return c;
  c.max_duration_rel = *std::max_element(duration_rel.begin(), duration_rel.end());
  c.within_1pct =
      static_cast<double>(std::count_if(duration_rel.begin(), duration_rel.end(), [](double r) { return r <= 0.01; })) /
      static_cast<double>(duration_rel.size());
  std::nth_element(duration_rel.begin(), duration_rel.begin() + static_cast<long>(duration_rel.size() / 2),
                   duration_rel.end());
  c.median_duration_rel = duration_rel[duration_rel.size() / 2];
  return c;
}

}  // namespace t3sim::analysis
