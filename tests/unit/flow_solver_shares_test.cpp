// Flows with shares in the max-min solver (sim/core/flow/flow_solver.hpp, "Shares"): where flows meet
// at a saturated resource their rates are in proportion to their shares. Hand cases worked out on
// paper, then random systems of flows with weights, caps and shares, changed a few at a time (flows
// added, removed and given new shares), where after every solve each rate must equal a naive weighted
// progressive filling (naive_max_min.hpp, not the solver's own full_solve) to 1e-12 relative.
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

TEST(FlowSolverShares, RatesAtASaturatedLinkFollowTheShares) {
  // Shares 1 and 3 on a 400 MB/s link: 100 and 300.
  FlowSolver s;
  const ResourceId link = s.add_resource(400e6);
  const EntryId a = s.add_flow({link}, {}, kNoCap, 1.0);
  const EntryId b = s.add_flow({link}, {}, kNoCap, 3.0);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 100e6);
  EXPECT_DOUBLE_EQ(s.rate(b), 300e6);
  EXPECT_DOUBLE_EQ(s.share(b), 3.0);
  EXPECT_DOUBLE_EQ(s.load(link), 400e6);
  EXPECT_EQ(s.users(link).size(), 2u);
}

TEST(FlowSolverShares, ACappedFlowLeavesWhatItCannotTake) {
  // Shares 1 and 3 on 400 MB/s, the second capped at 200: the first takes the other 200. The cap and
  // the weights read back as given, not as the solve holds them (divided and multiplied by the share).
  FlowSolver s;
  const ResourceId link = s.add_resource(400e6);
  const EntryId a = s.add_flow({link}, {}, kNoCap, 1.0);
  const EntryId b = s.add_flow({link}, {0.5}, 100e6, 3.0);  // half its bytes cross: loads 0.5 x rate
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(b), 100e6);
  EXPECT_DOUBLE_EQ(s.rate(a), 350e6);
  EXPECT_DOUBLE_EQ(s.cap(b), 100e6);
  EXPECT_DOUBLE_EQ(s.weight(b, 0), 0.5);
}

TEST(FlowSolverShares, ShareBoundByAnotherResourceLeavesTheRestToTheOthers) {
  // f (share 4) also crosses a 50 MB/s link: it runs at 50, and g and h (share 1) split the rest of
  // the 300 MB/s link equally, 125 each.
  FlowSolver s;
  const ResourceId link = s.add_resource(300e6);
  const ResourceId narrow = s.add_resource(50e6);
  const EntryId f = s.add_flow({link, narrow}, {}, kNoCap, 4.0);
  const EntryId g = s.add_flow({link}, {}, kNoCap, 1.0);
  const EntryId h = s.add_flow({link}, {}, kNoCap, 1.0);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(f), 50e6);
  EXPECT_EQ(g, h);  // same path, cap and share: one entry
  EXPECT_DOUBLE_EQ(s.rate(g), 125e6);
}

TEST(FlowSolverShares, SetShareKeepsTheGivenWeightsAndCap) {
  // In place: the weights and cap read back as given, and a flow given the same key later joins it.
  FlowSolver s;
  const ResourceId a = s.add_resource(300e6);
  const ResourceId b = s.add_resource(300e6);
  const EntryId e = s.add_flow({a, b}, {0.3, 0.7}, 123e6, 1.0 / 3);
  s.set_share(e, 1.0 / 7);
  EXPECT_DOUBLE_EQ(s.share(e), 1.0 / 7);
  EXPECT_EQ(s.weight(e, 0), 0.3);
  EXPECT_EQ(s.weight(e, 1), 0.7);
  EXPECT_EQ(s.cap(e), 123e6);
  EXPECT_EQ(s.add_flow({a, b}, {0.3, 0.7}, 123e6, 1.0 / 7), e);
  EXPECT_EQ(s.multiplicity(e), 2);
  s.set_share(e, 1.0);
  EXPECT_EQ(s.add_flow({a, b}, {0.3, 0.7}, 123e6), e);  // back to share 1: the plain key
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(e), 123e6);
}

