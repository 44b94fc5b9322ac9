// The engine against closed forms: each test builds a job, simulates it in SimGrid (one engine per
// process: ctest runs every test in its own process) and compares to 1e-9 relative.
#include <gtest/gtest.h>

#include "driver_under_test.hpp"

#include "../unit/test_machine.hpp"
#include "sim/analysis/swap_statistics.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/workload/workload_loader.hpp"

using namespace t3sim;
using core::OpKind;

namespace {

constexpr double kRel = 1e-9;

// An operation whose label is interned into w's labels (w.ops is left alone).
core::Op op(core::Workload& w, OpKind kind, int pe, int peer, double bytes, const std::string& label,
            bool complete = true) {
  core::Op o;
  o.kind = kind;
  o.pe = pe;
  o.peer = peer;
  o.bytes = bytes;
  o.label = w.labels.intern(label);
  o.complete = complete;
  return o;
}

const core::OpRecord& record(const core::RunResult& r, const std::string& label, int pe) {
  for (const auto& rec : r.records)
    if (r.labels.name(rec.label) == label && rec.pe == pe) return rec;
  throw std::runtime_error("no record " + label);
}

void expect_close(double got, double want) { EXPECT_NEAR(got / want, 1.0, kRel) << got << " vs " << want; }

}  // namespace

TEST(Engine, SingleOperationsMatchClosedForm) {
  const core::MachineSpec m = test::small_machine();
  const core::CostModel cost(m, m.profiles[0]);
  // 0 -> 1 is one hop (x), 0 -> 9 is three hops (1,1,1), 0 -> 0 is local.
  core::Workload w = test::workload("single", 24, {});
  w.ops = {op(w, OpKind::Get, 0, 0, 4000, "local"), op(w, OpKind::Get, 0, 1, 1e6, "get1hop"),
           op(w, OpKind::Get, 0, 9, 1e6, "get3hop"), op(w, OpKind::Put, 0, 1, 1e6, "put1hop"),
           op(w, OpKind::Put, 0, 9, 12345, "put3hop")};
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  for (const auto& o : w.ops) expect_close(record(r, w.labels.name(o.label), 0).duration(), cost.uncontended_time(o));
  EXPECT_EQ(cost.hops(0, 9), 3);
}

TEST(Engine, NewsletterRunEqualsUncontendedReplay) {
  const auto m = io::load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/t3d-denali.yaml");
  const auto w = io::load_workload(std::string(T3SIM_SOURCE_DIR) + "/workloads/newsletter-shmem-get.yaml").workload;
  for (const auto& profile : m.profiles) {
    if (profile.name != "default") continue;  // one engine per process
    const auto r = engine::simulate(m, profile, w, driver_under_test());
    const auto predicted = core::replay_uncontended(core::CostModel(m, profile), w).records;
    ASSERT_EQ(r.records.size(), predicted.size());
    for (size_t i = 0; i < predicted.size(); ++i) {
      expect_close(r.records[i].start + 1e-30, predicted[i].start + 1e-30);
      expect_close(r.records[i].end, predicted[i].end);
    }
  }
}

TEST(Engine, TwoFlowsShareALinkFairly) {
  core::MachineSpec m = test::small_machine();
  m.network.router_delay = 0;
  m.network.wire_delay = 0;
  m.profiles[0].put_bandwidth = 1e12;  // not a cap here
  // Node 0 (0,0,0) -> node 12 (0,0,2) runs z+ through node 6; node 6 -> node 12 shares link n6.z+.
  core::Workload w = t3sim::test::workload("share", 24, {});
  w.ops = {op(w, OpKind::Put, 0, 12, 1e6, "long"), op(w, OpKind::Put, 6, 12, 1e6, "short")};
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  const double want = m.profiles[0].call_overhead + 1e6 / (m.network.link_bandwidth / 2);
  expect_close(record(r, "long", 0).duration(), want);
  expect_close(record(r, "short", 6).duration(), want);
}

