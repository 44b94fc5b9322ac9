// Routings against closed forms (issue 15's list), each to 1%. One flow per PE, all starting together;
// zero overheads and latencies and interfaces far faster than the links (as in
// contention_closed_form_test.cpp), so each PE's exchange runs at its flow's max-min rate.
//
// - A pattern whose minimal routes are unique (a shift by 1, and by 3 on a ring of 8, along x) is the
//   same under every routing: each flow has one minimal route, so every routing gives it that route.
// - Oblivious minimal routing on 8x8x8, bit complement and t3sim's transpose (the 16 x 32 matrix of
//   PEs): every flow spread evenly over its minimal routes loads link l with gamma_l = sum over flows
//   of the share of their routes crossing l (listed route by route in tests/listed_routes.hpp, not by
//   the simulator's lattice count). Progressive filling raises every rate together until the first
//   link saturates, at rate c / max gamma: the flows crossing that link freeze there, every other flow
//   is at least as fast. So the slowest PE runs at exactly c / max gamma, and in bit complement, where
//   every flow crosses a link of maximal load, every PE does.
// - A failed link, by hand: on an 8 x 2 x 1 torus, a shift by 1 along x with n0.x+ failed. Flow 0 -> 1
//   has one minimal route (n0.x+); its shortest working routes take 3 hops: n0.y+ or n0.y- (the ring of
//   2 has two links) to node 8, n8.x+ to node 9, n9.y+ or n9.y- to node 1. All four cross n8.x+, which
//   also carries flow 8 -> 9: two flows on one link, each at c / 2. Every other flow has its own x+
//   link (c), and the y links carry half of one flow each.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "driver_under_test.hpp"

#include "closed_form_machine.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/core/program/traffic_pattern.hpp"
#include "sim/core/topology/failed_links.hpp"
#include "sim/engine/simulation.hpp"
#include "tests/listed_routes.hpp"

using namespace t3sim;

namespace {

constexpr double kLink = 100e6;
constexpr double kBytes = 1e6;

core::MachineSpec cube(core::Coord dims, core::RoutingKind routing) {
  core::MachineSpec m = test::closed_form_machine(dims, kLink);
  m.routing = routing;
  return m;
}

bool multipath(const core::MachineSpec& m) { return !core::make_routing(m)->single_route(); }

analysis::TrafficReport run_pattern(const core::MachineSpec& m, const core::PatternSpec& spec) {
  return test::run_closed_form_pattern(m, spec, kBytes);
}

using test::x_shift;

core::PatternSpec of_kind(core::PatternKind kind) {
  core::PatternSpec s;
  s.kind = kind;
  return s;
}

// The reference driver carries one route per flow: a multipath routing is refused there (tested once
// below), so these cases run under the fast driver alone.
#define SKIP_IF_REFERENCE_CANNOT(m)                                            \
  if (multipath(m) && driver_under_test().driver == engine::Driver::Reference) \
  GTEST_SKIP() << "the reference driver refuses multipath routings (ReferenceRefusesMultipath)"

// The largest gamma_l of a pattern under oblivious minimal routing (one flow per PE, PE = node).
double max_expected_link_load(const core::MachineSpec& m, const core::PatternSpec& spec) {
  const core::Torus t = m.torus();
  const int pes = m.pe_count();
  std::map<core::LinkId, double> gamma;
  const auto destinations = core::pattern_destinations(spec, pes);
  for (int p = 0; p < pes; ++p)
    for (int q : destinations[static_cast<size_t>(p)]) {
      const auto listed = testing_support::list_routes(t, p, q, {});
      for (const auto& [l, share] : listed.share) gamma[l] += share;
    }
  double most = 0;
  for (const auto& [l, g] : gamma) most = std::max(most, g);
  return most;
}

}  // namespace

// One simulation per process (SimGrid 3.32): one test per routing and shift.
class UniqueRoutes : public testing::TestWithParam<std::tuple<core::RoutingKind, int>> {};

TEST_P(UniqueRoutes, AreTheSameUnderEveryRouting) {
  const auto [kind, distance] = GetParam();
  const core::MachineSpec m = cube({8, 8, 8}, kind);
  SKIP_IF_REFERENCE_CANNOT(m);
  const double rate = kLink / distance;  // a shift by d < k/2 along x loads every x+ link with d flows
  const auto r = run_pattern(m, x_shift(distance, {8, 8, 8}));
  ASSERT_EQ(r.sizes.size(), 1u);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.min / rate, 1.0, 0.01);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.max / rate, 1.0, 0.01);
}

