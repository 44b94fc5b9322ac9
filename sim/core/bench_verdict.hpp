// The verdict of `t3sim bench` on one case: does the fast driver give the reference driver's answer?
//   exact case   : the fast makespan within 1e-9 relative of the reference's ("within 1e-9" or
//                  "DIFFERS 3.2e-05", the relative difference)
//   chaotic case : the reference is an ensemble (runs with router_delay x (1 + k 1e-9), k = 0..N-1);
//                  the fast makespan and median per-PE bandwidth must lie inside the ensemble's range
//                  [min, max] widened to [min (1 - 0.005), max (1 + 0.005)], edges included
//                  ("inside" or "OUTSIDE"). Without a bandwidth (none reported) only the makespan is
//                  judged and the verdict says so.
// Header-only and pure: unit-tested in tests/unit/bench_test.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace t3sim::core {

constexpr double kExactTolerance = 1e-9;     // relative, exact cases
constexpr double kEnsembleWidening = 0.005;  // relative, each side of the ensemble's range

struct ValueRange {
  double min = 0, max = 0;
};

// The range of `values` (not empty).
inline ValueRange range_of(const std::vector<double>& values) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

// `range` widened by `widening` of its ends on each side (for positive values: outward).
inline ValueRange widened(ValueRange range, double widening = kEnsembleWidening) {
  return {range.min - std::abs(range.min) * widening, range.max + std::abs(range.max) * widening};
}

inline bool inside(double value, ValueRange range) { return value >= range.min && value <= range.max; }

// |value - reference| / |reference|; 0 when both are 0, infinity when only the reference is.
inline double relative_difference(double value, double reference) {
  if (value == reference) return 0;
  if (reference == 0) return std::numeric_limits<double>::infinity();
  return std::abs(value - reference) / std::abs(reference);
}

struct BenchVerdict {
  bool ok = false;
  std::string text;  // "within 1e-9", "DIFFERS 3.21e-05", "inside", "OUTSIDE", + " (makespan only)"
};

// An exact case: the fast makespan against the reference's.
inline BenchVerdict exact_verdict(double fast_makespan, double reference_makespan) {
  const double rel = relative_difference(fast_makespan, reference_makespan);
  if (rel <= kExactTolerance) return {true, "within 1e-9"};
  char text[40];
  std::snprintf(text, sizeof text, "DIFFERS %.2e", rel);
  return {false, text};
}

// A chaotic case: the fast figures against the ensemble's (one value per member, at least one). The
// bandwidth is judged when the fast run and every member report one.
inline BenchVerdict ensemble_verdict(double fast_makespan, const std::vector<double>& ensemble_makespans,
                                     std::optional<double> fast_bandwidth,
                                     const std::vector<std::optional<double>>& ensemble_bandwidths) {
  bool ok = inside(fast_makespan, widened(range_of(ensemble_makespans)));
  bool bandwidth_judged = fast_bandwidth.has_value() && !ensemble_bandwidths.empty() &&
                          std::all_of(ensemble_bandwidths.begin(), ensemble_bandwidths.end(),
                                      [](const std::optional<double>& b) { return b.has_value(); });
  if (bandwidth_judged) {
    std::vector<double> values;
    for (const auto& b : ensemble_bandwidths) values.push_back(*b);
    ok = ok && inside(*fast_bandwidth, widened(range_of(values)));
  }
  return {ok, std::string(ok ? "inside" : "OUTSIDE") + (bandwidth_judged ? "" : " (makespan only)")};
}

}  // namespace t3sim::core
