// FlowSolver::solve_local (sim/core/flow/flow_solver.hpp), what the fast transport's settle time uses under
// multipath routings: on random weighted systems changed a few flows at a time, every local solve
// keeps every resource within its capacity and every flow's rate positive; when it defers nothing its
// rates are the exact ones; and the exact solve() after any number of local solves gives the max-min
// allocation (equal to a solve from scratch to 1e-12 relative). The systems are coupled enough that
// local solves do defer (checked, so that the test cannot pass on a solver that never defers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"

using namespace t3sim::core;

namespace {

bool close(double a, double b) { return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

struct RandomSystem {
  FlowSolver solver;
  std::vector<EntryId> flows;  // one element per flow
  std::mt19937 rng;
  explicit RandomSystem(unsigned seed, int resources) : rng(seed) {
    std::uniform_real_distribution<double> cap(50, 150);
    for (int r = 0; r < resources; ++r) solver.add_resource(cap(rng));
  }
  void add_random_flow() {
    std::uniform_int_distribution<int> len(2, 6), res(0, solver.resource_count() - 1);
    std::uniform_real_distribution<double> w(0.25, 1.0);
    std::vector<ResourceId> path;
    const int n = len(rng);
    while (static_cast<int>(path.size()) < n) {
      const ResourceId r = res(rng);
      if (std::find(path.begin(), path.end(), r) == path.end()) path.push_back(r);
    }
    std::sort(path.begin(), path.end());
    std::vector<double> weights;
    for (size_t i = 0; i < path.size(); ++i) weights.push_back(w(rng));
    flows.push_back(solver.add_flow(path, weights, FlowSolver::kNoCap));
  }
  void remove_random_flow() {
    std::uniform_int_distribution<size_t> pick(0, flows.size() - 1);
    const size_t i = pick(rng);
    solver.remove_flow(flows[i]);
    flows[i] = flows.back();
    flows.pop_back();
  }
  void change() {
    std::uniform_int_distribution<int> coin(0, 2);
    for (int k = 0; k < 3; ++k) {
      if (flows.size() > 20 && coin(rng) == 0)
        remove_random_flow();
      else
        add_random_flow();
    }
  }
  // Every resource within capacity; every live entry running.
  testing::AssertionResult feasible() const {
    std::vector<double> load(static_cast<size_t>(solver.resource_count()), 0.0);
    for (EntryId e = 0; e < solver.entry_bound(); ++e) {
      if (!solver.alive(e)) continue;
      if (!(solver.rate(e) > 0)) return testing::AssertionFailure() << "entry " << e << " at rate " << solver.rate(e);
      const auto& path = solver.path(e);
      for (size_t i = 0; i < path.size(); ++i)
        load[static_cast<size_t>(path[i])] += solver.multiplicity(e) * solver.weight(e, i) * solver.rate(e);
    }
    for (ResourceId r = 0; r < solver.resource_count(); ++r)
      if (load[static_cast<size_t>(r)] > solver.capacity(r) * (1 + 1e-12))
        return testing::AssertionFailure() << "resource " << r << " carries " << load[static_cast<size_t>(r)]
                                           << " over its capacity " << solver.capacity(r);
    return testing::AssertionSuccess();
  }
  testing::AssertionResult exact() const {
    const std::vector<double> full = solver.full_solve();
    for (EntryId e = 0; e < solver.entry_bound(); ++e)
      if (solver.alive(e) && !close(solver.rate(e), full[static_cast<size_t>(e)]))
        return testing::AssertionFailure()
               << "entry " << e << " at " << solver.rate(e) << ", max-min gives " << full[static_cast<size_t>(e)];
    return testing::AssertionSuccess();
  }
};

TEST(FlowSolverLocal, StaysFeasibleAndTheNextExactSolveIsMaxMin) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomSystem sys(seed, 24);
    for (int step = 0; step < 60; ++step) {
      sys.change();
      sys.solver.solve_local();
      ASSERT_TRUE(sys.feasible()) << "after local solve " << step;
      if (!sys.solver.deferred()) {
        ASSERT_TRUE(sys.exact()) << "a local solve that defers nothing is exact, step " << step;
      }
      if (step % 7 == 6) {  // the exact solve owed, after several local ones
        sys.solver.solve();
        ASSERT_FALSE(sys.solver.deferred());
        ASSERT_TRUE(sys.exact()) << "exact solve after step " << step;
      }
    }
  }
}

TEST(FlowSolverLocal, CoupledSystemsDoDeferAndAnExactSolveClearsIt) {
  RandomSystem sys(7, 24);
  uint64_t deferred_solves = 0;
  for (int step = 0; step < 60; ++step) {
    sys.change();
    sys.solver.solve_local();
    if (sys.solver.deferred()) ++deferred_solves;
  }
  EXPECT_GT(deferred_solves, 0u);
  EXPECT_GT(sys.solver.stats().deferred_entries, 0u);
  EXPECT_EQ(sys.solver.stats().local_solves, 60u);
  sys.solver.solve();  // no flow changed since: it solves only what was deferred
  EXPECT_FALSE(sys.solver.deferred());
  EXPECT_TRUE(sys.exact());
}

}  // namespace