TEST(FlowSolverShares, EntriesAreKeptApartByShare) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId one = s.add_flow({link}, kNoCap);
  EXPECT_EQ(s.add_flow({link}, {}, kNoCap, 1.0), one);
  const EntryId two = s.add_flow({link}, {}, kNoCap, 2.0);
  EXPECT_NE(two, one);
  // Weights 2 at share 1 and weights 1 at share 2 load the solve alike, but are different flows.
  const EntryId heavy = s.add_flow({link}, {2.0}, kNoCap, 1.0);
  EXPECT_NE(heavy, two);
  EXPECT_EQ(s.add_flow({link}, {}, kNoCap, 2.0), two);
}

TEST(FlowSolverShares, ANewShareMovesTheRateAtTheNextSolve) {
  FlowSolver s;
  const ResourceId link = s.add_resource(300e6);
  const EntryId a = s.add_flow({link}, {}, kNoCap, 1.0);
  const EntryId b = s.add_flow({link}, {}, kNoCap, 1.0);
  const EntryId c = s.add_flow({link, s.add_resource(1e9)}, {}, kNoCap, 1.0);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(c), 100e6);
  s.reroute(c, s.path(c), {}, 4.0);
  EXPECT_DOUBLE_EQ(s.rate(c), 100e6);  // until the solve
  const std::vector<EntryId> changed = s.solve();
  EXPECT_DOUBLE_EQ(s.rate(c), 200e6);
  EXPECT_DOUBLE_EQ(s.rate(a), 100e6 / 2);
  EXPECT_EQ(a, b);
  EXPECT_EQ(s.multiplicity(a), 2);
  EXPECT_EQ(changed, (std::vector<EntryId>{a, c}));
  // A later flow of the same path and share joins the rerouted entry.
  EXPECT_EQ(s.add_flow(s.path(c), {}, kNoCap, 4.0), c);
}

TEST(FlowSolverShares, CrowdingCountsAFlowNotItsShare) {
  // Crowding (set_crowding) counts streams by the fraction of a flow crossing the link, whatever its
  // share: two flows are two streams, 200 / (1 + 0.5) = 133.3 MB/s, split 1 : 3.
  FlowSolver s;
  const ResourceId link = s.add_resource(200e6);
  s.set_crowding(link, 0.5);
  const EntryId a = s.add_flow({link}, {}, kNoCap, 1.0);
  const EntryId b = s.add_flow({link}, {}, kNoCap, 3.0);
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 200e6 / 1.5);
  EXPECT_NEAR(s.rate(a), 200e6 / 1.5 / 4, 1e-6);
  EXPECT_NEAR(s.rate(b), 200e6 / 1.5 * 3 / 4, 1e-6);
}

TEST(FlowSolverShares, RejectsBadShares) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  EXPECT_THROW(s.add_flow({link}, {}, kNoCap, 0.0), std::invalid_argument);
  EXPECT_THROW(s.add_flow({link}, {}, kNoCap, -1.0), std::invalid_argument);
  EXPECT_THROW(s.add_flow({link}, {}, kNoCap, INFINITY), std::invalid_argument);
  EXPECT_THROW(s.add_flow({link}, {}, kNoCap, NAN), std::invalid_argument);
  EXPECT_EQ(s.flow_count(), 0);
  const EntryId e = s.add_flow({link}, kNoCap);
  EXPECT_THROW(s.reroute(e, {link}, {}, 0.0), std::invalid_argument);
  for (double bad : {0.0, -1.0, double(INFINITY), double(NAN)})
    EXPECT_THROW(s.set_share(e, bad), std::invalid_argument);
  EXPECT_DOUBLE_EQ(s.share(e), 1.0);
  EXPECT_THROW(s.set_share(e + 1, 2.0), std::out_of_range);  // no such entry
  s.remove_flow(e);
  EXPECT_THROW(s.set_share(e, 2.0), std::out_of_range);  // no longer alive
}

