#include <gtest/gtest.h>

#include <set>

#include "sim/core/machine/job_placement.hpp"
#include "test_machine.hpp"

using namespace t3sim::core;

TEST(JobPlacement, ContiguousIsTheIdentity) {
  const MachineSpec m = t3sim::test::small_machine();
  const auto p = JobPlacement::contiguous(m, 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(p.machine_pe(i), i);
  EXPECT_THROW(JobPlacement::contiguous(m, 25), ModelError);
}

TEST(JobPlacement, BlockPicksTheMostCompactBox) {
  MachineSpec m = t3sim::test::small_machine();  // 2 x 3 x 4 nodes
  m.node.pes_per_node = 2;
  const auto p = JobPlacement::block(m, 16);  // 8 nodes: a 2x2x2 box (sum 6) beats 2x3x2 and 1x2x4
  EXPECT_EQ(p.description(), "block 2x2x2");
  std::set<int> nodes;
  for (int i = 0; i < p.size(); ++i) {
    const Coord c = m.torus().coord(p.node_of(i));
    EXPECT_LT(c[0], 2);
    EXPECT_LT(c[1], 2);
    EXPECT_LT(c[2], 2);
    nodes.insert(p.node_of(i));
  }
  EXPECT_EQ(nodes.size(), 8u);
  EXPECT_EQ(p.node_of(0), p.node_of(1));  // both PEs of a node before the next node
}

TEST(JobPlacement, RandomIsSeededDistinctAndStable) {
  const MachineSpec m = t3sim::test::small_machine();
  const auto a = JobPlacement::random(m, 10, 42);
  const auto b = JobPlacement::random(m, 10, 42);
  const auto c = JobPlacement::random(m, 10, 43);
  std::set<int> seen;
  bool differs = false;
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(a.machine_pe(i), b.machine_pe(i));
    seen.insert(a.machine_pe(i));
    differs = differs || a.machine_pe(i) != c.machine_pe(i);
  }
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_TRUE(differs);
}

TEST(JobPlacement, ParsesPoliciesAndRejectsBadOnes) {
  const MachineSpec m = t3sim::test::small_machine();
  EXPECT_EQ(make_placement(m, 3, "list:5,1,7").machine_pe(2), 7);
  EXPECT_EQ(make_placement(m, 3, "random:9").description(), "random:9");
  EXPECT_THROW(make_placement(m, 3, "list:5,1"), ModelError);
  EXPECT_THROW(make_placement(m, 2, "list:5,5"), ModelError);
  EXPECT_THROW(make_placement(m, 2, "list:5,99"), ModelError);
  EXPECT_THROW(make_placement(m, 2, "random:-1"), ModelError);
  EXPECT_THROW(make_placement(m, 2, "spread"), ModelError);
}
