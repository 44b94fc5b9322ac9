// The verdict of `t3sim bench` on one case: does the fast driver give the reference driver's answer?
//   exact case   : the fast makespan within 1e-9 relative of the reference's ("within 1e-9" or
//                  "DIFFERS 3.2e-05", the relative difference)
//   chaotic case : ensemble against ensemble. Both drivers run the same N perturbed machines
//                  (router_delay x (1 + k 1e-9), k = 0..N-1); the median of the fast members' makespans
//                  and of their median per-PE bandwidths must lie inside the reference members' range
//                  [min, max] widened to [min (1 - 0.005), max (1 + 0.005)], edges included
//                  ("inside" or "OUTSIDE"). Without a bandwidth (none reported) only the makespan is
//                  judged and the verdict says so.
// Why the fast side is an ensemble too: on a chaotic case one run is one draw from a distribution some
// 10% wide. One draw falls outside the range of N others from the very same distribution with
// probability 2/(N+1) (1 in 3 for N = 5): the reference fails that test against itself
// (leave_one_out_outside counts it per case). The median of N fast draws falls outside with the far
// smaller probability false_alarm_probability(N, N) (1 in 6 for N = 5, 1 in 34 for N = 9); the bench
// prints it beside the verdict, and the one-run verdict (fast k = 0) as information.
// Header-only and pure: unit-tested in tests/unit/bench_test.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace t3sim::analysis {

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

// The median of `values` (not empty): the middle value, or the mean of the two middle ones.
inline double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// C(n, k) as a double (exact for the small ensembles of a bench).
inline double binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

// The probability that the median of `fast` draws lies outside the range of `reference` draws when all
// come independently from one continuous distribution (no widening): the false alarm of the ensemble
// verdict. All C(F + R, R) orderings of the pooled draws are equally likely. For odd F the fast median is
// the h-th largest fast draw, h = (F + 1) / 2, and lies above every reference draw exactly when the h
// largest pooled draws are all fast: C(F + R - h, R) orderings; below is the mirror image, so twice
// that. For even F (median: the mean of the two middle draws) h = F / 2 + 1 counts the orderings with both
// middle draws outside: a lower bound.
inline double false_alarm_probability(int fast, int reference) {
  if (fast < 1 || reference < 1) return 1;
  const int h = fast % 2 ? (fast + 1) / 2 : fast / 2 + 1;
  return std::min(1.0, 2 * binomial(fast + reference - h, reference) / binomial(fast + reference, reference));
}

// A chaotic case: the fast ensemble's medians against the reference ensemble's ranges (one value per
// member, at least one on each side). The bandwidth is judged when every member of both reports one.
inline BenchVerdict ensemble_against_ensemble(const std::vector<double>& fast_makespans,
                                              const std::vector<double>& reference_makespans,
                                              const std::vector<std::optional<double>>& fast_bandwidths,
                                              const std::vector<std::optional<double>>& reference_bandwidths) {
  const auto all_reported = [](const std::vector<std::optional<double>>& v) {
    return !v.empty() && std::all_of(v.begin(), v.end(), [](const std::optional<double>& b) { return b.has_value(); });
  };
  const auto values = [](const std::vector<std::optional<double>>& v) {
    std::vector<double> out;
    for (const auto& b : v) out.push_back(*b);
    return out;
  };
  bool ok = inside(median_of(fast_makespans), widened(range_of(reference_makespans)));
  const bool bandwidth_judged = all_reported(fast_bandwidths) && all_reported(reference_bandwidths);
  if (bandwidth_judged)
    ok = ok && inside(median_of(values(fast_bandwidths)), widened(range_of(values(reference_bandwidths))));
  return {ok, std::string(ok ? "inside" : "OUTSIDE") + (bandwidth_judged ? "" : " (makespan only)")};
}

// One fast run against the reference ensemble (the one-run verdict, reported as information; one value
// per member, at least one). The bandwidth is judged when the fast run and every member report one.
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

// How many members of an ensemble fail the one-run verdict against all the others (0 for fewer than 2):
// what that verdict makes of the reference judged against itself.
inline int leave_one_out_outside(const std::vector<double>& makespans,
                                 const std::vector<std::optional<double>>& bandwidths) {
  if (makespans.size() < 2) return 0;
  // bandwidths judged only when every member has one (as the one-run verdict does)
  const bool with_bandwidth =
      bandwidths.size() == makespans.size() &&
      std::all_of(bandwidths.begin(), bandwidths.end(), [](const auto& b) { return b.has_value(); });
  int outside_count = 0;
  for (size_t i = 0; i < makespans.size(); ++i) {
    std::vector<double> other_makespans = makespans;
    other_makespans.erase(other_makespans.begin() + static_cast<std::ptrdiff_t>(i));
    std::vector<std::optional<double>> other_bandwidths;
    std::optional<double> own;
    if (with_bandwidth) {
      other_bandwidths = bandwidths;
      other_bandwidths.erase(other_bandwidths.begin() + static_cast<std::ptrdiff_t>(i));
      own = *bandwidths[i];
    }
    if (!ensemble_verdict(makespans[i], other_makespans, own, other_bandwidths).ok) ++outside_count;
  }
  return outside_count;
}

}  // namespace t3sim::analysis
