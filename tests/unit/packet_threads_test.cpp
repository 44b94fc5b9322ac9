// The packet network's cycles do not depend on how many threads step them (packet_network.hpp,
// Threads): every message is delivered at the same cycle, in the same order within the cycle, with the
// same counts, on one thread or several, whatever the machine (BookSim's rules with their coins, the
// T3E's with its adaptive VC and two virtual networks, a node count that is no multiple of 64), and when
// deliveries are answered between begin_step() and end_step() as the packet transport answers them.
// Also the crew itself: every thread takes each job once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/core/packet/packet_network.hpp"
#include "sim/core/support/thread_crew.hpp"
#include "tests/unit/booksim_like_config.hpp"

namespace t3sim::core {
namespace {

struct Trace {
  std::vector<std::pair<uint64_t, int>> deliveries;  // (cycle, message) in the order delivered
  PacketNetwork::Stats stats;
  uint64_t cycles = 0;
  uint64_t threaded_cycles = 0;  // (not compared: that the run was split at all)
};

// Random traffic of `messages` messages a node, each answered by one back to its source (the reply
// added between begin_step() and end_step() when `answer_inside`, else after step()). Cycles large enough
// are split whenever there are threads, unless `chooser` is given: then as it says, by the clock.
Trace run(const PacketConfig& c, int threads, int messages, bool answer_inside, const SplitChooser* chooser = nullptr) {
  PacketNetwork net(c, 3, true, threads);
  net.choose_split_by_time(chooser != nullptr);
  if (chooser != nullptr) net.set_split_chooser(*chooser);
  std::mt19937_64 rng(17);
  const int n = c.nodes();
  std::vector<std::pair<int, int>> ends;  // by message id, reused: (src, dst) and whether it is a reply
  std::vector<bool> reply;
  const auto add = [&](int src, int dst, bool is_reply) {
    const int id = net.add_message(src, dst, 64.0 * 3, -1, c.virtual_networks == 2 && is_reply ? 1 : 0);
    if (ends.size() <= static_cast<size_t>(id)) ends.resize(static_cast<size_t>(id) + 1), reply.resize(ends.size());
    ends[static_cast<size_t>(id)] = {src, dst};
    reply[static_cast<size_t>(id)] = is_reply;
  };
  for (int m = 0; m < messages; ++m)
    for (int src = 0; src < n; ++src) add(src, static_cast<int>(rng() % static_cast<uint64_t>(n)), false);
  Trace t;
  std::vector<std::pair<int, int>> answers;
  for (uint64_t next = net.next_busy_cycle(); next != UINT64_MAX; next = net.next_busy_cycle()) {
    net.skip_to(next);
    const uint64_t cycle = net.now();
    net.begin_step();
    answers.clear();
    for (int m : net.delivered()) {
      t.deliveries.emplace_back(cycle, m);
      if (!reply[static_cast<size_t>(m)])
        answers.emplace_back(ends[static_cast<size_t>(m)].second, ends[static_cast<size_t>(m)].first);
    }
    if (answer_inside)
      for (const auto& [a, b] : answers) add(a, b, true);
    net.end_step();
    if (!answer_inside)
      for (const auto& [a, b] : answers) add(a, b, true);
  }
  t.stats = net.stats();
  t.cycles = net.now();
  t.threaded_cycles = net.threaded_cycles();
  return t;
}

void expect_same(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.deliveries, b.deliveries);
  EXPECT_EQ(a.stats.flit_hops, b.stats.flit_hops);
  EXPECT_EQ(a.stats.flits_ejected, b.stats.flits_ejected);
  EXPECT_EQ(a.stats.latency_cycles_sum, b.stats.latency_cycles_sum);
}

// The T3E-like network with the adaptive VC and mcurie's two packets of buffer.
PacketConfig t3e_like(Coord dims) {
  PacketConfig c = t3e_like(dims, HopOrder::Direction, true);
  c.vc_buffer_flits = 20;
  return c;
}

TEST(PacketThreads, EveryMessageArrivesAtTheSameCycleOnAnyNumberOfThreads) {
  struct Case {
    std::string name;
    PacketConfig config;
    int messages;
  };
  PacketConfig bal = booksim_like({8, 8, 8}, 1);
  bal.tie_rule = TieRule::Balanced;
  bal.dateline = Dateline::Balanced;
  PacketConfig held = booksim_like({6, 7, 8}, 4);
  held.hold_switch = true;
  const Case cases[] = {{"booksim 8x8x8, balanced, 1 flit", bal, 8},
                        {"booksim 6x7x8 (336 nodes), held switch, 4 flits", held, 4},
                        {"t3e-like 4x8x17 (544 nodes), adaptive, two networks", t3e_like({4, 8, 17}), 3}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Trace one = run(c.config, 1, c.messages, true);
    EXPECT_GT(one.deliveries.size(), 0u);
    EXPECT_EQ(one.threaded_cycles, 0u);
    for (int threads : {2, 3}) {
      const Trace many = run(c.config, threads, c.messages, true);
      expect_same(one, many);
      EXPECT_GT(many.threaded_cycles, one.cycles / 4) << threads << " threads: the run was hardly split";
    }
  }
}

// Cycles split and not split in turn, as the clock has it (probes of a microsecond: many turns in a run),
// give the cycles of one thread.
TEST(PacketThreads, SplittingSomeCyclesAndNotOthersChangesNothing) {
  const PacketConfig c = t3e_like({4, 8, 17});
  const Trace one = run(c, 1, 3, true);
  const SplitChooser quick(1000, 2);
  const Trace turns = run(c, 2, 3, true, &quick);
  expect_same(one, turns);
  EXPECT_GT(turns.threaded_cycles, 0u);
}

// A message added between begin_step() and end_step() is as one added after end_step().
TEST(PacketThreads, AMessageAddedInsideAStepEntersAsOneAddedAfterIt) {
  const PacketConfig c = t3e_like({4, 8, 8});
  const Trace after = run(c, 1, 3, false);
  expect_same(after, run(c, 1, 3, true));
  const Trace threaded = run(c, 2, 3, true);
  expect_same(after, threaded);
  EXPECT_GT(threaded.threaded_cycles, 0u);
}

TEST(ThreadCrew, EveryThreadTakesEachJobOnce) {
  for (int threads : {1, 2, 3}) {
    ThreadCrew crew(threads);
    EXPECT_EQ(crew.threads(), threads);
    std::vector<std::atomic<int>> runs(static_cast<size_t>(threads));
    for (auto& r : runs) r = 0;
    for (int job = 0; job < 1000; ++job) {
      // (Now and then after a pause, long enough for the workers to have gone to sleep.)
      if (job % 250 == 249) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      crew.post([](void* context, int thread) { ++(*static_cast<std::vector<std::atomic<int>>*>(context))[thread]; },
                &runs);
      crew.join();
      for (int k = 0; k < threads; ++k) ASSERT_EQ(runs[static_cast<size_t>(k)], job + 1) << "thread " << k;
    }
  }
}

}  // namespace
}  // namespace t3sim::core
