// Contention against closed forms on k-ary 3-cubes with dimension-order routing (the what-if issue's
// correctness list). One flow per PE, all starting together; zero overheads and latencies, so each
// PE's exchange time is bytes / (its share of the bottleneck).
#include <gtest/gtest.h>

#include "driver_under_test.hpp"

#include "closed_form_machine.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/core/program/traffic_pattern.hpp"
#include "sim/engine/simulation.hpp"

using namespace t3sim;

namespace {

constexpr double kLink = 100e6;
constexpr double kBytes = 1e6;

core::MachineSpec cube(int k, int pes_per_node, core::TieRule tie) {
  core::MachineSpec m = test::closed_form_machine({k, k, k}, kLink, pes_per_node);
  m.tie_rule = tie;
  return m;
}

struct Outcome {
  core::RunResult run;
  analysis::TrafficReport report;
};

Outcome run_pattern(const core::MachineSpec& m, const core::PatternSpec& spec) {
  const int pes = m.pe_count();
  core::Workload w = test::workload("pattern", pes, {});
  core::append_pattern_measurement(w, spec, pes, kBytes, 0);
  const auto placement = core::JobPlacement::contiguous(m, pes);
  Outcome o{engine::simulate(m, m.profiles[0], w, placement, driver_under_test()), {}};
  o.report = analysis::traffic_report(m, placement, o.run, core::kExchangeLabel);
  return o;
}

using test::x_shift;

void expect_every_pe_at(const Outcome& o, double rate) {
  ASSERT_EQ(o.report.sizes.size(), 1u);
  const auto& d = o.report.sizes[0].pe_bandwidth;
  EXPECT_NEAR(d.min / rate, 1.0, 0.01) << "min " << d.min;
  EXPECT_NEAR(d.max / rate, 1.0, 0.01) << "max " << d.max;
}

double utilisation(const Outcome& o, int dim, bool plus) {
  for (const auto& d : o.report.dimensions)
    if (d.dim == dim && d.plus == plus) return d.max_utilisation;
  return -1;
}

}  // namespace

TEST(Contention, NearestNeighbourGetsTheFullLink) {
  const auto o = run_pattern(cube(8, 1, core::TieRule::Plus), x_shift(1, {8, 8, 8}));
  expect_every_pe_at(o, kLink);
}

TEST(Contention, TornadoGetsOneOverHalfRingMinusOne) {
  // Shift by k/2 - 1 = 3 on a ring of 8: every x+ link carries 3 flows.
  const auto o = run_pattern(cube(8, 1, core::TieRule::Plus), x_shift(3, {8, 8, 8}));
  expect_every_pe_at(o, kLink / 3);
}

TEST(Contention, HalfRingShiftFollowsTheTieRulePlus) {
  const auto o = run_pattern(cube(8, 1, core::TieRule::Plus), x_shift(4, {8, 8, 8}));
  expect_every_pe_at(o, kLink / 4);
  EXPECT_GT(utilisation(o, 0, true), 0.99);
  EXPECT_EQ(utilisation(o, 0, false), 0.0);
}

TEST(Contention, HalfRingShiftFollowsTheTieRuleMinus) {
  const auto o = run_pattern(cube(8, 1, core::TieRule::Minus), x_shift(4, {8, 8, 8}));
  expect_every_pe_at(o, kLink / 4);
  EXPECT_EQ(utilisation(o, 0, true), 0.0);
  EXPECT_GT(utilisation(o, 0, false), 0.99);
}

TEST(Contention, TwoPesOfANodeShareItsInterface) {
  // T3D-like: 2 PEs per node, the interface (100 MB/s) slower than the links; each PE sends to the
  // same slot of the next node in x, so both flows of a node share its injection link.
  core::MachineSpec m = cube(4, 2, core::TieRule::Plus);
  m.network.link_bandwidth = 1e15;
  m.network.nic_injection_bandwidth = kLink;
  m.network.nic_ejection_bandwidth = kLink;
  const auto o = run_pattern(m, x_shift(2, {8, 4, 4}));
  expect_every_pe_at(o, kLink / 2);
}

TEST(Contention, AllToAllRespectsTheBisectionBound) {
  core::PatternSpec s;
  s.kind = core::PatternKind::AllToAll;
  s.window = 4;
  const auto o = run_pattern(cube(4, 1, core::TieRule::Plus), s);
  const double bound = o.report.bisection_bytes / o.report.bisection_bandwidth;
  EXPECT_GT(o.report.bisection_bytes, 0);
  EXPECT_GE(o.run.makespan, bound * (1 - 1e-9));
  EXPECT_LE(o.report.bisection_utilisation, 1.0 + 1e-9);
}

TEST(Contention, BackgroundJobSharesTheLinksButNotTheReport) {
  // Ring of 8 nodes; the job on nodes 0 and 1, the background on nodes 7 and 2, each a 2-PE shift.
  // Job 0 -> 1 uses n0.x+, which the background's 7 -> 2 (x+ through the wrap) also crosses; job
  // 1 -> 0 uses n1.x-, which the background's 2 -> 7 (x- the short way) also crosses.
  core::MachineSpec m = cube(8, 1, core::TieRule::Plus);
  m.dims = {8, 1, 1};
  core::PatternSpec shift;
  shift.kind = core::PatternKind::Shift;
  core::Workload job = test::workload("job", 2, {});
  core::append_pattern_measurement(job, shift, 2, kBytes, 0);
  core::Workload bg = test::workload("bg", 2, {});
  core::append_pattern_measurement(bg, shift, 2, kBytes, 0);
  const core::Workload both = core::with_background(job, bg);
  const auto placement = core::JobPlacement::list(m, {0, 1, 7, 2});
  const auto run = engine::simulate(m, m.profiles[0], both, placement, driver_under_test());
  const auto report = analysis::traffic_report(m, placement, run, core::kExchangeLabel, 2);
  ASSERT_EQ(report.sizes.size(), 1u);
  // So each job PE gets half a link, where alone it would get all of it.
  EXPECT_NEAR(report.sizes[0].pe_bandwidth.min / (kLink / 2), 1.0, 0.01);
  EXPECT_NEAR(report.sizes[0].pe_bandwidth.max / (kLink / 2), 1.0, 0.01);
  for (const auto& l : report.links) {
    if (l.name == "n0.x+" || l.name == "n1.x-") {
      EXPECT_DOUBLE_EQ(l.bytes, 2 * kBytes) << l.name;
    }
  }
  EXPECT_EQ(report.sizes[0].pair_bandwidth.n, 2);  // the background's transfers are not the job's
}
