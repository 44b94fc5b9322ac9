// minimal_adaptive on the fast transport, against closed forms (issue 15). Same machine as
// routing_closed_form_test.cpp: one flow per PE of 1 MB, all starting together, links of 100 MB/s,
// no latency or software cost, interfaces far faster than the links.
//
// - Never below oblivious: under oblivious minimal routing the slowest PE of a permutation runs at
//   c / max gamma (gamma_l: the expected load of link l, routes listed one by one; see
//   routing_closed_form_test.cpp). Adaptive routing may put any split on any flow, so its slowest PE
//   must do at least as well (to 1%): on 8x8x8, bit complement and transpose.
// - A failed link: on 8 x 2 x 1 with n0.x+ failed, flow 0 -> 1's shortest working routes all cross
//   n8.x+, which also carries flow 8 -> 9; whatever the split, the two share that link: c / 2 each,
//   2 MB over it, none over the failed link; every other flow has its own x+ link (c). Link bytes come
//   from the transport here (RunResult::network_bytes): adaptive splits are known only during the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

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

core::MachineSpec adaptive_cube(core::Coord dims) {
  core::MachineSpec m = test::closed_form_machine(dims, kLink);
  m.routing = core::RoutingKind::MinimalAdaptive;
  return m;
}

analysis::TrafficReport run_pattern(const core::MachineSpec& m, const core::PatternSpec& spec) {
  return test::run_closed_form_pattern(m, spec, kBytes);
}

double oblivious_slowest_rate(const core::MachineSpec& m, const core::PatternSpec& spec) {
  const core::Torus t = m.torus();
  std::map<core::LinkId, double> gamma;
  const auto destinations = core::pattern_destinations(spec, m.pe_count());
  for (int p = 0; p < m.pe_count(); ++p)
    for (int q : destinations[static_cast<size_t>(p)])
      for (const auto& [l, share] : testing_support::list_routes(t, p, q, {}).share) gamma[l] += share;
  double most = 0;
  for (const auto& [l, g] : gamma) most = std::max(most, g);
  return kLink / most;
}

#define SKIP_ON_REFERENCE()                                    \
  if (driver_under_test().driver == engine::Driver::Reference) \
  GTEST_SKIP() << "the reference driver refuses multipath routings (ReferenceRefusesMultipath)"

}  // namespace

class AdaptiveAgainstOblivious : public testing::TestWithParam<core::PatternKind> {};

TEST_P(AdaptiveAgainstOblivious, SlowestPeIsNoSlower) {
  SKIP_ON_REFERENCE();
  const core::MachineSpec m = adaptive_cube({8, 8, 8});
  core::PatternSpec spec;
  spec.kind = GetParam();
  const double oblivious = oblivious_slowest_rate(m, spec);
  const auto r = run_pattern(m, spec);
  ASSERT_EQ(r.sizes.size(), 1u);
  EXPECT_GE(r.sizes[0].pe_bandwidth.min, oblivious * 0.99) << "oblivious: " << oblivious / 1e6 << " MB/s";
}

INSTANTIATE_TEST_SUITE_P(Routing, AdaptiveAgainstOblivious,
                         testing::Values(core::PatternKind::BitComplement, core::PatternKind::Transpose),
                         [](const testing::TestParamInfo<core::PatternKind>& info) {
                           return info.param == core::PatternKind::BitComplement ? "bit_complement" : "transpose";
                         });

TEST(Routing, AdaptiveDetourSharesOneLink) {
  SKIP_ON_REFERENCE();
  core::MachineSpec m = adaptive_cube({8, 2, 1});
  ASSERT_EQ(core::parse_failed_link(m.torus(), "n0.x+", m.failed_links), "");
  const auto r = run_pattern(m, test::x_shift(1, {8, 2, 1}));
  ASSERT_EQ(r.sizes.size(), 1u);
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.min / (kLink / 2), 1.0, 0.01);  // PEs 0 and 8
  EXPECT_NEAR(r.sizes[0].pe_bandwidth.max / kLink, 1.0, 0.01);        // the 14 others
  bool seen = false;
  for (const auto& l : r.links) {
    if (l.name == "n8.x+") {
      // The transport counts every data flow, the pattern's 8-byte flag puts too (16 B here), which the
      // transfers list (the static routings' source) leaves out.
      EXPECT_NEAR(l.bytes, 2 * kBytes, 64);
      seen = true;
    }
    if (l.name == "n0.x+") ADD_FAILURE() << "the failed link carried " << l.bytes << " B";
  }
  EXPECT_TRUE(seen);
}
