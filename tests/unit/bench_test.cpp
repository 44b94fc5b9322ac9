#include <gtest/gtest.h>

#include <cmath>

#include "rejection_case.hpp"
#include "sim/analysis/bench_verdict.hpp"
#include "sim/analysis/peer_output.hpp"
#include "sim/analysis/transfer_comparison.hpp"
#include "sim/io/output/results_writer.hpp"
#include "sim/io/study/bench_suite.hpp"

using namespace t3sim;
using t3sim::test::RejectionCase;

namespace {
std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/bench/" + name; }

core::RunResult two_transfers() {
  core::RunResult r;
  r.transfers = {{0, 1, 1024, 1e-6, 5e-6, 0}, {1, 0, 1024, 2e-6, 6e-6, 0}};
  return r;
}
}  // namespace

TEST(TransferComparison, IdenticalRunsDifferByNothing) {
  const auto r = two_transfers();
  const auto c = analysis::compare_transfers(r.transfers, r.transfers);
  EXPECT_EQ(c.mismatch, "");
  EXPECT_EQ(c.messages, 2u);
  EXPECT_EQ(c.max_end_rel, 0);
  EXPECT_EQ(c.within_1pct, 1.0);
}

TEST(TransferComparison, MeasuresEndAndDurationShifts) {
  auto a = two_transfers().transfers;
  auto b = a;
  std::swap(b[0], b[1]);  // order does not matter: matched by source, destination, measurement
  b[0].end += 0.4e-6;     // 1 -> 0: duration 4 us -> 4.4 us (+10%), end 6 us -> 6.4 us
  const auto c = analysis::compare_transfers(a, b);
  EXPECT_NEAR(c.max_duration_rel, 0.1, 1e-12);
  EXPECT_NEAR(c.max_end_rel, 0.4 / 6, 1e-12);
  EXPECT_DOUBLE_EQ(c.within_1pct, 0.5);
  b.pop_back();
  EXPECT_NE(analysis::compare_transfers(a, b).mismatch, "");
}

