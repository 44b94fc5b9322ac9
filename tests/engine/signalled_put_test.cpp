// A put with a signal is three calls (issue 13): the put, shmem_fence or shmem_quiet, then a flag put
// of one word; each pays its cost, and the flag rises only behind the data. Both drivers.
#include <gtest/gtest.h>

#include "driver_under_test.hpp"

#include "../unit/test_machine.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/engine/simulation.hpp"

using namespace t3sim;

namespace {

constexpr double kCall = 1e-6;
constexpr double kSync = 0.25e-6;
constexpr double kPutRate = 50e6;

// A network far faster than the PE and no latency: times are call costs and the PE's issue rate.
core::MachineSpec machine() {
  core::MachineSpec m = test::small_machine();
  m.network = {1e12, 0, 0, 1e12, 1e12, 16};
  auto& p = m.profiles[0];
  p.call_overhead = kCall;
  p.sync_overhead = kSync;
  p.put_bandwidth = kPutRate;
  p.barrier_latency = 0;
  return m;
}

core::Op put(int pe, int peer, double bytes, core::NameId flag = core::kNoName,
             core::SignalOrder order = core::SignalOrder::OnArrival) {
  core::Op op = core::pattern_op(core::OpKind::Put, pe, peer, bytes, flag, core::kNoName, 0);  // non-blocking
  op.order = order;
  return op;
}

core::Op simple(core::OpKind kind, int pe, core::NameId flag = core::kNoName) {
  core::Op op;
  op.kind = kind;
  op.pe = pe;
  op.flag = flag;
  return op;
}

core::RunResult run(const core::MachineSpec& m, core::Workload w) {
  return engine::simulate(m, m.profiles[0], w, core::JobPlacement::contiguous(m, w.pes), driver_under_test());
}

const core::OpRecord& record_of(const core::RunResult& r, int pe, core::OpKind kind) {
  for (const auto& rec : r.records)
    if (rec.pe == pe && rec.kind == kind) return rec;
  throw std::runtime_error("no such record");
}

// PE 0 puts 1 MB to PE 1, then a small put with a fenced signal; PE 1 waits for the flag.
core::Workload fenced(core::SignalOrder order) {
  core::Workload w = test::workload("signalled", 2, {});
  const core::NameId ready = w.flags.intern("ready");
  w.ops = {put(0, 1, 1e6), put(0, 1, 64, ready, order), simple(core::OpKind::Quiet, 0),
           simple(core::OpKind::Wait, 1, ready)};
  return w;
}

TEST(SignalledPut, EachCallPaysItsCost) {
  // Alone: the put call, the fence, the flag put call; the PE goes on before either put has landed.
  core::Workload w = test::workload("one", 2, {});
  w.ops = {put(0, 1, 1e6, w.flags.intern("ready"), core::SignalOrder::Fence), simple(core::OpKind::Quiet, 0),
           simple(core::OpKind::Wait, 1, w.flags.find("ready"))};
  const core::RunResult r = run(machine(), w);
  const core::OpRecord& p = record_of(r, 0, core::OpKind::Put);
  EXPECT_NEAR(p.duration(), 2 * kCall + kSync, 1e-15);
  EXPECT_TRUE(p.background);
}

TEST(SignalledPut, AFencedFlagRisesOnlyWhenTheEarlierPutHasLanded) {
  // The small put and its flag land within microseconds; the 1 MB put before them to the same PE takes
  // 20 ms. The flag is held until it lands: PE 1's wait ends at the big put's delivery.
  const core::RunResult r = run(machine(), fenced(core::SignalOrder::Fence));
  double big_landed = 0;
  for (const auto& t : r.transfers)
    if (t.bytes == 1e6) big_landed = t.end;
  ASSERT_GT(big_landed, 1e6 / kPutRate);
  EXPECT_NEAR(record_of(r, 1, core::OpKind::Wait).end, big_landed, 1e-12);
  // The fence does not wait: PE 0's signalled put returns after its three calls.
  EXPECT_NEAR(record_of(r, 0, core::OpKind::Put).end - record_of(r, 0, core::OpKind::Put).start, kCall, 1e-15);
}

TEST(SignalledPut, AQuietSignalWaitsForEveryPutBeforeTheFlagPut) {
  // order quiet: PE 0 waits until both earlier puts are acknowledged (zero latency: delivered), then
  // pays the flag put's call; the flag lands an 8-byte flow later.
  const core::RunResult r = run(machine(), fenced(core::SignalOrder::Quiet));
  double last_landed = 0;
  for (const auto& t : r.transfers) last_landed = std::max(last_landed, t.end);
  const core::OpRecord& signalled = r.records[1];
  ASSERT_EQ(signalled.kind, core::OpKind::Put);
  EXPECT_NEAR(signalled.end, last_landed + kCall, 1e-12);
  EXPECT_NEAR(record_of(r, 1, core::OpKind::Wait).end, last_landed + kCall + core::kFlagWordBytes / kPutRate, 1e-12);
}

}  // namespace
