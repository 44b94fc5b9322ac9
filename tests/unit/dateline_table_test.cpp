// The T3E's balanced dateline halves (network.dateline: cray_balanced; core/packet/dateline_table.hpp):
// the table's balance against a bound no whole-segment assignment beats and against putting every free
// segment on one half, its determinism, and the packet routing taking exactly the table's half.
#include "sim/core/packet/dateline_table.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/packet/dateline_half.hpp"
#include "sim/core/packet/packet_network.hpp"
#include "tests/unit/booksim_like_config.hpp"

namespace t3sim::core {
namespace {

// Ring k's hop loads (way +, ties going +) in segments of uniform traffic, by hop then half, when a
// segment that does not cross the wrap takes the half `free_half` gives it: the sum of their squares.
template <typename Half>
int64_t squared_loads(int k, Half free_half) {
  std::vector<int64_t> load[2] = {std::vector<int64_t>(static_cast<size_t>(k), 0),
                                  std::vector<int64_t>(static_cast<size_t>(k), 0)};
  for (int from = 0; from < k; ++from)
    for (int to = 0; to < k; ++to) {
      const int hops = (to - from + k) % k;
      if (hops == 0 || hops > k - hops) continue;
      for (int i = 0, cur = from; i < hops; ++i, cur = (cur + 1) % k) {
        const DatelineHalf rule = cray_half(k, from, cur, to, false);
        load[rule == DatelineHalf::Draw ? free_half(from, to) : static_cast<int>(rule)][static_cast<size_t>(cur)]++;
      }
    }
  int64_t sum = 0;
  for (int h = 0; h < 2; ++h)
    for (int64_t l : load[h]) sum += l * l;
  return sum;
}

// The largest load of a half is the dateline's (the hop before the wrap carries every crossing path on
// its lower half, whatever the free ones do); the balance spreads the rest.
TEST(DatelineTable, BalancesEachRingNearTheSplitBoundAndBetterThanEverythingLow) {
  for (int k = 3; k <= 24; ++k) {
    const DatelineTable t({k, 2, 1}, TieRule::Plus);
    for (bool minus : {false, true}) {
      SCOPED_TRACE("k " + std::to_string(k) + (minus ? " -" : " +"));
      EXPECT_GE(t.largest_load(0, minus), t.split_load(0, minus));
      // Within one segment of what splitting every segment in two would give.
      EXPECT_LE(t.largest_load(0, minus), t.split_load(0, minus) + 1);
    }
    const int64_t balanced = squared_loads(k, [&](int from, int to) { return t.half(0, from, to, false); });
    const int64_t all_lower = squared_loads(k, [](int, int) { return 0; });
    if (k >= 4)
      EXPECT_LT(balanced, all_lower) << k;
    else
      EXPECT_LE(balanced, all_lower) << k;
  }
}

TEST(DatelineTable, AssignsEachFreeSegmentOneHalfTheSameEveryTime) {
  for (TieRule tie : {TieRule::Plus, TieRule::Minus, TieRule::Balanced}) {
    const DatelineTable a({16, 17, 2}, tie), b({16, 17, 2}, tie);
    for (int dim = 0; dim < 3; ++dim) {
      const int k = dim == 0 ? 16 : dim == 1 ? 17 : 2;
      int upper = 0, free = 0;
      for (bool minus : {false, true})
        for (int from = 0; from < k; ++from)
          for (int to = 0; to < k; ++to) {
            const int h = a.half(dim, from, to, minus);
            ASSERT_TRUE(h == 0 || h == 1);
            EXPECT_EQ(h, b.half(dim, from, to, minus));
            if (from == to || cray_half(k, from, from, to, minus) != DatelineHalf::Draw) continue;
            ++free;
            upper += h;
          }
      // Balance puts some free segments on each half (a ring of 2 has one free segment a way).
      if (k > 2) {
        EXPECT_GT(upper, 0) << "dim " << dim;
        EXPECT_LT(upper, free) << "dim " << dim;
      }
    }
  }
}

// A packet whose path does not cross the wrap goes on the half its route was given, on every hop.
TEST(DatelineTable, ThePacketRoutingTakesTheTablesHalf) {
  PacketConfig c = booksim_like({8, 1, 1}, 1);
  c.dateline = Dateline::CrayBalanced;
  c.tie_rule = TieRule::Plus;
  c.order = HopOrder::Dimension;
  c.vcs = 2;  // one VC a half
  const DatelineTable table(c.dims, c.tie_rule);
  int seen[2] = {0, 0};
  for (int from = 0; from < 8; ++from)
    for (int to = from + 1; to <= from + 3 && to < 8; ++to) {  // + ways that do not cross the wrap
      PacketNetwork net(c);
      net.record_vcs(0, UINT64_MAX);
      net.add_message(from, to, 16, -1);
      for (uint64_t next = net.next_busy_cycle(); next != UINT64_MAX; next = net.next_busy_cycle()) {
        net.skip_to(next);
        net.step();
      }
      const int half = table.half(0, from, to, false);
      ++seen[half];
      int hops = 0;
      for (const VcActivity& a : net.vc_activities())
        if (!a.injection && a.port == 0) {  // an x+ output VC
          EXPECT_EQ(a.vc, half) << from << " -> " << to << " at node " << a.node;
          ++hops;
        }
      EXPECT_EQ(hops, to - from);
    }
  EXPECT_GT(seen[0], 0);
  EXPECT_GT(seen[1], 0);
}

// Without a tie to draw (tie_rule plus), a cray_balanced network draws nothing: any seed, the same cycles.
TEST(DatelineTable, ARunOfRoutesHalvesDoesNotDependOnTheSeed) {
  PacketConfig c = booksim_like({4, 4, 4}, 4);
  c.dateline = Dateline::CrayBalanced;
  c.tie_rule = TieRule::Plus;
  std::vector<uint64_t> end[2];
  for (int s = 0; s < 2; ++s) {
    PacketNetwork net(c, s == 0 ? 1 : 12345);
    for (int i = 0; i < c.nodes(); ++i) net.add_message(i, (i * 7 + 5) % c.nodes(), 64.0 * 8, -1);
    for (uint64_t next = net.next_busy_cycle(); next != UINT64_MAX; next = net.next_busy_cycle()) {
      net.skip_to(next);
      net.step();
      for (int m : net.delivered()) {
        end[s].resize(std::max(end[s].size(), static_cast<size_t>(m) + 1));
        end[s][static_cast<size_t>(m)] = net.now();
      }
    }
  }
  EXPECT_EQ(end[0], end[1]);
}

}  // namespace
}  // namespace t3sim::core
