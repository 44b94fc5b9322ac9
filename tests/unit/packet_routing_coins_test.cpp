// BookSim's routing rules flip coins (a tie at k/2, a balanced dateline's half); a packet's coins are
// drawn when it is made, so where it goes does not depend on the order in which routers route packets
// (what lets the routers of one cycle be stepped in any order, or on several threads).
#include <gtest/gtest.h>

#include <random>

#include "sim/core/packet/packet_routing.hpp"
#include "tests/unit/booksim_like_config.hpp"

namespace t3sim::core {
namespace {

PacketRoute made(const PacketRouting& routing, int src, int dst, std::mt19937_64& coin) {
  PacketRoute p;
  p.src = src;
  p.dst = dst;
  routing.start(src, p, coin);
  return p;
}

// A tie on a ring of 4 (node 0 to node 2) goes the way the packet's coin for that ring says, however
// often it is routed: + (port 0) on 0, - (port 1) on 1.
TEST(PacketRoutingCoins, ATiesDirectionIsThePacketsCoin) {
  PacketConfig c = booksim_like({4, 1, 1}, 1);
  c.tie_rule = TieRule::Balanced;
  const PacketRouting routing(c);
  for (uint8_t coin : {0, 1}) {
    PacketRoute p;
    p.src = 0;
    p.dst = 2;
    p.coins = coin;
    for (int again = 0; again < 3; ++again) {
      PacketRoute q = p;
      EXPECT_EQ(routing.next(0, kTerminalPort, q).out_port, coin) << "coin " << int{coin};
    }
  }
}

// Under the balanced dateline a ring's half is the packet's coin 3 + d where the rule draws it.
TEST(PacketRoutingCoins, ABalancedHalfIsThePacketsCoinForThatRing) {
  PacketConfig c = booksim_like({1, 8, 1}, 1);
  c.tie_rule = TieRule::Plus;
  c.dateline = Dateline::Balanced;
  const PacketRouting routing(c);
  bool drawn = false;
  for (int dst = 1; dst < 8; ++dst) {
    PacketRoute q[2];
    uint64_t vcs[2];
    for (int coin = 0; coin < 2; ++coin) {
      q[coin].dst = dst;
      q[coin].coins = static_cast<uint8_t>(coin << (3 + 1));  // the y ring's half
      vcs[coin] = routing.next(0, kTerminalPort, q[coin]).vcs;
    }
    if (vcs[0] == vcs[1]) continue;  // this destination's half is not drawn
    drawn = true;
    EXPECT_EQ(q[0].half, 0) << dst;
    EXPECT_EQ(q[1].half, 1) << dst;
  }
  EXPECT_TRUE(drawn) << "some destination's half on the y ring is drawn";
}

// Rules that flip no coin (no tie: tie_rule plus; a fixed dateline) draw nothing when a packet is made;
// rules that do draw once per packet, whatever its route.
TEST(PacketRoutingCoins, APacketDrawsOnlyWhereTheRulesFlip) {
  PacketConfig fixed = booksim_like({4, 4, 4}, 1);
  fixed.tie_rule = TieRule::Plus;
  PacketConfig tie = fixed;
  tie.tie_rule = TieRule::Balanced;
  const PacketRouting no_draws(fixed), draws(tie);
  std::mt19937_64 coin(7), untouched(7), once(7);
  made(no_draws, 0, 42, coin);
  made(no_draws, 5, 5, coin);
  EXPECT_EQ(coin, untouched);
  const PacketRoute p = made(draws, 0, 1, coin);  // (no tie on this route: drawn all the same)
  EXPECT_EQ(p.coins, once() & 63);
  EXPECT_EQ(coin, once);
}

}  // namespace
}  // namespace t3sim::core
