// A textbook progressive filling for the max-min solver's tests (flow_solver_weighted_test,
// flow_solver_shares_test): all flows at once, nothing incremental, written apart from the solver so
// that its rates are checked against an independent computation.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"

namespace t3sim::testing_support {

using core::FlowSolver;
using core::ResourceId;

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

}  // namespace t3sim::testing_support