TEST(Engine, TwoPesOfANodeShareItsInterface) {
  core::MachineSpec m = test::small_machine();
  m.node.pes_per_node = 2;  // as on the T3D
  m.network.router_delay = 0;
  m.network.wire_delay = 0;
  m.network.link_bandwidth = 300e6;
  m.network.nic_injection_bandwidth = 100e6;
  m.network.nic_ejection_bandwidth = 100e6;
  m.profiles[0].get_bandwidth = 1e12;
  // PEs 0 and 1 (node 0) each get 1 MB from PEs 2 and 3 (node 1): requests share node 0's injection,
  // data shares node 1's injection and node 0's ejection.
  core::Workload w = t3sim::test::workload("nic", 4, {});
  w.ops = {op(w, OpKind::Get, 0, 2, 1e6, "a"), op(w, OpKind::Get, 1, 3, 1e6, "b")};
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  const double want = m.profiles[0].call_overhead + 16 / 50e6 + 1e6 / 50e6;
  expect_close(record(r, "a", 0).duration(), want);
  expect_close(record(r, "b", 1).duration(), want);
}

TEST(Engine, NonBlockingPutCompletesAtQuiet) {
  const core::MachineSpec m = test::small_machine();
  const core::CostModel cost(m, m.profiles[0]);
  core::Workload w = t3sim::test::workload("nb", 24, {});
  w.ops = {op(w, OpKind::Put, 0, 9, 1e6, "put", false), op(w, OpKind::Quiet, 0, -1, 0, "quiet")};
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  expect_close(record(r, "put", 0).duration(), m.profiles[0].call_overhead);
  expect_close(record(r, "quiet", 0).end, cost.uncontended_time(op(w, OpKind::Put, 0, 9, 1e6, "put")));
}

TEST(Engine, BarrierWaitsForTheSlowestPe) {
  const core::MachineSpec m = test::small_machine();
  core::Workload w = t3sim::test::workload("barrier", 2, {});
  core::Op slow = op(w, OpKind::Compute, 0, -1, 0, "slow");
  slow.flops = 500;  // 5 us at 100 Mflop/s
  core::Op fast = op(w, OpKind::Compute, 1, -1, 0, "fast");
  fast.seconds = 1e-6;
  core::Op barrier = op(w, OpKind::Barrier, core::kAllPes, -1, 0, "sync");
  w.ops = {slow, fast, barrier};
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  expect_close(record(r, "slow", 0).duration(), 5e-6);
  expect_close(record(r, "fast", 1).duration(), 1e-6);
  expect_close(record(r, "sync", 0).end, 5e-6 + m.profiles[0].barrier_latency);
  expect_close(record(r, "sync", 1).end, 5e-6 + m.profiles[0].barrier_latency);
  expect_close(r.makespan, 5e-6 + m.profiles[0].barrier_latency);
}

TEST(Engine, SignalledPutWakesTheWaitingPe) {
  const core::MachineSpec m = test::small_machine();
  const core::CostModel cost(m, m.profiles[0]);
  core::Workload w = t3sim::test::workload("signal", 24, {});
  core::Op put = op(w, OpKind::Put, 0, 9, 5e5, "put", false);
  put.flag = w.flags.intern("data");
  core::Op wait = op(w, OpKind::Wait, 9, -1, 0, "wait");
  wait.flag = w.flags.intern("data");
  w.ops = {put, wait};
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  // The data arrives after call_overhead + latency + bytes/rate; the ack latency comes after that.
  const double arrival = m.profiles[0].call_overhead + cost.latency(0, 9) +
                         5e5 / std::min(cost.bottleneck(0, 9), m.profiles[0].put_bandwidth);
  expect_close(record(r, "wait", 9).end, arrival);
  expect_close(r.makespan, arrival + cost.latency(9, 0));
}

