// Routing over all ordered pairs of small tori, cross-checked against a Boost.Graph BFS.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/topology/topology_graph.hpp"

using namespace t3sim::core;

namespace {

void check_all_pairs(Coord dims, Coord order, TieRule tie) {
  const Torus torus(dims);
  const OrderedRoutes router(torus, order, tie);
  for (int s = 0; s < torus.node_count(); ++s) {
    const std::vector<int> bfs = bfs_hops(torus, s);
    for (int d = 0; d < torus.node_count(); ++d) {
      const auto hops = router.route(s, d);
      const Coord a = torus.coord(s), b = torus.coord(d);
      int expected = 0;
      for (int k = 0; k < 3; ++k) expected += torus.ring_distance(a[k], b[k], k);
      ASSERT_EQ(static_cast<int>(hops.size()), expected) << s << "->" << d;
      ASSERT_EQ(expected, bfs[static_cast<size_t>(d)]) << "router and BFS disagree " << s << "->" << d;
      ASSERT_EQ(router.hop_count(s, d), expected);
      int at = s;
      int order_pos = 0;
      for (const Hop& h : hops) {
        ASSERT_EQ(h.from_node, at);
        const int dim = Torus::link_dim(h.link);
        ASSERT_TRUE(torus.has_links(dim));
        ASSERT_EQ(Torus::link_node(h.link), at);
        ASSERT_EQ(h.to_node, torus.neighbor(at, dim, Torus::link_dir(h.link)));
        // Dimension order: the hop's dimension never goes back to an earlier one in `order`.
        while (order_pos < 3 && order[order_pos] != dim) ++order_pos;
        ASSERT_LT(order_pos, 3) << "hop along a dimension earlier in the order";
        // Tie rule: at distance exactly k/2 the rule's direction, otherwise the shorter way.
        const int k = dims[dim];
        const int plus = torus.plus_steps(a[dim], b[dim], dim);
        if (2 * plus == k) {
          // Balanced: the source's coordinate along dim decides (it is unchanged until dim is corrected).
          const bool go_plus = tie == TieRule::Plus || (tie == TieRule::Balanced && a[dim] % 2 == 0);
          ASSERT_EQ(Torus::link_dir(h.link), go_plus ? Direction::Plus : Direction::Minus);
        } else {
          ASSERT_EQ(Torus::link_dir(h.link), plus < k - plus ? Direction::Plus : Direction::Minus);
        }
        at = h.to_node;
      }
      ASSERT_EQ(at, d);
    }
  }
}

}  // namespace

TEST(OrderedRoutes, AllPairs2x2x2) { check_all_pairs({2, 2, 2}, {0, 1, 2}, TieRule::Plus); }
TEST(OrderedRoutes, AllPairs2x2x2TieMinus) { check_all_pairs({2, 2, 2}, {0, 1, 2}, TieRule::Minus); }
TEST(OrderedRoutes, AllPairs3x4x5) { check_all_pairs({3, 4, 5}, {0, 1, 2}, TieRule::Plus); }
TEST(OrderedRoutes, AllPairs3x4x5OrderZyx) { check_all_pairs({3, 4, 5}, {2, 1, 0}, TieRule::Minus); }
TEST(OrderedRoutes, AllPairs8x4x4) { check_all_pairs({8, 4, 4}, {0, 1, 2}, TieRule::Plus); }
TEST(OrderedRoutes, AllPairs1x1x7) { check_all_pairs({1, 1, 7}, {0, 1, 2}, TieRule::Plus); }
TEST(OrderedRoutes, AllPairs1x1x8) { check_all_pairs({1, 1, 8}, {1, 2, 0}, TieRule::Minus); }
TEST(OrderedRoutes, AllPairs8x4x6Balanced) { check_all_pairs({8, 4, 6}, {0, 1, 2}, TieRule::Balanced); }
TEST(OrderedRoutes, AllPairs2x2x2Balanced) { check_all_pairs({2, 2, 2}, {2, 0, 1}, TieRule::Balanced); }

// The k/2 shift of a ring of k = 8: under plus every + link carries k/2 = 4 routes and no - link any;
// balanced sends the 4 even sources + and the 4 odd ones -, so every link of both directions carries
// k/4 = 2 (4 routes x 4 hops over 8 links per direction): half the load, twice the shift's bandwidth.
TEST(OrderedRoutes, BalancedTieHalvesTheLoadOfTheHalfRingShift) {
  const Torus torus({8, 1, 1});
  for (TieRule tie : {TieRule::Plus, TieRule::Balanced}) {
    const OrderedRoutes router(torus, {0, 1, 2}, tie);
    std::map<LinkId, int> load;
    for (int s = 0; s < 8; ++s)
      for (const Hop& h : router.route(s, (s + 4) % 8)) ++load[h.link];
    int most = 0;
    for (const auto& [link, n] : load) most = std::max(most, n);
    EXPECT_EQ(most, tie == TieRule::Plus ? 4 : 2);
    EXPECT_EQ(load.size(), tie == TieRule::Plus ? 8u : 16u);
  }
}

TEST(OrderedRoutes, SingleNodeHasNoHops) { check_all_pairs({1, 1, 1}, {0, 1, 2}, TieRule::Plus); }

TEST(OrderedRoutes, SizeTwoRingUsesTheWrapLinkUnderTieMinus) {
  const Torus torus({2, 1, 1});
  const OrderedRoutes router(torus, {0, 1, 2}, TieRule::Minus);
  const auto hops = router.route(0, 1);
  ASSERT_EQ(hops.size(), 1u);
  EXPECT_EQ(hops[0].link, Torus::link_id(0, 0, Direction::Minus));
  EXPECT_EQ(directed_link_count(torus), 4);  // + and - from each of the two nodes
}

TEST(OrderedRoutes, TieAtHalfRingFollowsRule) {
  const Torus torus({8, 1, 1});
  EXPECT_EQ(OrderedRoutes(torus, {0, 1, 2}, TieRule::Plus).route(0, 4).front().link,
            Torus::link_id(0, 0, Direction::Plus));
  EXPECT_EQ(OrderedRoutes(torus, {0, 1, 2}, TieRule::Minus).route(0, 4).front().link,
            Torus::link_id(0, 0, Direction::Minus));
}

TEST(Torus, IdsAndCoordinatesRoundTrip) {
  const Torus torus({3, 4, 5});
  for (int n = 0; n < torus.node_count(); ++n) EXPECT_EQ(torus.node_id(torus.coord(n)), n);
  EXPECT_EQ(torus.coord(1 + 3 * (2 + 4 * 3)), (Coord{1, 2, 3}));
  EXPECT_EQ(Torus::link_name(Torus::link_id(12, 1, Direction::Minus)), "n12.y-");
}
