// Traces through the engine: a trace replays exactly as the equivalent YAML workload; message-layer
// ping-pongs (eager and rendezvous) and a PUT ping-pong meet the uncontended replay's closed forms.
#include <gtest/gtest.h>

#include "driver_under_test.hpp"

#include "../unit/test_machine.hpp"
#include "sim/analysis/time_split.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/output/results_writer.hpp"
#include "sim/io/trace/shmem/shmem_trace_reader.hpp"
#include "sim/io/workload/workload_loader.hpp"

using namespace t3sim;

namespace {
std::string source(const std::string& path) { return std::string(T3SIM_SOURCE_DIR) + "/" + path; }

void expect_uncontended(const core::MachineSpec& m, const core::Workload& w) {
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  const auto predicted = core::replay_uncontended(core::CostModel(m, m.profiles[0]), w);
  ASSERT_EQ(r.records.size(), predicted.records.size());
  // Only signalled puts' flag words share anything (with their own data): test::flag_word_slack.
  const double slack = 1e-9 * predicted.makespan + test::flag_word_slack(m, w);
  for (size_t i = 0; i < predicted.records.size(); ++i) {
    EXPECT_NEAR(r.records[i].start, predicted.records[i].start, slack) << i;
    EXPECT_NEAR(r.records[i].end, predicted.records[i].end, slack) << i;
  }
  EXPECT_NEAR(r.makespan, predicted.makespan, slack);
}
}  // namespace

TEST(TraceReplay, ShiftTraceEqualsShiftWorkload) {
  const auto m = io::load_machine(source("platforms/t3e-900-mcurie.yaml"));
  const auto& profile = *m.find_profile("");
  const auto yaml = io::load_workload(source("workloads/shift.yaml")).workload;
  const auto trace = io::load_shmem_trace(source("workloads/traces/shift.t3t"), {profile.eager_threshold}).workload;
  ASSERT_EQ(yaml.pes, trace.pes);
  // The same operations in the same order on every PE (the run-level comparison of the two, byte for
  // byte, is the regression test regression.trace.equals_workload: one SimGrid engine per process).
  const auto yaml_programs = yaml.programs(), trace_programs = trace.programs();
  for (int pe : {0, 5, 127}) {
    const auto& yaml_ops = yaml_programs[pe];
    const auto& trace_ops = trace_programs[pe];
    ASSERT_EQ(yaml_ops.size(), trace_ops.size());
    for (size_t i = 0; i < yaml_ops.size(); ++i) {
      EXPECT_EQ(yaml_ops[i].kind, trace_ops[i].kind) << i;
      EXPECT_EQ(yaml_ops[i].peer, trace_ops[i].peer) << i;
      EXPECT_EQ(yaml_ops[i].bytes, trace_ops[i].bytes) << i;
      EXPECT_EQ(yaml.flags.name(yaml_ops[i].flag), trace.flags.name(trace_ops[i].flag)) << i;
      if (yaml_ops[i].kind == core::OpKind::Put) {
        EXPECT_EQ(yaml_ops[i].complete, trace_ops[i].complete) << i;
      }
      EXPECT_EQ(yaml.labels.name(yaml_ops[i].label), trace.labels.name(trace_ops[i].label)) << i;
      EXPECT_EQ(yaml_ops[i].iteration, trace_ops[i].iteration) << i;
    }
  }
  const auto r = engine::simulate(m, profile, trace, driver_under_test());
  EXPECT_GT(r.makespan, 0);
}

TEST(TraceReplay, PutPingPongMeetsTheClosedForm) {
  const core::MachineSpec m = test::small_machine();
  expect_uncontended(m, io::load_shmem_trace(source("workloads/traces/pingpong-put.t3t"), {0}, 0, 4096).workload);
}

// The send/receive ping-pong of `bytes` with the message layer switching protocols at `threshold`.
void expect_send_recv_pingpong_uncontended(double threshold, double bytes) {
  core::MachineSpec m = test::small_machine();
  m.profiles[0].message_overhead = 3e-6;
  m.profiles[0].eager_threshold = threshold;
  expect_uncontended(
      m, io::load_shmem_trace(source("workloads/traces/pingpong-sendrecv.t3t"), {threshold}, 0, bytes).workload);
}

TEST(TraceReplay, EagerSendRecvPingPongMeetsTheClosedForm) { expect_send_recv_pingpong_uncontended(16384, 4096); }

TEST(TraceReplay, RendezvousSendRecvPingPongMeetsTheClosedForm) { expect_send_recv_pingpong_uncontended(1024, 65536); }

TEST(TraceReplay, TimeSplitAddsUpToEachPesEnd) {
  const core::MachineSpec m = test::small_machine();
  const auto w = io::load_shmem_trace(source("workloads/traces/strided-atomics.t3t"), {0}).workload;
  const auto r = engine::simulate(m, m.profiles[0], w, driver_under_test());
  const auto split = analysis::time_split(r, w.pes);
  ASSERT_EQ(split.size(), 8u);
  for (const auto& t : split) {
    EXPECT_NEAR(t.compute + t.communication + t.waiting, t.end, 1e-12) << "PE " << t.pe;
    EXPECT_NEAR(t.compute, 4 * 2e5 / (m.node.clock_hz * m.node.flops_per_cycle), 1e-12);
  }
}
