// The packet network's cycles do not depend on how many threads step them (packet_network.hpp,
// Threads): every message is delivered at the same cycle, in the same order within the cycle, with the
// same counts, on one thread or several, whatever the machine (BookSim's rules with their coins, the
// T3E's with its adaptive VC and two virtual networks, a node count that is no multiple of 64), and when
// deliveries are answered between begin_step() and end_step() as the packet transport answers them;
// with each thread injecting for its own nodes (pacers private to a node, coins drawn or not) and
// without (a shared pacer, from the start or from midway). Also the crew itself: every thread takes
// each job once.
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
  uint64_t owner_cycles = 0;     // (nor this: that threads injected for their own nodes)
};

// How the run's messages are paced (PacketNetwork::add_pacer): not at all; each by a pacer of its source
// node (puts), the replies' pacers added inside the step when answered there; or the requests so and
// each reply by its destination's pacer (as a get's data is), which several nodes then share.
enum class Pacing { None, BySource, RepliesByDestination };

// Random traffic of `messages` messages a node, each answered by one back to its source (the reply
// added between begin_step() and end_step() when `answer_inside`, else after step()). Cycles large enough
// are split whenever there are threads, unless `chooser` is given: then as it says, by the clock.
Trace run(const PacketConfig& c, int threads, int messages, bool answer_inside, const SplitChooser* chooser = nullptr,
          Pacing pacing = Pacing::None, bool on_owners = true) {
  PacketNetwork net(c, 3, true, threads);
  net.inject_on_owners(on_owners);
  net.choose_split_by_time(chooser != nullptr);
  if (chooser != nullptr) net.set_split_chooser(*chooser);
  std::mt19937_64 rng(17);
  const int n = c.nodes();
  std::vector<std::pair<int, int>> ends;  // by message id, reused: (src, dst) and whether it is a reply
  std::vector<bool> reply;
  std::vector<int> request_pacers(static_cast<size_t>(n), -1), reply_pacers(static_cast<size_t>(n), -1);
  const auto pacer = [&](std::vector<int>& pacers, int node) {
    int& id = pacers[static_cast<size_t>(node)];
    if (id < 0) id = net.add_pacer(4.0 + (node % 3));  // (a 64-byte payload every 11-16 cycles)
    return id;
  };
  const auto add = [&](int src, int dst, bool is_reply) {
    int paced = -1;
    if (pacing == Pacing::BySource) paced = pacer(is_reply ? reply_pacers : request_pacers, src);
    if (pacing == Pacing::RepliesByDestination) paced = pacer(request_pacers, is_reply ? dst : src);
    const int id = net.add_message(src, dst, 64.0 * 3, paced, c.virtual_networks == 2 && is_reply ? 1 : 0);
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
  t.owner_cycles = net.owner_injected_cycles();
  return t;
}

void expect_same(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.deliveries, b.deliveries);
  EXPECT_EQ(a.stats.flit_hops, b.stats.flit_hops);
  EXPECT_EQ(a.stats.flits_ejected, b.stats.flits_ejected);
  EXPECT_EQ(a.stats.latency_cycles_sum, b.stats.latency_cycles_sum);
  EXPECT_EQ(a.stats.packets_made, b.stats.packets_made);
  EXPECT_EQ(a.stats.flits_injected, b.stats.flits_injected);
  EXPECT_EQ(a.stats.packets_delivered, b.stats.packets_delivered);
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

// mcurie's rules: the route's halves from the table and ties always +, so no packet draws a coin.
PacketConfig mcurie_like(Coord dims) {
  PacketConfig c = t3e_like(dims);
  c.dateline = Dateline::CrayBalanced;
  c.tie_rule = TieRule::Plus;
  return c;
}

// Each thread injecting for its own nodes gives the cycles of one thread, with sources running dry and
// coming back (short messages answered inside the step), pacers private to a node (some added inside
// the step) and none, routes drawing no coins (mcurie's) and drawing them (cray datelines, balanced
// ties), on two and three threads; and so does the caller injecting for all.
TEST(PacketThreads, EachThreadInjectingForItsOwnNodesChangesNothing) {
  struct Case {
    std::string name;
    PacketConfig config;
    Pacing pacing;
  };
  const Case cases[] = {{"mcurie-like, unpaced", mcurie_like({4, 8, 17}), Pacing::None},
                        {"mcurie-like, paced by source", mcurie_like({4, 8, 17}), Pacing::BySource},
                        {"t3e-like with coins, paced by source", t3e_like({4, 8, 17}), Pacing::BySource}};
  for (const auto& [name, c, pacing] : cases) {
    SCOPED_TRACE(name);
    const Trace one = run(c, 1, 3, true, nullptr, pacing);
    EXPECT_GT(one.deliveries.size(), 0u);
    for (int threads : {2, 3}) {
      const Trace owners = run(c, threads, 3, true, nullptr, pacing);
      expect_same(one, owners);
      EXPECT_GT(owners.owner_cycles, owners.threaded_cycles / 2) << threads << " threads";
      EXPECT_GT(owners.threaded_cycles, one.cycles / 4) << threads << " threads: the run was hardly split";
      const Trace caller = run(c, threads, 3, true, nullptr, pacing, false);
      expect_same(one, caller);
      EXPECT_EQ(caller.owner_cycles, 0u);
    }
  }
  // Cycles split and not, in turn.
  const PacketConfig c = t3e_like({4, 8, 17});
  const SplitChooser quick(1000, 2);
  const Trace turns = run(c, 2, 3, true, &quick, Pacing::BySource);
  expect_same(run(c, 1, 3, true, nullptr, Pacing::BySource), turns);
  EXPECT_GT(turns.owner_cycles, 0u);
}

// A pacer several nodes share (a get's data is paced by its destination) is read in the one-thread
// order within a cycle, so the caller's thread injects for all from the first message that shares one:
// from the start, or midway (the replies', answered inside the step).
TEST(PacketThreads, ASharedPacerKeepsTheInjectionOnTheCallersThread) {
  const PacketConfig c = mcurie_like({4, 8, 17});
  const Trace one = run(c, 1, 3, true, nullptr, Pacing::RepliesByDestination);
  const Trace two = run(c, 2, 3, true, nullptr, Pacing::RepliesByDestination);
  expect_same(one, two);
  EXPECT_GT(two.owner_cycles, 0u);  // before the first reply
  EXPECT_LT(two.owner_cycles, two.threaded_cycles / 2);
  // The replies answered after the step: every request's pacer shared before the second cycle.
  const Trace after = run(c, 2, 3, false, nullptr, Pacing::RepliesByDestination);
  expect_same(run(c, 1, 3, false, nullptr, Pacing::RepliesByDestination), after);
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
