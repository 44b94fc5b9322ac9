// Minimal adaptive routing (sim/core/flow/adaptive_splits.hpp, MinimalPaths::widest_route). The widest route
// is checked against every shortest route listed one by one (tests/listed_routes.hpp) under random
// link scores, with and without failed links; the idle torus's widest route is the dimension-order
// route; the rounds reach the stated fixed point on a pair with four disjoint routes (checked route by
// route) and raise the slowest entry and the total on random flow sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "sim/core/flow/adaptive_splits.hpp"
#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/routing/minimal_paths.hpp"
#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/topology/failed_links.hpp"
#include "tests/listed_routes.hpp"

using namespace t3sim::core;
using t3sim::testing_support::for_each_route;

namespace {

std::vector<bool> mask_of(const Torus& t, const std::vector<LinkId>& failed) {
  if (failed.empty()) return {};
  std::vector<bool> mask(static_cast<size_t>(t.link_id_bound()), false);
  for (LinkId l : failed) mask[static_cast<size_t>(l)] = true;
  return mask;
}

// Every pair of t: the widest route is a listed shortest route and no listed route is wider.
void expect_widest_is_best_listed(const Torus& t, const std::vector<LinkId>& failed, uint32_t seed) {
  const MinimalPaths paths(t, failed);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> level(1, 5);  // few levels: many ties
  std::vector<double> score(static_cast<size_t>(t.link_id_bound()));
  for (double& s : score) s = level(rng);
  const auto score_of = [&](LinkId l) { return score[static_cast<size_t>(l)]; };
  const auto mask = mask_of(t, failed);
  for (int s = 0; s < t.node_count(); ++s)
    for (int d = 0; d < t.node_count(); ++d) {
      if (s == d) continue;
      std::vector<LinkId> route;
      const int hops = paths.widest_route(s, d, score_of, route);
      double best = -1;
      bool listed = false;
      const int length = for_each_route(t, s, d, mask, [&](const std::vector<LinkId>& r) {
        double w = INFINITY;
        for (LinkId l : r) w = std::min(w, score_of(l));
        best = std::max(best, w);
        listed = listed || r == route;
      });
      ASSERT_EQ(hops, length) << s << " -> " << d;
      if (length < 0) continue;
      ASSERT_TRUE(listed) << "the widest route " << s << " -> " << d << " is not a shortest working route";
      double width = INFINITY;
      for (LinkId l : route) width = std::min(width, score_of(l));
      EXPECT_EQ(width, best) << s << " -> " << d;
    }
}

}  // namespace

TEST(WidestRoute, IsTheWidestOfTheRoutesListedOneByOne) {
  uint32_t seed = 1;
  for (Coord dims : {Coord{2, 3, 4}, Coord{4, 4, 4}, Coord{1, 1, 8}, Coord{2, 2, 2}, Coord{3, 5, 1}, Coord{6, 2, 3}})
    expect_widest_is_best_listed(Torus(dims), {}, seed++);
}

TEST(WidestRoute, GoesRoundFailedLinksAndTakesTheShortestDetourWhenNoMinimalRouteWorks) {
  const Torus t({4, 4, 2});
  std::vector<LinkId> failed;
  for (const char* name : {"n0.x", "n5.y+", "n10", "n3.z-"}) ASSERT_EQ(parse_failed_link(t, name, failed), "");
  expect_widest_is_best_listed(t, failed, 7);
  // Node 0 to node 1 ((1,0,0)): its one minimal route is the failed cable n0.x; the detours are longer.
  const MinimalPaths paths(t, failed);
  std::vector<LinkId> route;
  EXPECT_EQ(paths.widest_route(
                0, 1, [](LinkId) { return 1.0; }, route),
            3);
}

TEST(WidestRoute, OnAnIdleTorusIsTheDimensionOrderRoute) {
  for (Coord dims : {Coord{4, 4, 4}, Coord{2, 16, 17}, Coord{3, 5, 1}}) {
    const Torus t(dims);
    const MinimalPaths paths(t, {});
    const OrderedRoutes dor(t, {0, 1, 2}, TieRule::Plus);
    for (int s = 0; s < t.node_count(); s += 3)
      for (int d = 0; d < t.node_count(); d += 5) {
        std::vector<LinkId> route, want;
        paths.widest_route(
            s, d, [](LinkId) { return 1.0; }, route);
        for (const Hop& h : dor.route(s, d)) want.push_back(h.link);
        EXPECT_EQ(route, want) << s << " -> " << d;
      }
  }
}

