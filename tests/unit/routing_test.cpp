// Routings (sim/core/routing/routing.hpp, minimal_paths.hpp, failed_links.hpp). The minimal-path split is
// checked against routes listed one by one (a depth-first walk of every shortest route, written here
// independently of the lattice count it checks) on every pair of small tori, with and without failed
// links; direction order's hop order; failed links named and refused by the deterministic routings.
#include <gtest/gtest.h>

#include <functional>

#include <map>
#include <queue>
#include <random>
#include <vector>

#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/routing/minimal_paths.hpp"
#include "sim/core/routing/routing.hpp"
#include "sim/core/topology/failed_links.hpp"
#include "tests/listed_routes.hpp"

using namespace t3sim::core;
using t3sim::testing_support::list_routes;
using t3sim::testing_support::Listed;

namespace {

void expect_split_equals_listed(const Torus& t, const std::vector<LinkId>& failed) {
  const MinimalPaths paths(t, failed);
  std::vector<bool> failed_mask;
  if (!failed.empty()) {
    failed_mask.assign(static_cast<size_t>(t.link_id_bound()), false);
    for (LinkId l : failed) failed_mask[static_cast<size_t>(l)] = true;
  }
  for (int s = 0; s < t.node_count(); ++s)
    for (int d = 0; d < t.node_count(); ++d) {
      if (s == d) continue;
      std::vector<LinkId> links;
      std::vector<double> weights;
      const int hops = paths.split(s, d, links, weights);
      const Listed want = list_routes(t, s, d, failed_mask);
      ASSERT_EQ(hops, want.length) << "pair " << s << " -> " << d;
      ASSERT_EQ(paths.hops(s, d), want.length) << "pair " << s << " -> " << d;
      ASSERT_EQ(links.size(), want.share.size()) << "pair " << s << " -> " << d;
      double sum = 0;
      for (size_t i = 0; i < links.size(); ++i) {
        if (i > 0) {
          ASSERT_LT(links[i - 1], links[i]);
        }
        ASSERT_TRUE(want.share.count(links[i])) << Torus::link_name(links[i]);
        EXPECT_NEAR(weights[i], want.share.at(links[i]), 1e-12) << "pair " << s << " -> " << d;
        sum += weights[i];
      }
      if (hops > 0) {
        EXPECT_NEAR(sum, hops, 1e-9);  // every route crosses `hops` links
      }
    }
}

TEST(MinimalPaths, SplitEqualsRoutesListedOneByOne) {
  // Odd and even rings, ties at k/2 (both ways minimal), rings of 2 (two distinct links), flat rings.
  for (Coord dims : {Coord{2, 3, 4}, Coord{4, 4, 4}, Coord{1, 1, 8}, Coord{2, 2, 2}, Coord{3, 5, 1}, Coord{6, 2, 3}})
    expect_split_equals_listed(Torus(dims), {});
}

TEST(MinimalPaths, FailedLinksGiveTheShortestWorkingRoutes) {
  std::mt19937_64 rng(7);
  for (Coord dims : {Coord{4, 4, 4}, Coord{3, 4, 2}, Coord{1, 1, 6}}) {
    const Torus t(dims);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<LinkId> failed;
      for (int i = 0; i < 1 + trial; ++i) {
        LinkId l;
        do l = static_cast<LinkId>(rng() % static_cast<uint64_t>(t.link_id_bound()));
        while (!t.has_links(Torus::link_dim(l)));
        failed.push_back(l);
      }
      normalise_links(failed);
      expect_split_equals_listed(t, failed);
    }
  }
}

TEST(MinimalPaths, ADetourWhenEveryMinimalRouteIsCut) {
  // On a ring of 8, 0 -> 1 has one minimal route, n0.z+; without it the packet goes the other way
  // round, 7 hops.
  const Torus t({1, 1, 8});
  const MinimalPaths paths(t, {Torus::link_id(0, 2, Direction::Plus)});
  std::vector<LinkId> links;
  std::vector<double> weights;
  EXPECT_EQ(paths.split(0, 1, links, weights), 7);
  EXPECT_EQ(links.size(), 7u);
  for (double w : weights) EXPECT_EQ(w, 1.0);
}

TEST(MinimalPaths, CutOffIsMinusOne) {
  const Torus t({1, 1, 4});
  std::vector<LinkId> failed;
  ASSERT_EQ(parse_failed_link(t, "n2", failed), "");
  const MinimalPaths paths(t, failed);
  std::vector<LinkId> links;
  std::vector<double> weights;
  EXPECT_EQ(paths.split(0, 2, links, weights), -1);
  EXPECT_TRUE(links.empty());
  EXPECT_EQ(paths.split(0, 1, links, weights), 1);  // 0 and 1 still talk
}

MachineSpec machine(Coord dims, RoutingKind routing, std::vector<LinkId> failed = {}) {
  MachineSpec m;
  m.dims = dims;
  m.routing = routing;
  m.failed_links = std::move(failed);
  return m;
}

