#include <gtest/gtest.h>

#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "test_machine.hpp"

using namespace t3sim::core;

TEST(CostModel, LatencyCountsRoutersAndWires) {
  const MachineSpec m = t3sim::test::small_machine();
  const CostModel c(m, m.profiles.front());
  // PE 0 (0,0,0) to PE 9 (1,1,1 on 2x3x4): 3 hops, 4 routers.
  EXPECT_EQ(c.hops(0, 9), 3);
  EXPECT_DOUBLE_EQ(c.latency(0, 9), 4 * 10e-9 + 3 * 1e-9);
  EXPECT_DOUBLE_EQ(c.bottleneck(0, 9), 100e6);
  EXPECT_DOUBLE_EQ(c.latency(0, 0), 10e-9);
}

namespace {
Op make(OpKind kind, int pe, int peer, double bytes) {
  Op o;
  o.kind = kind;
  o.pe = pe;
  o.peer = peer;
  o.bytes = bytes;
  return o;
}
}  // namespace

TEST(CostModel, ClosedFormsByHand) {
  const MachineSpec m = t3sim::test::small_machine();
  const SoftwareProfile& p = m.profiles.front();
  const CostModel c(m, p);
  const Op get = make(OpKind::Get, 0, 1, 1e6);
  EXPECT_DOUBLE_EQ(c.uncontended_time(get), 1e-6 + c.latency(0, 1) + 16 / 100e6 + c.latency(1, 0) + 1e6 / 50e6);
  const Op local = make(OpKind::Get, 0, 0, 4000);
  EXPECT_DOUBLE_EQ(c.uncontended_time(local), 1e-6 + 0.5e-6 + 4000 / 400e6);
  const Op put = make(OpKind::Put, 0, 1, 1e6);
  EXPECT_DOUBLE_EQ(c.uncontended_time(put), 1e-6 + c.latency(0, 1) + 1e6 / 80e6 + c.latency(1, 0));
  Op compute = make(OpKind::Compute, 0, -1, 0);
  compute.flops = 200;
  EXPECT_DOUBLE_EQ(c.uncontended_time(compute), 200 / 100e6);
}

TEST(UncontendedReplay, ChainsOperationsAndBarriers) {
  const MachineSpec m = t3sim::test::small_machine();
  const CostModel c(m, m.profiles.front());
  Workload w = t3sim::test::workload("w", 2, {make(OpKind::Get, 0, 1, 100), make(OpKind::Get, 0, 0, 100)});
  w.ops.push_back(make(OpKind::Barrier, kAllPes, -1, 0));
  const auto r = replay_uncontended(c, w);
  ASSERT_EQ(r.records.size(), 4u);  // PE 0: get, get, barrier; PE 1: barrier
  EXPECT_DOUBLE_EQ(r.records[1].start, r.records[0].end);
  EXPECT_DOUBLE_EQ(r.records[2].end, r.records[1].end + m.profiles.front().barrier_latency);
  EXPECT_DOUBLE_EQ(r.records[3].end, r.records[2].end);  // PE 1 leaves the barrier with PE 0
}

TEST(UncontendedReplay, UnmatchedWaitIsADeadlock) {
  const MachineSpec m = t3sim::test::small_machine();
  Workload w = t3sim::test::workload("w", 1, {});
  Op wait = make(OpKind::Wait, 0, -1, 0);
  wait.flag = w.flags.intern("never");
  w.ops.push_back(wait);
  EXPECT_THROW(replay_uncontended(CostModel(m, m.profiles.front()), w), std::runtime_error);
}