namespace {

// A solver over the interfaces and links of a torus: node n injects on resource n, ejects on
// nodes + n; link l is resource 2 nodes + l.
struct Network {
  Torus torus;
  MinimalPaths paths;
  FlowSolver solver;
  AdaptiveSplits splits;
  explicit Network(Coord dims, double link = 100, double interface = 1000, int max_moves = 1000)
      : torus(dims), paths(torus, {}), splits(paths, 2 * torus.node_count(), torus.link_id_bound(), max_moves) {
    for (int n = 0; n < 2 * torus.node_count(); ++n) solver.add_resource(interface);
    for (LinkId l = 0; l < torus.link_id_bound(); ++l) solver.add_resource(link);
  }
  ResourceId link_resource(LinkId l) const { return 2 * torus.node_count() + l; }
  EntryId add(int src, int dst) {
    const uint64_t key = static_cast<uint64_t>(src) << 32 | static_cast<uint64_t>(dst);
    return splits.add_flow(solver, key, src, dst, {src, torus.node_count() + dst});
  }
  // Rounds over every live entry until none moves; the number of rounds (limit: not converged).
  int settle(int limit) {
    for (int round = 0; round < limit; ++round) {
      splits.solved();
      std::vector<EntryId> live;
      for (EntryId e = 0; e < solver.entry_bound(); ++e)
        if (solver.alive(e)) live.push_back(e);
      if (splits.rebalance(solver, live) == 0) return round;
      solver.solve();
    }
    return limit;
  }
  std::pair<double, double> slowest_and_total() const {
    double slowest = INFINITY, total = 0;
    for (EntryId e = 0; e < solver.entry_bound(); ++e)
      if (solver.alive(e)) {
        slowest = std::min(slowest, solver.rate(e));
        total += solver.rate(e) * solver.multiplicity(e);
      }
    return {slowest, total};
  }
  // The least slack of a listed route for entry e, by the model's definition (adaptive_splits.hpp):
  // per link, the spare capacity per flow of e or the lead of its fastest user over e.
  double slack(EntryId e, const std::vector<LinkId>& route) const {
    double w = INFINITY;
    for (LinkId l : route) {
      const ResourceId r = link_resource(l);
      const double spare = (solver.capacity(r) - solver.load(r)) / solver.multiplicity(e);
      w = std::min(w, std::max(spare, solver.fastest(r) - solver.rate(e)));
    }
    return w;
  }
};

}  // namespace

// The rounds do not reach the fixed point on random flow sets in a bounded number of rounds (see
// adaptive_splits.hpp), but each set's slowest entry and total rate rise, the allocation stays the
// max-min one for the splits it reaches, and every split stays within kMaxRoutes routes summing to 1.
TEST(AdaptiveSplits, RoundsRaiseTheSlowestEntryAndTheTotalOnRandomFlows) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    Network net(seed % 2 ? Coord{4, 4, 2} : Coord{8, 8, 8});
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> node(0, net.torus.node_count() - 1);
    const int flows = seed % 2 ? 40 : 600;
    for (int i = 0; i < flows; ++i) {
      const int s = node(rng), d = node(rng);
      if (s != d) {
        ASSERT_GE(net.add(s, d), 0);
      }
    }
    net.solver.solve();
    const auto [slowest_before, total_before] = net.slowest_and_total();
    net.settle(100);
    const auto [slowest_after, total_after] = net.slowest_and_total();
    EXPECT_GT(slowest_after, slowest_before) << "seed " << seed;
    EXPECT_GT(total_after, total_before * 1.1) << "seed " << seed;
    const std::vector<double> full = net.solver.full_solve();
    for (EntryId e = 0; e < net.solver.entry_bound(); ++e) {
      if (!net.solver.alive(e)) continue;
      EXPECT_NEAR(net.solver.rate(e), full[static_cast<size_t>(e)], 1e-12 * full[static_cast<size_t>(e)]);
      const auto& routes = net.splits.routes(e);
      ASSERT_LE(routes.size(), static_cast<size_t>(AdaptiveSplits::kMaxRoutes));
      double sum = 0;
      for (const auto& r : routes) {
        EXPECT_GE(r.fraction, AdaptiveSplits::kMinFraction * 0.99);
        sum += r.fraction;
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
    }
  }
}

TEST(AdaptiveSplits, AnEntryHeldByItsInterfaceStaysOnItsRoute) {
  // Interfaces of 50 under links of 100: the flow is held by its node, which every route shares.
  Network net({4, 4, 1}, 100, 50);
  const EntryId a = net.add(0, 5);
  net.solver.solve();
  EXPECT_EQ(net.settle(10), 0);
  EXPECT_EQ(net.splits.routes(a).size(), 1u);
  EXPECT_DOUBLE_EQ(net.solver.rate(a), 50.0);
}

TEST(AdaptiveSplits, TwoFlowsOfAPairSpreadOverFourDisjointRoutes) {
  // On a 2 x 2 x 1 torus, node 0 -> node 3 ((1,1,0)): the + and - links of a ring of 2 are distinct,
  // so four links leave node 0 and four enter node 3, and four link-disjoint minimal routes join them
  // (x+ y+, x- y-, y+ x+, y- x-). Two flows of the pair, alone, with interfaces of 1000: on one route
  // of 100 they run at 50 each; spread evenly over the four they run at 4 x 100 / 2 = 200 each, and
  // then every link they cross is saturated by them alone, so no route has slack: the fixed point.
  Network net({2, 2, 1});
  const EntryId a = net.add(0, 3);
  ASSERT_EQ(net.add(0, 3), a);  // the same pair joins its entry
  net.solver.solve();
  EXPECT_DOUBLE_EQ(net.solver.rate(a), 50.0);
  ASSERT_LT(net.settle(200), 200);
  EXPECT_EQ(net.splits.routes(a).size(), 4u);
  EXPECT_NEAR(net.solver.rate(a), 200.0, 200.0 * AdaptiveSplits::kGain);
  for_each_route(net.torus, 0, 3, {}, [&](const std::vector<LinkId>& r) {  // the fixed point, route by route
    EXPECT_LE(net.slack(a, r), net.solver.rate(a) * AdaptiveSplits::kGain);
  });
}

