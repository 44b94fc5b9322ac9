// Weighted flows in the max-min solver (sim/core/flow/flow_solver.hpp): a flow loads each resource of its
// path with weight x rate, as a flow spread over several routes in fixed proportions does. Hand cases
// with shares worked out on paper, then random systems of weighted flows changed a few at a time, where
// after every solve each rate must equal an independent, naive progressive filling (naive_max_min.hpp, not
// the solver's own full_solve) to 1e-12 relative, and the max-min conditions must hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "naive_max_min.hpp"

#include "sim/core/flow/flow_solver.hpp"

using namespace t3sim::core;
namespace testing_support = t3sim::testing_support;

namespace {

constexpr double kNoCap = FlowSolver::kNoCap;
using testing_support::agrees;

TEST(FlowSolverWeighted, AloneAFlowRunsAtCapacityOverItsWeight) {
  // Half of the flow's bytes cross the link: the link carries 0.5 x rate, so the flow runs at 200.
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId e = s.add_flow({link}, {0.5}, kNoCap);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(e), 200e6);
  EXPECT_DOUBLE_EQ(s.weight(e, 0), 0.5);
}

TEST(FlowSolverWeighted, SharesAreEqualRatesNotEqualLoads) {
  // A (weight 1) and B (weight 0.5) on one 90 MB/s link: rates rise together until 1 x + 0.5 x = 90,
  // so both run at 60 (A loads the link with 60, B with 30).
  FlowSolver s;
  const ResourceId link = s.add_resource(90e6);
  const EntryId a = s.add_flow({link}, kNoCap);
  const EntryId b = s.add_flow({link}, {0.5}, kNoCap);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 60e6);
  EXPECT_DOUBLE_EQ(s.rate(b), 60e6);
}

TEST(FlowSolverWeighted, SplitFlowIsHeldByItsMostLoadedBranch) {
  // A flow split half and half over two links l0 and l1 (its source interface `in` carries all of it),
  // and a second flow on l0 alone. Filling: l0 saturates when 0.5 x + x = 100, at x = 66.7; l1 would
  // allow 200 and `in` 300. Both flows run at 66.7; l1 keeps 66.7 of 100 unused (the split is fixed).
  FlowSolver s;
  const ResourceId in = s.add_resource(300e6);
  const ResourceId l0 = s.add_resource(100e6);
  const ResourceId l1 = s.add_resource(100e6);
  const EntryId split = s.add_flow({in, l0, l1}, {1.0, 0.5, 0.5}, kNoCap);
  const EntryId direct = s.add_flow({l0}, kNoCap);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(split), 100e6 / 1.5);
  EXPECT_DOUBLE_EQ(s.rate(direct), 100e6 / 1.5);
  // The direct flow leaves: the split one is held by both branches at once, 0.5 x = 100.
  s.remove_flow(direct);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(split), 200e6);
}

TEST(FlowSolverWeighted, UnitWeightsAreTheUnweightedEntry) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId plain = s.add_flow({link}, kNoCap);
  EXPECT_EQ(s.add_flow({link}, {1.0}, kNoCap), plain);
  EXPECT_EQ(s.multiplicity(plain), 2);
  EXPECT_NE(s.add_flow({link}, {0.5}, kNoCap), plain);
}

TEST(FlowSolverWeighted, RejectsBadWeights) {
  FlowSolver s;
  const ResourceId a = s.add_resource(100e6);
  const ResourceId b = s.add_resource(100e6);
  EXPECT_THROW(s.add_flow({a, b}, {0.5}, kNoCap), std::invalid_argument);
  EXPECT_THROW(s.add_flow({a}, {0.0}, kNoCap), std::invalid_argument);
  EXPECT_THROW(s.add_flow({a}, {-1.0}, kNoCap), std::invalid_argument);
  EXPECT_THROW(s.add_flow({a}, {INFINITY}, kNoCap), std::invalid_argument);
  EXPECT_EQ(s.flow_count(), 0);
}

// ---------------------------------------------------------------------------------------------------
// Random weighted systems against a naive progressive filling (naive_max_min.hpp).

testing::AssertionResult run_random_sequence(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&rng](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const int resources = 3 + static_cast<int>(rng() % 12);
  std::vector<double> capacity;
  FlowSolver solver;
  for (int r = 0; r < resources; ++r) {
    capacity.push_back(rng() % 2 ? 100e6 : uniform(50e6, 600e6));
    solver.add_resource(capacity.back());
  }
  // A few weight levels recur (1, 1/2, 1/3, 1/4 as minimal-path splits give) so that entries and ties repeat.
  auto random_weight = [&]() {
    const int k = static_cast<int>(rng() % 6);
    return k < 4 ? 1.0 / (1 + k) : uniform(0.05, 1.0);
  };
  std::vector<testing_support::NaiveFlow> live;
  std::vector<EntryId> live_entry;
  for (int batch = 0; batch < 40; ++batch) {
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      if (!live.empty() && (live.size() > 24 || rng() % 3 == 0)) {
        const size_t i = rng() % live.size();
        solver.remove_flow(live_entry[i]);
        live.erase(live.begin() + static_cast<long>(i));
        live_entry.erase(live_entry.begin() + static_cast<long>(i));
        continue;
      }
      testing_support::NaiveFlow f;
      f.path = testing_support::random_path(rng, resources);
      for (size_t i = 0; i < f.path.size(); ++i) f.weights.push_back(random_weight());
      f.cap = rng() % 3 == 0 ? uniform(20e6, 400e6) : kNoCap;
      live_entry.push_back(solver.add_flow(f.path, f.weights, f.cap));
      live.push_back(f);
    }
    solver.solve();
    const std::vector<double> expected = testing_support::naive_max_min(capacity, live);
    std::vector<double> load(capacity.size(), 0);
    for (size_t i = 0; i < live.size(); ++i) {
      const double got = solver.rate(live_entry[i]);
      if (!agrees(got, expected[i]))
        return testing::AssertionFailure() << "seed " << seed << " batch " << batch << " flow " << i << ": solver "
                                           << got << ", naive " << expected[i];
      for (size_t j = 0; j < live[i].path.size(); ++j)
        load[static_cast<size_t>(live[i].path[j])] += live[i].weights[j] * got;
    }
    for (size_t r = 0; r < capacity.size(); ++r)
      if (load[r] > capacity[r] * (1 + testing_support::kAgreement))
        return testing::AssertionFailure() << "seed " << seed << " batch " << batch << ": resource " << r << " carries "
                                           << load[r] << " of " << capacity[r];
  }
  return testing::AssertionSuccess();
}

TEST(FlowSolverWeighted, RandomSequencesEqualNaiveProgressiveFilling) {
  for (uint64_t seed = 1; seed <= 300; ++seed) ASSERT_TRUE(run_random_sequence(seed));
}

}  // namespace
