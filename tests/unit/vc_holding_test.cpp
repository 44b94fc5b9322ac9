// The flow model's VC holding time (sim/core/flow/vc_holding.hpp, network.vc_hold_cycles): a link's
// capacity from its virtual-channel classes, worked out by hand on two links and one ejection.
#include <gtest/gtest.h>

#include <vector>

#include "sim/core/flow/flow_solver.hpp"
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

// Flows at fixed rates (their caps; the resources never bind).
struct Flows {
  core::FlowSolver solver;
  Flows() {
    solver.add_resource(1e12);  // resource i: link i
    solver.add_resource(1e12);
  }
  core::EntryId add(const std::vector<core::ResourceId>& path, double rate) {
    const core::EntryId e = solver.add_flow(path, rate);
    solver.solve();
    return e;
  }
};

TEST(VcHolding, LoneStreamOnOneHalfPassesOnePacketPerZeroLoadHold) {
  Flows f;
  const core::EntryId e = f.add({0}, 100e6);
  VcHolding h(2, 1, params());
  h.set_route(e, {{0, 6, 1.0}}, 0, 0, 0);  // every packet on the upper half (a wrap hop)
  const std::vector<double>& cap = h.capacities(f.solver);
  EXPECT_NEAR(cap[0], kP / kT0, 1e-6 * kP / kT0);  // 298.1 MB/s: one VC's credit loop
  EXPECT_DOUBLE_EQ(cap[1], kLink);                 // no traffic
  EXPECT_EQ(h.changed_links(), (std::vector<int>{0}));
}

TEST(VcHolding, PacketsDrawingEitherHalfKeepTheLink) {
  Flows f;
  const core::EntryId e = f.add({0}, 100e6);
  VcHolding h(2, 1, params());
  h.set_route(e, {{0, 6, 0.5}}, 0, 0, 0);
  EXPECT_DOUBLE_EQ(h.capacities(f.solver)[0], kLink);  // two classes of 298.1 each: the link binds
}

// Flow a crosses link 0 then link 1 (arriving by port 0), flow b enters link 1 from its node (port 6);
// both eject at node 0 through port 1, so the ejection sees one stream and never makes them wait.
// Link 1's class: two ports at equal rates, Ca2 = 1/2, h = T0; link 0's holds a packet T0 plus
// the wait for link 1's class.
void merge(double rate, double expected_wait) {
  Flows f;
  const core::EntryId a = f.add({0, 1}, rate);
  const core::EntryId b = f.add({1}, rate);
  VcHolding h(2, 1, params());
  h.set_route(a, {{0, 6, 0.0}, {1, 0, 0.0}}, 1, 0, 0);
  h.set_route(b, {{1, 6, 0.0}}, 1, 0, 0);
  const std::vector<double>& cap = h.capacities(f.solver);
  EXPECT_NEAR(h.hold(1 * 4), kT0, 1e-9);
  EXPECT_NEAR(h.hold(0 * 4), kT0 + expected_wait, 1e-3 * (kT0 + expected_wait));
  EXPECT_NEAR(cap[0], kP / (kT0 + expected_wait), 1e-3 * kP / (kT0 + expected_wait));
  EXPECT_NEAR(cap[1], kP / kT0, 1e-6 * kP / kT0);
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