TEST(DirectionOrder, EveryPlusHopBeforeEveryMinusHop) {
  // (1,6,2) -> (3,4,5) on 8x8x8: +x twice, +z three times, then -y twice.
  const MachineSpec m = machine({8, 8, 8}, RoutingKind::DirectionOrder);
  const Torus t = m.torus();
  const auto routing = make_routing(m);
  std::vector<LinkId> links;
  std::vector<double> weights;
  const int src = t.node_id({1, 6, 2}), dst = t.node_id({3, 4, 5});
  EXPECT_EQ(routing->append_links(src, dst, links, weights), 7);
  std::string order;
  for (LinkId l : links)
    order += std::string(1, "xyz"[Torus::link_dim(l)]) + (Torus::link_dir(l) == Direction::Plus ? "+" : "-");
  EXPECT_EQ(order, "x+x+z+z+z+y-y-");
  // Dimension order on the same pair corrects y before z.
  const auto dim_order = make_routing(machine({8, 8, 8}, RoutingKind::DimensionOrder));
  links.clear();
  dim_order->append_links(src, dst, links, weights);
  order.clear();
  for (LinkId l : links)
    order += std::string(1, "xyz"[Torus::link_dim(l)]) + (Torus::link_dir(l) == Direction::Plus ? "+" : "-");
  EXPECT_EQ(order, "x+x+y-y-z+z+z+");
}

TEST(DirectionOrder, ReachesEveryDestinationMinimally) {
  const MachineSpec m = machine({4, 3, 6}, RoutingKind::DirectionOrder);
  const Torus t = m.torus();
  const auto routing = make_routing(m);
  const OrderedRoutes router = m.ordered_routes();
  for (int s = 0; s < t.node_count(); ++s)
    for (int d = 0; d < t.node_count(); ++d) {
      int at = s;
      bool minus_seen = false;
      router.for_each_hop(s, d, [&](const Hop& h) {
        EXPECT_EQ(h.from_node, at);
        const bool minus = Torus::link_dir(h.link) == Direction::Minus;
        EXPECT_FALSE(minus_seen && !minus) << "a + hop after a - hop";
        minus_seen = minus_seen || minus;
        at = h.to_node;
      });
      EXPECT_EQ(at, d);
      EXPECT_EQ(routing->hop_count(s, d), router.hop_count(s, d));
    }
}

TEST(FailedLinks, DeterministicRoutingsNameThePairAndTheLink) {
  std::vector<LinkId> failed;
  const Torus t({8, 8, 8});
  ASSERT_EQ(parse_failed_link(t, "n1.x+", failed), "");
  for (RoutingKind kind : {RoutingKind::DimensionOrder, RoutingKind::DirectionOrder}) {
    const auto routing = make_routing(machine({8, 8, 8}, kind, failed));
    std::vector<LinkId> links;
    std::vector<double> weights;
    try {
      routing->append_links(0, 3, links, weights);
      FAIL() << "crossed a failed link";
    } catch (const UnroutablePair& e) {
      EXPECT_EQ(e.link(), Torus::link_id(1, 0, Direction::Plus));
      EXPECT_NE(std::string(e.what()).find("node 0 (0,0,0) to node 3 (3,0,0)"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("failed link n1.x+"), std::string::npos) << e.what();
    }
    EXPECT_THROW(routing->hop_count(0, 3), UnroutablePair);
    EXPECT_EQ(routing->hop_count(0, 8), 1);  // a pair whose route avoids it
  }
  // The minimal routing goes round: 0 -> 3 has one minimal route along x (through n1.x+), so it takes
  // the shortest detour, 5 hops (0 -> y+1 -> three x+ hops -> y-1).
  const auto oblivious = make_routing(machine({8, 8, 8}, RoutingKind::MinimalOblivious, failed));
  EXPECT_EQ(oblivious->hop_count(0, 3), 5);
}

TEST(FailedLinks, NamesAsUsersWriteThem) {
  const Torus t({4, 4, 1});
  std::vector<LinkId> out;
  EXPECT_EQ(parse_failed_link(t, "n5.y-", out), "");
  EXPECT_EQ(out, (std::vector<LinkId>{Torus::link_id(5, 1, Direction::Minus)}));
  out.clear();
  EXPECT_EQ(parse_failed_link(t, "n5.x", out), "");  // the cable to n6, both ways
  EXPECT_EQ(out, (std::vector<LinkId>{Torus::link_id(5, 0, Direction::Plus), Torus::link_id(6, 0, Direction::Minus)}));
  out.clear();
  EXPECT_EQ(parse_failed_link(t, "n0", out), "");  // 4 links out, 4 in (no z: a ring of one)
  EXPECT_EQ(out.size(), 8u);
  EXPECT_NE(parse_failed_link(t, "n16.x+", out), "");
  EXPECT_NE(parse_failed_link(t, "n1.z+", out), "");
  EXPECT_NE(parse_failed_link(t, "n1.x+-", out), "");
  EXPECT_NE(parse_failed_link(t, "5.x+", out), "");
  EXPECT_NE(parse_failed_link(t, "n", out), "");
}

}  // namespace