INSTANTIATE_TEST_SUITE_P(Routing, UniqueRoutes,
                         testing::Combine(testing::ValuesIn(core::enum_values<core::RoutingKind>()),
                                          testing::Values(1, 3)),
                         [](const testing::TestParamInfo<UniqueRoutes::ParamType>& info) {
                           return std::string(core::enum_name(std::get<0>(info.param))) + "_shift_" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(Routing, ObliviousBitComplementRunsAtTheMaximumExpectedLinkLoad) {
  const core::MachineSpec m = cube({8, 8, 8}, core::RoutingKind::MinimalOblivious);
  SKIP_IF_REFERENCE_CANNOT(m);
  const auto spec = of_kind(core::PatternKind::BitComplement);
  const double rate = kLink / max_expected_link_load(m, spec);  // 4.886 flows' worth on the busiest link
  const auto r = run_pattern(m, spec);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.min / rate, 1.0, 0.01);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.max / rate, 1.0, 0.01);
}

TEST(Routing, ObliviousTransposeSlowestFlowRunsAtTheMaximumExpectedLinkLoad) {
  const core::MachineSpec m = cube({8, 8, 8}, core::RoutingKind::MinimalOblivious);
  SKIP_IF_REFERENCE_CANNOT(m);
  const auto spec = of_kind(core::PatternKind::Transpose);
  const double rate = kLink / max_expected_link_load(m, spec);  // gamma 2.593
  const auto r = run_pattern(m, spec);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.min / rate, 1.0, 0.01);
  EXPECT_GT(r.sizes[0].pe_bandwidth.max, rate * 1.2);  // flows away from the busiest links go faster
}

TEST(Routing, FailedLinkDetourSharesOneLink) {
  core::MachineSpec m = cube({8, 2, 1}, core::RoutingKind::MinimalOblivious);
  SKIP_IF_REFERENCE_CANNOT(m);
  ASSERT_EQ(core::parse_failed_link(m.torus(), "n0.x+", m.failed_links), "");
  const auto r = run_pattern(m, x_shift(1, {8, 2, 1}));
  ASSERT_EQ(r.sizes.size(), 1u);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.min / (kLink / 2), 1.0, 0.01);  // PEs 0 and 8
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.max / kLink, 1.0, 0.01);        // the 14 others
  int halves = 0;
  for (const auto& l : r.links) {
    if (l.name == "n8.x+") {
      EXPECT_NEAR(l.bytes, 2 * kBytes, 1);  // 8 -> 9 and the whole detour of 0 -> 1
    }
    if (l.name == "n0.x+") ADD_FAILURE() << "the failed link carried " << l.bytes << " B";
    if (l.name == "n0.y+" || l.name == "n0.y-" || l.name == "n9.y+" || l.name == "n9.y-") {
      EXPECT_NEAR(l.bytes, kBytes / 2, 1) << l.name;
      ++halves;
    }
  }
  EXPECT_EQ(halves, 4);
}

class FailedLinkOnTheWay : public testing::TestWithParam<core::RoutingKind> {};

TEST_P(FailedLinkOnTheWay, IsRefusedByADeterministicRouting) {
  core::MachineSpec m = cube({8, 2, 1}, GetParam());
  ASSERT_EQ(core::parse_failed_link(m.torus(), "n0.x+", m.failed_links), "");
  EXPECT_THROW(run_pattern(m, x_shift(1, {8, 2, 1})), core::UnroutablePair);
}

INSTANTIATE_TEST_SUITE_P(Routing, FailedLinkOnTheWay,
                         testing::Values(core::RoutingKind::DimensionOrder, core::RoutingKind::DirectionOrder),
                         [](const testing::TestParamInfo<core::RoutingKind>& info) {
                           return std::string(core::enum_name(info.param));
                         });

TEST(Routing, ReferenceRefusesMultipath) {
  const core::MachineSpec m = cube({4, 4, 4}, core::RoutingKind::MinimalOblivious);
  if (driver_under_test().driver != engine::Driver::Reference) GTEST_SKIP() << "a rule of the reference driver";
  EXPECT_THROW(run_pattern(m, x_shift(1, {4, 4, 4})), core::ModelError);
}
