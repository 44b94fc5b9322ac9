// A node's concurrency (issue 32): its memory port is shared by the transfers leaving it and arriving
// at it, and a PE's gets together arrive at most at its E-register rate (8 x eregisters /
// remote_round_trip, Little's law). Checked under both drivers against closed forms.
#include <gtest/gtest.h>

#include "driver_under_test.hpp"

#include "../unit/test_machine.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/engine/simulation.hpp"

using namespace t3sim;

namespace {

constexpr double kBytes = 1e6;
constexpr double kPutRate = 50e6;
constexpr double kGetRate = 40e6;

// Links and interfaces far faster than the PE, no overheads or latencies: a transfer takes bytes / its
// share of the tightest rate it draws on.
core::MachineSpec fast_network() {
  core::MachineSpec m = test::small_machine();
  m.network = {1e12, 0, 0, 1e12, 1e12, 16};
  auto& p = m.profiles[0];
  p.call_overhead = 0;
  p.local_overhead = 0;
  p.put_bandwidth = kPutRate;
  p.get_bandwidth = kGetRate;
  p.barrier_latency = 0;
  return m;
}

core::Op transfer(core::OpKind kind, int pe, int peer) {
  core::Op op;
  op.kind = kind;
  op.pe = pe;
  op.peer = peer;
  op.bytes = kBytes;
  return op;
}

double makespan(const core::MachineSpec& m, std::vector<core::Op> ops) {
  const core::Workload w = test::workload("node", m.pe_count(), std::move(ops));
  return engine::simulate(m, m.profiles[0], w, core::JobPlacement::contiguous(m, m.pe_count()), driver_under_test())
      .makespan;
}

// SimGrid 3.32 allows one engine per process: one simulation per test.
const std::vector<core::Op> kSwap = {transfer(core::OpKind::Put, 0, 1), transfer(core::OpKind::Put, 1, 0)};

TEST(NodeConcurrency, APortWithRoomForBothWaysLetsASwapRunAtThePutRate) {
  core::MachineSpec m = fast_network();
  m.node.memory_bandwidth = 120e6;  // 2 x 50 MB/s fit
  EXPECT_NEAR(makespan(m, kSwap), kBytes / kPutRate, 1e-9);
}

TEST(NodeConcurrency, ASwapSharesEachNodesMemoryPortBetweenItsTwoWays) {
  // PE 0 puts to PE 1 while PE 1 puts to PE 0: each node's port carries one transfer out and one in.
  core::MachineSpec m = fast_network();
  m.node.memory_bandwidth = 60e6;  // 30 MB/s each way
  EXPECT_NEAR(makespan(m, kSwap), kBytes / 30e6, 1e-9);
}

TEST(NodeConcurrency, OneWayAloneTakesThePortWhole) {
  core::MachineSpec m = fast_network();
  m.node.memory_bandwidth = 60e6;  // above the put rate: the put rate binds
  EXPECT_NEAR(makespan(m, {transfer(core::OpKind::Put, 0, 1)}), kBytes / kPutRate, 1e-9);
}

TEST(NodeConcurrency, TheMemoryPortBindsAGetsDataWhereItIsRead) {
  core::MachineSpec m = fast_network();
  m.node.memory_bandwidth = 25e6;  // below the get rate
  // PE 0 gets from PE 1 while PE 2 puts into PE 1: PE 1's port carries the get's data out and the put in.
  const double t = makespan(m, {transfer(core::OpKind::Get, 0, 1), transfer(core::OpKind::Put, 2, 1)});
  EXPECT_NEAR(t, kBytes / 12.5e6, 1e-6);
}

TEST(NodeConcurrency, AGetArrivesAtMostAtItsInitiatorsERegisterRate) {
  core::MachineSpec m = fast_network();
  m.node.eregisters = 4;  // 32 bytes in flight: 32 B / 1 us = 32 MB/s, below the 40 MB/s get rate
  m.node.remote_round_trip = 1e-6;
  const double request = m.network.request_bytes / 1e12;  // the request word goes first
  EXPECT_NEAR(makespan(m, {transfer(core::OpKind::Get, 0, 1)}), request + kBytes / 32e6, 1e-9);
}

TEST(NodeConcurrency, APutHoldsNoRegisterForARoundTrip) {
  core::MachineSpec m = fast_network();
  m.node.eregisters = 4;
  m.node.remote_round_trip = 1e-6;
  EXPECT_NEAR(makespan(m, {transfer(core::OpKind::Put, 0, 1)}), kBytes / kPutRate, 1e-9);
}

TEST(NodeConcurrency, WithRegistersEnoughTheGetRateBinds) {
  core::MachineSpec m = fast_network();
  m.node.eregisters = 512;  // 4 KiB / 1 us, far above 40 MB/s
  m.node.remote_round_trip = 1e-6;
  const double request = m.network.request_bytes / 1e12;
  EXPECT_NEAR(makespan(m, {transfer(core::OpKind::Get, 0, 1)}), request + kBytes / kGetRate, 1e-9);
}

}  // namespace
