#include <gtest/gtest.h>

#include "rejection_case.hpp"
#include "sim/core/transfer_comparison.hpp"
#include "sim/io/bench_suite.hpp"
#include "sim/io/results_writer.hpp"

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
  const auto c = core::compare_transfers(r.transfers, r.transfers);
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
  const auto c = core::compare_transfers(a, b);
  EXPECT_NEAR(c.max_duration_rel, 0.1, 1e-12);
  EXPECT_NEAR(c.max_end_rel, 0.4 / 6, 1e-12);
  EXPECT_DOUBLE_EQ(c.within_1pct, 0.5);
  b.pop_back();
  EXPECT_NE(core::compare_transfers(a, b).mismatch, "");
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
  ASSERT_EQ(s.cases.size(), 6u);
  EXPECT_EQ(s.cases[0].pes, 512);
  EXPECT_EQ(s.cases[4].name, "ti-a2a-128");
  EXPECT_TRUE(s.cases[4].workload.empty());
  EXPECT_NE(s.cases[4].trace.find("ti-alltoall-128.txt"), std::string::npos);
  EXPECT_DOUBLE_EQ(s.cases[0].bytes, 65536);
  EXPECT_EQ(s.cases[2].variables.at("messages"), "16");
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
        RejectionCase{"case_name_twice", "case_name_twice.yaml:6:5: cases\\[1\\].name: another case has this name"},
        RejectionCase{"machine_missing", "machine_missing.yaml:5:[0-9]+: cases\\[0\\].machine: no such file"},
        RejectionCase{"no_cases", "no_cases.yaml:4:8: cases: must list at least one case"},
        RejectionCase{"size_without_unit", "size_without_unit.yaml:5:[0-9]+: cases\\[0\\].size: unit missing"},
        RejectionCase{"unknown_key", "unknown_key.yaml:5:[0-9]+: cases\\[0\\].repeat: unknown key"},
        RejectionCase{"workload_and_trace",
                      "workload_and_trace.yaml:5:5: cases\\[0\\].workload: give exactly one of 'workload' or 'trace'"}),
    t3sim::test::rule_name);