TEST(AdaptiveSplits, AnEntryMovesAtMostItsBudget) {
  for (int budget : {0, 1, 3}) {
    Network net({2, 2, 1}, 100, 1000, budget);  // the pair of TwoFlowsOfAPair... would move more
    const EntryId a = net.add(0, 3);
    net.solver.solve();
    net.settle(50);
    EXPECT_EQ(net.splits.stats().moves, static_cast<uint64_t>(budget));
    EXPECT_EQ(net.splits.routes(a).size(), static_cast<size_t>(std::min(budget + 1, 4)));
  }
}

TEST(AdaptiveSplits, SameCallsGiveBitwiseTheSameRates) {
  std::vector<double> first;
  for (int pass = 0; pass < 2; ++pass) {
    Network net({4, 4, 4});
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> node(0, net.torus.node_count() - 1);
    for (int i = 0; i < 100; ++i) net.add(node(rng), node(rng));
    net.solver.solve();
    net.settle(20);
    std::vector<double> rates;
    for (EntryId e = 0; e < net.solver.entry_bound(); ++e) rates.push_back(net.solver.rate(e));
    if (pass == 0)
      first = rates;
    else
      EXPECT_EQ(rates, first);
  }
}

TEST(AdaptiveSplits, RefillSpreadsAPairOverItsFourDisjointRoutes) {
  // The pair of TwoFlowsOfAPair... on one route (50 each): one refill grows it on the widest route
  // step by step, each step taking the route with most capacity left, so it ends evenly on the four
  // (200 each, to within a step of c / kFillSteps), with no rounds of moves.
  Network net({2, 2, 1});
  const EntryId a = net.add(0, 3);
  net.add(0, 3);
  net.solver.solve();
  EXPECT_GT(net.splits.refill(net.solver), 0);
  net.solver.solve();
  EXPECT_EQ(net.splits.routes(a).size(), 4u);
  EXPECT_NEAR(net.solver.rate(a), 200.0, 100.0 / AdaptiveSplits::kFillSteps);
}

TEST(AdaptiveSplits, RefillGivesMcuriesTornadoNoLessThanObliviousRouting) {
  // The 532-PE tornado of workloads/tornado.yaml on mcurie (2 x 16 x 17, PEs on nodes 0..531): PE p
  // sends to p + 252 (p < 280) or p - 280. Under oblivious routing every flow runs at c / 8 (docs/results.md,
  // Routing study); flows injected in three waves by hop count (as the transport starts them, a router
  // delay per hop apart) and re-balanced by one refill do no worse.
  constexpr double kLink = 480;
  Network net({2, 16, 17}, kLink, kLink);
  std::vector<EntryId> flows(532, -1);
  for (int wave = 0; wave < 3; ++wave) {
    for (int p = 0; p < 532; ++p) {
      const int q = p < 280 ? p + 252 : p - 280;
      const int hops = net.paths.hops(p, q);
      if ((hops <= 11 ? 0 : hops == 12 ? 1 : 2) == wave) flows[static_cast<size_t>(p)] = net.add(p, q);
    }
    net.solver.solve();
    net.splits.solved();
  }
  net.splits.refill(net.solver);
  net.solver.solve();
  double slowest = INFINITY;
  for (EntryId e : flows) slowest = std::min(slowest, net.solver.rate(e));
  EXPECT_GE(slowest, kLink / 8);  // measured 60.32
}

// A capacity left a hair below 0 by rounding is a full link: the widest route stays a minimal one (once,
// not followed by a detour).
TEST(WidestRoute, ScoresRoundedBelowZeroKeepTheMinimalRoute) {
  const Torus t({4, 4, 4});
  const MinimalPaths paths(t, {});
  std::vector<double> score(static_cast<size_t>(t.link_id_bound()), -1e-16);
  for (int s = 0; s < t.node_count(); s += 5)
    for (int d = 0; d < t.node_count(); d += 3) {
      std::vector<LinkId> route, by_function;
      const int hops = paths.widest_route(s, d, score.data(), route);
      const int hops2 = paths.widest_route(
          s, d, [&](LinkId l) { return score[static_cast<size_t>(l)]; }, by_function);
      ASSERT_EQ(hops, paths.hops(s, d)) << s << " -> " << d;
      EXPECT_EQ(route.size(), static_cast<size_t>(hops)) << s << " -> " << d;
      EXPECT_EQ(hops2, hops);
      EXPECT_EQ(by_function, route);
    }
}
