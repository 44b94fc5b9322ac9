// A PE's transfers share its own rates (issue 13): a PE issues remote stores at put_bandwidth in
// total over all its puts in flight, not per put. Checked under both drivers against closed forms.
#include <gtest/gtest.h>

#include "driver_under_test.hpp"

#include "../unit/test_machine.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/engine/simulation.hpp"

using namespace t3sim;

namespace {

constexpr double kBytes = 1e6;
constexpr double kPutRate = 50e6;

// Links and interfaces far faster than the PE: its issue rate is the only limit. No overheads or
// latencies, so a transfer takes bytes / its share of the issue rate.
core::MachineSpec fast_network() {
  core::MachineSpec m = test::small_machine();
  m.network = {1e12, 0, 0, 1e12, 1e12, 16};
  auto& p = m.profiles[0];
  p.call_overhead = 0;
  p.put_bandwidth = kPutRate;
  p.barrier_latency = 0;
  return m;
}

core::Op put(int pe, int peer) {
  core::Op op;
  op.kind = core::OpKind::Put;
  op.pe = pe;
  op.peer = peer;
  op.bytes = kBytes;
  op.complete = false;  // in flight until the quiet
  return op;
}

core::Op quiet(int pe) {
  core::Op op;
  op.kind = core::OpKind::Quiet;
  op.pe = pe;
  return op;
}

core::RunResult run(const core::MachineSpec& m, std::vector<core::Op> ops) {
  const core::Workload w = test::workload("puts", m.pe_count(), std::move(ops));
  return engine::simulate(m, m.profiles[0], w, core::JobPlacement::contiguous(m, m.pe_count()), driver_under_test());
}

double makespan(const core::MachineSpec& m, std::vector<core::Op> ops) { return run(m, std::move(ops)).makespan; }

TEST(PeRates, FourPutsInFlightShareTheIssueRate) {
  // PE 0 puts 1 MB to each of four partners at once: 4 MB at 50 MB/s is 80 ms (with a per-put cap
  // instead, each put would run at 50 MB/s and all would end at 20 ms).
  const core::MachineSpec m = fast_network();
  const double t = makespan(m, {put(0, 1), put(0, 2), put(0, 3), put(0, 4), quiet(0)});
  EXPECT_NEAR(t, 4 * kBytes / kPutRate, 1e-9 * t);
}

TEST(PeRates, PutsOfDifferentPesDoNotShare) {
  // Four PEs each put 1 MB to PE 5: each issues at its own 50 MB/s (the network is not the limit).
  const core::MachineSpec m = fast_network();
  const double t = makespan(m, {put(0, 5), put(1, 5), put(2, 5), put(3, 5), quiet(0), quiet(1), quiet(2), quiet(3)});
  EXPECT_NEAR(t, kBytes / kPutRate, 1e-9 * t);
}

TEST(PeRates, TheNetworkStillCapsBelowTheIssueRate) {
  // The issue rate is 50 MB/s, the injection interface 20 MB/s: two puts share the interface.
  core::MachineSpec m = fast_network();
  m.network.nic_injection_bandwidth = 20e6;
  const double t = makespan(m, {put(0, 1), put(0, 2), quiet(0)});
  EXPECT_NEAR(t, 2 * kBytes / 20e6, 1e-9 * t);
}

TEST(PeRates, EachPutReportsItsOwnFlowRateNotItsCallRate) {
  // The four puts of the first test: each call returns at once (no call overhead), but each put's own
  // flow takes 80 ms at a quarter of the issue rate. Its record says so: flow 80 ms, 12.5 MB/s, never
  // more than the PE's rate, and marked as having returned before its data landed.
  const core::MachineSpec m = fast_network();
  const core::RunResult r = run(m, {put(0, 1), put(0, 2), put(0, 3), put(0, 4), quiet(0)});
  int puts = 0;
  for (const auto& rec : r.records) {
    if (rec.kind != core::OpKind::Put) continue;
    ++puts;
    EXPECT_TRUE(rec.background);
    EXPECT_NEAR(rec.flow, 4 * kBytes / kPutRate, 1e-9 * rec.flow);
    EXPECT_LE(rec.bytes / rec.flow, kPutRate * (1 + 1e-9));
  }
  EXPECT_EQ(puts, 4);
}

}  // namespace