TEST(TransfersCsv, RoundTripsAndNamesABadLine) {
  const auto r = two_transfers();
  const auto back = io::parse_transfers_csv(io::transfers_csv(r), "t.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].src, 1);
  EXPECT_DOUBLE_EQ(back[1].end, 6e-6);
  EXPECT_THROW(io::parse_transfers_csv("src,dst\n1,2,x\n", "t.csv"), std::runtime_error);
}

TEST(BenchSuite, LoadsTheRepositorySuite) {
  const auto s = io::load_bench_suite(std::string(T3SIM_SOURCE_DIR) + "/bench/suite.yaml");
  ASSERT_EQ(s.cases.size(), 21u);
  EXPECT_EQ(s.cases[0].pes, 512);
  EXPECT_EQ(s.cases[4].name, "ti-a2a-128");
  EXPECT_TRUE(s.cases[4].workload.empty());
  EXPECT_NE(s.cases[4].trace.find("ti-alltoall-128.txt"), std::string::npos);
  EXPECT_DOUBLE_EQ(s.cases[0].bytes, 65536);
  EXPECT_EQ(s.cases[2].variables.at("messages"), "16");
  std::vector<std::string> chaotic, long_running;
  for (const auto& c : s.cases) {
    if (c.chaotic) chaotic.push_back(c.name);
    if (c.long_running) long_running.push_back(c.name);
  }
  EXPECT_EQ(chaotic, (std::vector<std::string>{"a2a-512-w1", "a2a-512-w4", "ti-a2a-128", "a2a-532-w1", "ti-a2a-532",
                                               "a2a-128-dor"}));
  EXPECT_EQ(long_running, (std::vector<std::string>{"a2a-532-w1", "ti-a2a-532", "a2a-532-adaptive",
                                                    "a2a-532-adaptive-0", "a2a-128-packet", "a2a-532-packet",
                                                    "a2a-128-packet-held", "a2a-532-packet-held"}));
  EXPECT_EQ(s.cases[6].pes, 532);
  EXPECT_NE(s.cases[6].machine.find("t3e-900-mcurie.yaml"), std::string::npos);
  EXPECT_EQ(s.cases[6].variables.at("window"), "1");
  EXPECT_NE(s.cases[7].trace.find("ti-alltoall-532.txt"), std::string::npos);
  EXPECT_EQ(s.cases[8].name, "perm-512-obl");
  EXPECT_EQ(s.cases[8].routing, "minimal_oblivious");
  EXPECT_TRUE(s.cases[10].routing.empty());
  EXPECT_EQ(s.cases[11].routing, "minimal_adaptive");
  // the packet cases: BookSim's rate on the same configuration, 30x as the target
  EXPECT_EQ(s.cases[14].name, "bs-k8-uniform");
  EXPECT_EQ(s.cases[14].driver, "packet");
  EXPECT_DOUBLE_EQ(s.cases[14].peer_flits_per_s, 23889);
  EXPECT_DOUBLE_EQ(s.cases[14].speed_target, 30);
  EXPECT_NE(s.cases[14].peer_config.find("bench/booksim/k8-uniform.cfg"), std::string::npos);
  EXPECT_NE(s.cases[16].peer_config.find("bench/booksim/k8-tornado.cfg"), std::string::npos);
  EXPECT_EQ(s.cases[0].driver, "fast");
  EXPECT_TRUE(s.cases[0].peer.empty());
}

TEST(BenchSuite, ChaoticAndLongDefaultToFalse) {
  const auto s = io::load_bench_suite(data("tiny.yaml"));
  ASSERT_EQ(s.cases.size(), 5u);
  EXPECT_FALSE(s.cases[0].chaotic);
  EXPECT_FALSE(s.cases[0].long_running);
  EXPECT_TRUE(s.cases[3].chaotic);
}

TEST(PeerOutput, ReadsBookSimsCyclesAndItsOverallAcceptedRate) {
  // (The lines of a BookSim2 28f4329 run, trimmed: a sample period's figures come before the overall ones.)
  const std::string out =
      "Class 0:\nAccepted flit rate average = 0.41 (1 samples)\nDraining remaining packets ...\n"
      "Time taken is 6221 cycles\n====== Overall Traffic Statistics ======\n====== Traffic class 0 ======\n"
      "Injected flit rate average = 0.420096 (1 samples)\nAccepted flit rate average = 0.420008 (1 samples)\n"
      "\tminimum = 0.385333 (1 samples)\nAccepted flit rate average = 0.3 (a second class: not read)\n";
  const auto f = analysis::booksim_figures(out);
  ASSERT_TRUE(f.has_value());
  EXPECT_DOUBLE_EQ(f->cycles, 6221);
  EXPECT_DOUBLE_EQ(f->accepted_flits_per_cycle, 0.420008);
  EXPECT_NEAR(f->flits(512), 0.420008 * 512 * 6221, 1e-6);  // the suite's convention: 1,337,771 flits
}

TEST(PeerOutput, NoFiguresWithoutBothLines) {
  EXPECT_FALSE(analysis::booksim_figures("").has_value());
  EXPECT_FALSE(analysis::booksim_figures("Time taken is 100 cycles\n").has_value());
  // an accepted rate only before the overall heading (a run cut short) is not the run's
  EXPECT_FALSE(analysis::booksim_figures("Accepted flit rate average = 0.4\nTime taken is 100 cycles\n").has_value());
  EXPECT_FALSE(analysis::booksim_figures("Time taken is x cycles\n====== Overall Traffic Statistics ======\n"
                                         "Accepted flit rate average = 0.4\n")
                   .has_value());
  EXPECT_FALSE(analysis::booksim_figures("Time taken is 0 cycles\n====== Overall Traffic Statistics ======\n"
                                         "Accepted flit rate average = 0.4\n")
                   .has_value());
}

TEST(BenchVerdict, ExactCaseWithin1e9OfTheReference) {
  EXPECT_EQ(analysis::exact_verdict(1.0, 1.0).text, "within 1e-9");
  EXPECT_TRUE(analysis::exact_verdict(1.0, 1.0).ok);
  EXPECT_TRUE(analysis::exact_verdict(1 + 0.9e-9, 1.0).ok);
  EXPECT_TRUE(analysis::exact_verdict(1 - 0.9e-9, 1.0).ok);
  const auto v = analysis::exact_verdict(1 + 3.21e-5, 1.0);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.text, "DIFFERS 3.21e-05");
  EXPECT_FALSE(analysis::exact_verdict(1 + 2e-9, 1.0).ok);
  EXPECT_TRUE(analysis::exact_verdict(0, 0).ok);
  EXPECT_EQ(analysis::exact_verdict(1e-3, 0).text, "DIFFERS inf");
}

