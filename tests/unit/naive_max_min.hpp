// A textbook progressive filling for the max-min solver's tests (flow_solver_weighted_test,
// flow_solver_shares_test): all flows at once, nothing incremental, written apart from the solver so
// that its rates are checked against an independent computation.
#pragma once
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"

namespace t3sim::testing_support {

using core::FlowSolver;
using core::ResourceId;

// How closely the solver's rates must agree with the naive filling: 1e-12 relative (flow_solver.hpp).
constexpr double kAgreement = 1e-12;
inline bool agrees(double a, double b) {
  return a == b || std::abs(a - b) <= kAgreement * std::max(std::abs(a), std::abs(b));
}

struct NaiveFlow {
  std::vector<ResourceId> path;
  std::vector<double> weights;  // one per resource of path
  double cap;
  double share = 1;
};

// Every unfrozen flow at share x level; the level rises until a flow reaches its cap or a resource
// fills (remaining over the unfrozen users' summed weight x share); those freeze there.
inline std::vector<double> naive_max_min(const std::vector<double>& capacity, const std::vector<NaiveFlow>& flows) {
  const double merge = 1 + FlowSolver::kRelativeTolerance;
  std::vector<double> rate(flows.size(), 0);
  std::vector<bool> frozen(flows.size(), false);
  std::vector<double> remaining = capacity;
  size_t left = flows.size();
  while (left > 0) {
    std::vector<double> demand(capacity.size(), 0);
    for (size_t f = 0; f < flows.size(); ++f)
      if (!frozen[f])
        for (size_t i = 0; i < flows[f].path.size(); ++i)
          demand[static_cast<size_t>(flows[f].path[i])] += flows[f].weights[i] * flows[f].share;
    double level = FlowSolver::kNoCap;
    for (size_t r = 0; r < capacity.size(); ++r)
      if (demand[r] > 0) level = std::min(level, std::max(0.0, remaining[r]) / demand[r]);
    for (size_t f = 0; f < flows.size(); ++f)
      if (!frozen[f]) level = std::min(level, flows[f].cap / flows[f].share);
    if (!std::isfinite(level)) break;
    std::vector<size_t> freeze;
    for (size_t f = 0; f < flows.size(); ++f) {
      if (frozen[f]) continue;
      bool hit = flows[f].cap / flows[f].share <= level * merge;
      for (ResourceId r : flows[f].path) {
        const auto ri = static_cast<size_t>(r);
        hit = hit || std::max(0.0, remaining[ri]) / demand[ri] <= level * merge;
      }
      if (hit) freeze.push_back(f);
    }
    for (size_t f : freeze) {
      const double x = std::min(level * flows[f].share, flows[f].cap);
      rate[f] = x;
      frozen[f] = true;
      --left;
      for (size_t i = 0; i < flows[f].path.size(); ++i)
        remaining[static_cast<size_t>(flows[f].path[i])] -= flows[f].weights[i] * x;
    }
  }
  return rate;
}

// A random path for the random-system tests: 1 to 6 distinct resources of the first `resources`.
inline std::vector<ResourceId> random_path(std::mt19937_64& rng, int resources) {
  std::vector<ResourceId> all(static_cast<size_t>(resources));
  for (int r = 0; r < resources; ++r) all[static_cast<size_t>(r)] = r;
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(1 + rng() % static_cast<uint64_t>(std::min(6, resources)));
  return all;
}

}  // namespace t3sim::testing_support
