// The flow model's VC holding time (sim/core/flow/vc_holding.hpp, network.vc_hold_cycles): a link's
// capacity from its virtual-channel classes, worked out by hand on two links and one ejection.
#include <gtest/gtest.h>

#include <vector>

#include "sim/core/flow/vc_holding.hpp"

using namespace t3sim;
using core::VcHolding;

namespace {

constexpr double kT0 = 16.1;  // cycles a VC holds a packet at zero load
constexpr double kP = 4.8e9;  // 64 payload bytes x 75 MHz: bytes/s of a packet a cycle
constexpr double kLink = 480e6;

VcHolding::Params params() {
  VcHolding::Params p;
  p.hold_cycles = kT0;
  p.vcs_per_class = 1;
  p.packet_flits = 10;
  p.packet_bytes_per_s = kP;
  p.link_bandwidth = kLink;
  return p;
}

TEST(VcHolding, LoneStreamOnOneHalfPassesOnePacketPerZeroLoadHold) {
  VcHolding h(2, 1, params());
  h.set_route(0, {{0, 6, 1.0}}, 0, 0, 0);  // every packet on the upper half (a wrap hop)
  h.set_load(0, 100e6);
  EXPECT_EQ(h.settle(), (std::vector<int>{0}));
  EXPECT_NEAR(h.capacity(0), kP / kT0, 1e-6 * kP / kT0);  // 298.1 MB/s: one VC's credit loop
  EXPECT_DOUBLE_EQ(h.capacity(1), kLink);                 // no traffic
  h.set_load(0, 0);                                       // the stream ends: the link is free again
  EXPECT_EQ(h.settle(), (std::vector<int>{0}));
  EXPECT_DOUBLE_EQ(h.capacity(0), kLink);
}

// Two packets of room a VC (mcurie's 20 flits): by Little's law two packets per holding time, so the
// lone stream's class no longer binds below the link.
TEST(VcHolding, RoomForTwoPacketsPassesTwoPerHold) {
  VcHolding::Params p = params();
  p.packets_per_vc = 2;
  p.link_bandwidth = 1e9;  // above 2 P / T0 = 596.3 MB/s, so the class is what binds
  VcHolding h(2, 1, p);
  h.set_route(0, {{0, 6, 1.0}}, 0, 0, 0);
  h.set_load(0, 100e6);
  h.settle();
  EXPECT_NEAR(h.capacity(0), 2 * kP / kT0, 1e-6 * kP / kT0);
}

TEST(VcHolding, PacketsDrawingEitherHalfKeepTheLink) {
  VcHolding h(2, 1, params());
  h.set_route(0, {{0, 6, 0.5}}, 0, 0, 0);
  h.set_load(0, 100e6);
  h.settle();
  EXPECT_DOUBLE_EQ(h.capacity(0), kLink);  // two classes of 298.1 each: the link binds
}

// Flow a crosses link 0 then link 1 (arriving by port 0), flow b enters link 1 from its node (port 6);
// both eject at node 0 through port 1, so the ejection sees one stream and never makes them wait.
// Link 1's class: two ports at equal rates, Ca2 = 1/2, h = T0; link 0's holds a packet T0 plus
// the wait for link 1's class.
void merge(double rate, double expected_wait) {
  VcHolding h(2, 1, params());
  h.set_route(0, {{0, 6, 0.0}, {1, 0, 0.0}}, 1, 0, 0);
  h.set_route(1, {{1, 6, 0.0}}, 1, 0, 0);
  h.set_load(0, rate);
  h.set_load(1, rate);
  h.settle();
  EXPECT_NEAR(h.hold(1 * 4), kT0, 1e-9);
  EXPECT_NEAR(h.hold(0 * 4), kT0 + expected_wait, 1e-9 * (kT0 + expected_wait));
  EXPECT_NEAR(h.capacity(0), kP / (kT0 + expected_wait), 1e-9 * kP / (kT0 + expected_wait));
  EXPECT_NEAR(h.capacity(1), kP / kT0, 1e-6 * kP / kT0);
}

TEST(VcHolding, AWaitForTheNextClassHoldsTheOneBefore) {
  // 200 MB/s into link 1's class: rho = 200e6 x 16.1 / 4.8e9; Kingman: rho / (1 - rho) x 0.5 / 2 x 16.1.
  const double rho = 200e6 * kT0 / kP;
  merge(100e6, rho / (1 - rho) * 0.25 * kT0);
}

TEST(VcHolding, ASaturatedClassMakesEachPortWaitItsTurn) {
  // 400 MB/s asked of a class that passes 298: rho >= 1, a turn behind the other port: (2 - 1/2) x 16.1.
  merge(200e6, 1.5 * kT0);
}

}  // namespace

namespace {

// The wait moves upstream as the merge's load changes: b's stream rises, link 1's class waits longer
// and link 0's holds its packets longer; b ends, and link 0 is back to its zero-load hold.
TEST(VcHolding, AChangedLoadReachesTheClassesUpstream) {
  VcHolding h(2, 1, params());
  h.set_route(0, {{0, 6, 0.0}, {1, 0, 0.0}}, 1, 0, 0);
  h.set_route(1, {{1, 6, 0.0}}, 1, 0, 0);
  h.set_load(0, 100e6);
  h.set_load(1, 100e6);
  h.settle();
  const double before = h.hold(0);
  h.set_load(1, 150e6);
  h.settle();
  const double rho = 250e6 * kT0 / kP;
  const double ca2 = 1 - (0.4 * 0.4 + 0.6 * 0.6);  // ports' shares 100 and 150 of 250
  EXPECT_GT(h.hold(0), before);
  EXPECT_NEAR(h.hold(0), kT0 + rho / (1 - rho) * ca2 / 2 * kT0, 1e-9 * h.hold(0));
  h.set_load(1, 0);
  h.settle();
  EXPECT_NEAR(h.hold(0), kT0, 1e-12);  // a lone stream never waits
}

// A half drawn for the ring is kept along it: a route of two drawn hops waits lower-to-lower and
// upper-to-upper, never across (which would tie the halves into a cycle of waits). Link 1 carries a
// second stream on its lower half only; only the lower half of link 0 waits for it.
TEST(VcHolding, ADrawnHalfIsKeptAlongItsRing) {
  VcHolding h(2, 1, params());
  VcHolding::Hop first{0, 6, 0.5}, second{1, 0, 0.5, true};
  h.set_route(0, {first, second}, 1, 0, 0);
  h.set_route(1, {{1, 6, 0.0}}, 1, 0, 0);
  h.set_load(0, 100e6);
  h.set_load(1, 100e6);
  h.settle();
  EXPECT_GT(h.hold(0 * 4 + 0), kT0);           // lower half of link 0: waits at the merge
  EXPECT_NEAR(h.hold(0 * 4 + 1), kT0, 1e-12);  // upper half: link 1's upper half has one stream
}

// An entry's route set again (its id reused) takes its old load off first.
TEST(VcHolding, AReusedEntryLeavesNoLoadBehind) {
  VcHolding h(2, 1, params());
  h.set_route(0, {{0, 6, 1.0}}, 0, 0, 0);
  h.set_load(0, 100e6);
  h.settle();
  h.set_route(0, {{1, 6, 1.0}}, 0, 0, 0);
  h.set_load(0, 100e6);
  h.settle();
  EXPECT_DOUBLE_EQ(h.capacity(0), kLink);
  EXPECT_NEAR(h.capacity(1), kP / kT0, 1e-6 * kP / kT0);
  h.forget(0);
  h.settle();
  EXPECT_DOUBLE_EQ(h.capacity(1), kLink);
}

}  // namespace