TEST(BenchVerdict, RangeWidenedByHalfAPercentEachSide) {
  const auto r = analysis::widened(analysis::range_of({2.0, 1.0, 1.5}));
  EXPECT_DOUBLE_EQ(r.min, 0.995);
  EXPECT_DOUBLE_EQ(r.max, 2.01);
  EXPECT_EQ(analysis::range_of({3.0}).min, 3.0);
  EXPECT_EQ(analysis::range_of({3.0}).max, 3.0);
}

TEST(BenchVerdict, EnsembleOfOneValue) {
  const std::vector<double> one = {100.0};
  EXPECT_EQ(analysis::ensemble_verdict(100.0, one, 50.0, {50.0}).text, "inside");
  EXPECT_TRUE(analysis::ensemble_verdict(100.4, one, 50.2, {50.0}).ok);
  EXPECT_TRUE(analysis::ensemble_verdict(99.6, one, 49.8, {50.0}).ok);
  EXPECT_EQ(analysis::ensemble_verdict(100.6, one, 50.0, {50.0}).text, "OUTSIDE");
  EXPECT_EQ(analysis::ensemble_verdict(100.0, one, 50.3, {50.0}).text, "OUTSIDE");  // the bandwidth alone
}

TEST(BenchVerdict, ValueExactlyOnTheWidenedEdgeIsInside) {
  const std::vector<double> makespans = {1.0e-2, 1.02e-2, 0.99e-2};
  const std::vector<std::optional<double>> bandwidths = {9.0e7, 9.1e7, 8.9e7};
  const auto m = analysis::widened(analysis::range_of(makespans));
  const analysis::ValueRange b = analysis::widened({8.9e7, 9.1e7});
  for (double edge : {m.min, m.max})
    EXPECT_TRUE(analysis::ensemble_verdict(edge, makespans, 9.0e7, bandwidths).ok) << edge;
  for (double edge : {b.min, b.max})
    EXPECT_TRUE(analysis::ensemble_verdict(1.0e-2, makespans, edge, bandwidths).ok) << edge;
  EXPECT_FALSE(analysis::ensemble_verdict(std::nextafter(m.max, 1.0), makespans, 9.0e7, bandwidths).ok);
  EXPECT_FALSE(analysis::ensemble_verdict(std::nextafter(m.min, 0.0), makespans, 9.0e7, bandwidths).ok);
  EXPECT_FALSE(analysis::ensemble_verdict(1.0e-2, makespans, std::nextafter(b.max, 1e9), bandwidths).ok);
  EXPECT_FALSE(analysis::ensemble_verdict(1.0e-2, makespans, std::nextafter(b.min, 0.0), bandwidths).ok);
}