// A repeated block lists its first repetition's data movements only; each stands for its repetitions
// (Transfer::repeats), so reports count every byte the block moved.
TEST(Engine, RepeatedBlockTransfersStandForEveryRepetition) {
  const core::MachineSpec m = test::small_machine();
  core::Workload w = t3sim::test::workload("repeated", 24, {});
  w.ops = {op(w, OpKind::Put, 0, 9, 1000, "put", false), op(w, OpKind::Put, 1, 2, 500, "put", false),
           op(w, OpKind::Put, 1, 3, 700, "put", false)};
  w.repeats.push_back({0, 3, 5});
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  ASSERT_EQ(r.transfers.size(), 3u);
  double moved = 0;
  for (const auto& t : r.transfers) {
    EXPECT_EQ(t.repeats, 5) << t.src << " -> " << t.dst;
    moved += t.bytes_moved();
  }
  EXPECT_EQ(moved, 5 * (1000.0 + 500 + 700));
  EXPECT_EQ(record(r, "put", 0).repeats, 5);
}

TEST(Engine, NonblockingSendSwapMatchesClosedForm) {
  core::MachineSpec m = test::small_machine();
  m.profiles[0].message_overhead = 3e-6;
  const core::CostModel cost(m, m.profiles[0]);
  const auto w = io::load_workload(std::string(T3SIM_TEST_DATA) + "/workload/swap_valid.yaml").workload;
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  const analysis::SwapStatistics st = analysis::swap_statistics(r, w.swap_iterations);
  ASSERT_EQ(st.curve.size(), 2u);
  // PEs 0<->2 and 1<->3 share no link on the 2x3x4 torus (0->2 is y+, 1->3 is y+ in the other column).
  // The data put signals behind a fence: its flag put (8 B) is issued one call later, while the data
  // is still on its way, and shares the PE's issue rate with it; the data lands 8 B / rate later and
  // the flag rises with it. The swap ends with the data's acknowledgement.
  for (const auto& p : st.curve) {
    const double rate = std::min(cost.bottleneck(0, 2), m.profiles[0].put_bandwidth);
    ASSERT_GT(p.bytes / rate, m.profiles[0].call_overhead);  // the flag put starts while the data flows
    const double want = 3e-6 + m.profiles[0].call_overhead + cost.latency(0, 2) +
                        (p.bytes + core::kFlagWordBytes) / rate + cost.latency(2, 0);
    expect_close(p.seconds, want);
  }
}

// The four swap protocols: the engine and the uncontended replay agree op by op (no link is shared).
class SwapProtocolAgrees : public testing::TestWithParam<std::string> {};

TEST_P(SwapProtocolAgrees, EngineEqualsReplay) {
  core::MachineSpec m = test::small_machine();
  m.profiles[0].message_overhead = 3e-6;
  const auto w =
      io::load_workload(std::string(T3SIM_TEST_DATA) + "/workload/swap_valid.yaml", {{"protocol", GetParam()}})
          .workload;
  const auto sim = engine::simulate(m, m.profiles[0], w, driver_under_test());
  const auto rep = core::replay_uncontended(core::CostModel(m, m.profiles[0]), w);
  ASSERT_EQ(sim.records.size(), rep.records.size());
  // Exact where no put carries a fenced signal; else within the flag words' share (test::flag_word_slack).
  const double slack = test::flag_word_slack(m, w);
  for (size_t i = 0; i < rep.records.size(); ++i) {
    ASSERT_EQ(sim.records[i].pe, rep.records[i].pe) << i;
    ASSERT_EQ(sim.records[i].kind, rep.records[i].kind) << i;
    EXPECT_NEAR(sim.records[i].end, rep.records[i].end, kRel * rep.records[i].end + slack) << i;
  }
  EXPECT_NEAR(sim.makespan, rep.makespan, kRel * rep.makespan + slack);
  ASSERT_EQ(sim.transfers.size(), rep.transfers.size());
  for (size_t i = 0; i < rep.transfers.size(); ++i) {
    EXPECT_EQ(sim.transfers[i].src, rep.transfers[i].src) << i;
    EXPECT_NEAR(sim.transfers[i].end, rep.transfers[i].end, kRel * rep.transfers[i].end + slack) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Protocols, SwapProtocolAgrees,
                         testing::Values("nonblocking_send", "nonblocking_send_receive", "nonblocking_receive",
                                         "ready_send"));