// ---------------------------------------------------------------------------------------------------
// Random systems against a naive weighted progressive filling (naive_max_min.hpp).

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
  // Shares as port fairness gives them (products of 1, 1/2, ... 1/7) recur, so that entries and ties repeat.
  auto random_share = [&]() {
    const int k = static_cast<int>(rng() % 8);
    return k < 3 ? 1.0 : k < 6 ? 1.0 / (k - 1) / (1 + rng() % 3) : uniform(0.01, 2.0);
  };
  std::vector<testing_support::NaiveFlow> live;
  std::vector<EntryId> live_entry;
  for (int batch = 0; batch < 40; ++batch) {
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      if (!live.empty() && rng() % 4 == 0) {  // a new share for every flow of one entry
        const EntryId e = live_entry[rng() % live.size()];
        const double share = random_share();
        for (size_t i = 0; i < live.size(); ++i)
          if (live_entry[i] == e) live[i].share = share;
        const size_t i = static_cast<size_t>(std::find(live_entry.begin(), live_entry.end(), e) - live_entry.begin());
        if (rng() % 2 == 0)
          solver.set_share(e, share);  // in place, as the fast transport does
        else
          solver.reroute(e, live[i].path, live[i].weights, share);
        // A flow of the same path, weights, cap and share joins it, or another live entry of that same key
        // (the key is scaled as add_flow scales it), rather than making an entry of its own.
        const EntryId again = solver.add_flow(live[i].path, live[i].weights, live[i].cap, share);
        bool same =
            solver.multiplicity(again) >= 2 && solver.share(again) == share && solver.path(again) == live[i].path;
        for (size_t j = 0; same && j < live[i].path.size(); ++j)
          same = solver.weight(again, j) == (live[i].weights.empty() ? 1.0 : live[i].weights[j]);
        if (!same)
          return testing::AssertionFailure() << "seed " << seed << " batch " << batch << ": a flow like entry " << e
                                             << " after its new share " << share << " made entry " << again;
        live_entry.push_back(again);
        live.push_back(live[i]);
        continue;
      }
      if (!live.empty() && (live.size() > 24 || rng() % 3 == 0)) {
        const size_t i = rng() % live.size();
        solver.remove_flow(live_entry[i]);
        live.erase(live.begin() + static_cast<long>(i));
        live_entry.erase(live_entry.begin() + static_cast<long>(i));
        continue;
      }
      testing_support::NaiveFlow f;
      f.path = testing_support::random_path(rng, resources);
      for (size_t i = 0; i < f.path.size(); ++i) f.weights.push_back(rng() % 2 ? 1.0 : 1.0 / (1 + rng() % 4));
      f.cap = rng() % 3 == 0 ? uniform(20e6, 400e6) : kNoCap;
      f.share = random_share();
      const EntryId e = solver.add_flow(f.path, f.weights, f.cap, f.share);
      // Joining an entry takes its share (a rerouted entry's may differ from the new flow's at creation).
      for (size_t i = 0; i < live.size(); ++i)
        if (live_entry[i] == e) f.share = live[i].share;
      live_entry.push_back(e);
      live.push_back(f);
    }
    solver.solve();
    const std::vector<double> expected = testing_support::naive_max_min(capacity, live);
    const std::vector<double> full = solver.full_solve();
    for (size_t i = 0; i < live.size(); ++i) {
      const double got = solver.rate(live_entry[i]);
      if (!agrees(got, expected[i]) || !agrees(full[static_cast<size_t>(live_entry[i])], expected[i]))
        return testing::AssertionFailure()
               << "seed " << seed << " batch " << batch << " flow " << i << ": solver " << got << ", full solve "
               << full[static_cast<size_t>(live_entry[i])] << ", naive " << expected[i];
    }
  }
  return testing::AssertionSuccess();
}

TEST(FlowSolverShares, RandomSequencesEqualNaiveWeightedFilling) {
  for (uint64_t seed = 1; seed <= 300; ++seed) ASSERT_TRUE(run_random_sequence(seed));
}

}  // namespace