TEST(BenchVerdict, WithoutABandwidthOnlyTheMakespanIsJudged) {
  const std::vector<double> makespans = {1.0, 1.01};
  const auto v = analysis::ensemble_verdict(1.0, makespans, std::nullopt, {std::nullopt, std::nullopt});
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.text, "inside (makespan only)");
  // one member without a bandwidth: the bandwidth is not judged, however far off the fast one is
  EXPECT_EQ(analysis::ensemble_verdict(1.0, makespans, 5.0, {1.0, std::nullopt}).text, "inside (makespan only)");
  EXPECT_EQ(analysis::ensemble_verdict(2.0, makespans, std::nullopt, {1.0, 1.0}).text, "OUTSIDE (makespan only)");
}

TEST(BenchVerdict, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(analysis::median_of({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(analysis::median_of({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(analysis::median_of({7.0}), 7.0);
}

// The false alarm of the ensemble verdict, counted by hand: 5 fast and 5 reference draws, the fast median
// (3rd of 5) above all reference draws when the 3 largest of the 10 are fast: C(7,5) = 21 of C(10,5) = 252
// orderings, twice for both sides: 1/6. One draw against 5 (the one-run verdict): 2/6 = 1/3, as the header
// says. The median of 9 against 9: 2 C(13,9) / C(18,9) = 1430 / 48620.
TEST(BenchVerdict, FalseAlarmProbabilityByCounting) {
  EXPECT_DOUBLE_EQ(analysis::false_alarm_probability(5, 5), 1.0 / 6);
  EXPECT_DOUBLE_EQ(analysis::false_alarm_probability(1, 5), 1.0 / 3);
  EXPECT_DOUBLE_EQ(analysis::false_alarm_probability(9, 9), 1430.0 / 48620);
  EXPECT_DOUBLE_EQ(analysis::false_alarm_probability(1, 1), 1.0);
  // even counts: both middle draws outside (a lower bound): 4 fast, 3 reference: top 3 all fast,
  // C(4,3) = 4 of C(7,3) = 35, twice
  EXPECT_DOUBLE_EQ(analysis::false_alarm_probability(4, 3), 8.0 / 35);
}

// The same probability by brute force: every assignment of ranks 0..9 to 5 fast and 5 reference draws.
TEST(BenchVerdict, FalseAlarmProbabilityByEnumeration) {
  int outside_count = 0, total = 0;
  for (unsigned mask = 0; mask < (1u << 10); ++mask) {
    if (__builtin_popcount(mask) != 5) continue;
    std::vector<double> fast, reference;
    for (int rank = 0; rank < 10; ++rank) (mask >> rank & 1u ? fast : reference).push_back(rank);
    ++total;
    const auto r = analysis::range_of(reference);
    const double m = analysis::median_of(fast);
    if (m < r.min || m > r.max) ++outside_count;
  }
  EXPECT_DOUBLE_EQ(static_cast<double>(outside_count) / total, analysis::false_alarm_probability(5, 5));
}

TEST(BenchVerdict, EnsembleAgainstEnsembleJudgesTheFastMedian) {
  const std::vector<double> reference = {0.341, 0.350, 0.360, 0.370, 0.377};
  const std::vector<std::optional<double>> ref_bw = {100.0, 101.0, 102.0, 103.0, 104.0};
  // one fast member far out, the median inside: inside (the one-run verdict on that member would fail)
  const std::vector<double> fast = {0.390, 0.351, 0.368, 0.360, 0.355};
  const std::vector<std::optional<double>> fast_bw = {99.0, 101.0, 102.0, 102.5, 103.0};
  EXPECT_EQ(analysis::ensemble_against_ensemble(fast, reference, fast_bw, ref_bw).text, "inside");
  EXPECT_EQ(analysis::ensemble_verdict(fast[0], reference, fast_bw[0], ref_bw).text, "OUTSIDE");
  // a median shifted 3% above the range: outside
  const std::vector<double> shifted = {0.385, 0.388, 0.390, 0.392, 0.394};
  EXPECT_EQ(analysis::ensemble_against_ensemble(shifted, reference, fast_bw, ref_bw).text, "OUTSIDE");
  // the bandwidth median alone outside
  const std::vector<std::optional<double>> low_bw = {90.0, 91.0, 92.0, 120.0, 121.0};
  EXPECT_EQ(analysis::ensemble_against_ensemble(fast, reference, low_bw, ref_bw).text, "OUTSIDE");
  // a member without a bandwidth: makespan only
  EXPECT_EQ(analysis::ensemble_against_ensemble(fast, reference, {1.0, std::nullopt}, ref_bw).text,
            "inside (makespan only)");
}

TEST(BenchVerdict, LeaveOneOutCountsTheEnsemblesOwnExtremes) {
  // five spread members: the lowest and the highest are each outside the range of the other four
  EXPECT_EQ(analysis::leave_one_out_outside({0.341, 0.350, 0.360, 0.370, 0.377}, {}), 2);
  // within the 0.5% widening of each other: none
  EXPECT_EQ(analysis::leave_one_out_outside({1.000, 1.001, 1.002}, {}), 0);
  // the bandwidth counts too: the makespans agree, one bandwidth is far off
  EXPECT_EQ(analysis::leave_one_out_outside({1.0, 1.0, 1.0}, {50.0, 50.0, 80.0}), 1);
  EXPECT_EQ(analysis::leave_one_out_outside({1.0}, {}), 0);
}

class BenchSuiteRejects : public testing::TestWithParam<RejectionCase> {};

TEST_P(BenchSuiteRejects, WithFileLineAndKey) {
  const RejectionCase& c = GetParam();
  t3sim::test::expect_rejected([&] { io::load_bench_suite(data(c.rule + ".yaml")); }, c);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BenchSuiteRejects,
    testing::Values(
        RejectionCase{"case_name_invalid", "case_name_invalid.yaml:5:6: cases\\[0\\].name: names are lower-case"},
        RejectionCase{"routing_unknown",
                      "routing_unknown.yaml:5:[0-9]+: cases\\[0\\].routing: names no routing \\(got 'adaptive'\\)"},
        RejectionCase{"chaotic_not_bool",
                      "chaotic_not_bool.yaml:5:[0-9]+: cases\\[0\\].chaotic: must be true or false"},
        RejectionCase{"driver_unknown",
                      "driver_unknown.yaml:5:[0-9]+: cases\\[0\\].driver: is fast or packet .*\\(got 'reference'\\)"},
        RejectionCase{"peer_without_packet",
                      "peer_without_packet.yaml:5:[0-9]+: cases\\[0\\].peer: a peer's flits per second compare only "
                      "with a packet case"},
        RejectionCase{"peer_rate_zero", "peer_rate_zero.yaml:12:[0-9]+: cases\\[0\\].peer.flits_per_s: must be"},
        RejectionCase{"peer_config_missing",
                      "peer_config_missing.yaml:12:[0-9]+: cases\\[0\\].peer.config: no such file"},
        RejectionCase{"case_name_twice", "case_name_twice.yaml:6:5: cases\\[1\\].name: another case has this name"},
        RejectionCase{"long_not_bool", "long_not_bool.yaml:5:[0-9]+: cases\\[0\\].long: must be true or false"},
        RejectionCase{"machine_missing", "machine_missing.yaml:5:[0-9]+: cases\\[0\\].machine: no such file"},
        RejectionCase{"no_cases", "no_cases.yaml:4:8: cases: must list at least one case"},
        RejectionCase{"size_without_unit", "size_without_unit.yaml:5:[0-9]+: cases\\[0\\].size: unit missing"},
        RejectionCase{"unknown_key", "unknown_key.yaml:5:[0-9]+: cases\\[0\\].repeat: unknown key"},
        RejectionCase{"workload_and_trace",
                      "workload_and_trace.yaml:5:5: cases\\[0\\].workload: give exactly one of 'workload' or 'trace'"}),
    t3sim::test::rule_name);
