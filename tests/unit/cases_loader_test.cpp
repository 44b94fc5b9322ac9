#include <gtest/gtest.h>

#include <algorithm>

#include "rejection_case.hpp"
#include "sim/io/validation/cases_loader.hpp"

using namespace t3sim;
using t3sim::test::RejectionCase;

namespace {
std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/cases/" + name; }
}  // namespace

TEST(CasesLoader, ReadsSuitesAndCases) {
  const auto suites = io::load_suites(data("valid.yaml"));
  ASSERT_EQ(suites.size(), 1u);
  EXPECT_EQ(suites[0].id, "test-suite");
  EXPECT_NE(suites[0].machine_path.find("tests/data/machine/valid.yaml"), std::string::npos);
  const auto cases = io::load_suite_cases(suites[0]);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "test-suite/base/get/8B");
  EXPECT_DOUBLE_EQ(cases[1].measured, 30.0);  // us
  EXPECT_DOUBLE_EQ(cases[1].tolerance, 0.5);
}

TEST(CasesLoader, RowColumnsNameTheMachineAndRowSettingsApply) {
  const auto suites = io::load_suites(std::string(T3SIM_SOURCE_DIR) + "/validation/cases.yaml");
  const auto it = std::find_if(suites.begin(), suites.end(), [](const auto& s) { return s.id == "booksim-torus"; });
  ASSERT_NE(it, suites.end());
  EXPECT_TRUE(it->fit_params.empty());
  const auto cases = io::load_suite_cases(*it);
  ASSERT_EQ(cases.size(), 70u);       // 35 rows, mean and min
  const auto& first = cases.front();  // uniform,8,dor,1
  EXPECT_EQ(first.id, "booksim-torus/pattern=uniform/k=8/routing=dor/packet_flits=1/accepted");
  EXPECT_NE(first.run.machine.find("platforms/reference/booksim-k8-dor.yaml"), std::string::npos);
  EXPECT_NE(first.run.workload.find("workloads/reference/booksim-uniform.yaml"), std::string::npos);
  EXPECT_EQ(first.run.pes, 512);
  EXPECT_TRUE(first.run.params.empty());
  const auto four =
      std::find_if(cases.begin(), cases.end(), [](const auto& c) { return c.row.at("packet_flits") == "4"; });
  ASSERT_NE(four, cases.end());
  EXPECT_EQ(four->run.pes, 0);
  EXPECT_DOUBLE_EQ(four->run.size, 64);
  ASSERT_EQ(four->run.params.size(), 1u);
  EXPECT_EQ(four->run.params[0].first, "network.packet_flits");
}

// A trace workload (.t3t) with fit_params and fit_where: the rows it picks, of the metrics fit_metrics
// names, are the fitted cases; the rest are predictions. Each row runs the trace at its row_settings' PEs.
TEST(CasesLoader, FitWhereWithFitParamsMarksOnlyTheFittedCases) {
  const auto suites = io::load_suites(data("trace_fit_where.yaml"));
  ASSERT_EQ(suites.size(), 1u);
  EXPECT_TRUE(calib::is_trace_path(suites[0].workload_path));
  const auto cases = io::load_suite_cases(suites[0]);
  ASSERT_EQ(cases.size(), 6u);  // 3 rows x reduce, allreduce
  std::vector<std::string> fitted;
  for (const auto& c : cases) {
    EXPECT_EQ(c.statistic, calib::Statistic::LabelSpan);
    EXPECT_EQ(c.record, c.metric);
    EXPECT_EQ(c.run.pes, std::stoi(c.row.at("pes")));
    if (c.fitted) fitted.push_back(c.id);
  }
  EXPECT_EQ(fitted, (std::vector<std::string>{"test-suite/pes=2/reduce", "test-suite/pes=4/reduce"}));
  EXPECT_DOUBLE_EQ(cases[1].measured, 30);  // us, as the column holds it
}

TEST(CasesLoader, RepoCasesLoad) {
  const auto suites = io::load_suites(std::string(T3SIM_SOURCE_DIR) + "/validation/cases.yaml");
  for (const auto& s : suites) EXPECT_FALSE(io::load_suite_cases(s).empty()) << s.id;
}

class CasesRejects : public testing::TestWithParam<RejectionCase> {};

TEST_P(CasesRejects, WithLocatedMessage) {
  const RejectionCase& c = GetParam();
  t3sim::test::expect_rejected(
      [&] {
        for (const auto& s : io::load_suites(data(c.rule + ".yaml"))) io::load_suite_cases(s);
      },
      c);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CasesRejects,
    testing::Values(
        RejectionCase{"metric_holds_unknown", "metrics\\[0\\].holds: must be time_s or rate_MBps \\(got 'seconds'\\)"},
        RejectionCase{"exception_names_no_case",
                      "exceptions: names no case of suite 'test-suite' \\(got 'base/get/9B'\\)"},
        RejectionCase{"csv_missing_column", "valid.csv:2:1: time_us: no such column; did you mean 'time_s'"},
        RejectionCase{"tolerance_not_covering",
                      "valid.csv:3:8: tolerances: no tolerance rule covers this case \\(got test-suite/base/get/8B\\)"},
        RejectionCase{"csv_bad_number", "bad_number.csv:4:11: time_s: must be a number > 0 \\(got 'fast'\\)"},
        RejectionCase{
            "fit_params_unknown",
            "fit_params: not a parameter calibrate can fit; did you mean 'call_overhead'\\? \\(got 'call_overhed'\\)"},
        RejectionCase{"peer_with_fit_params",
                      "suites.test-suite.fit_params: a suite of a peer's figures \\(peer: SomeSim 1.0\\) is checked, "
                      "never fitted"},
        RejectionCase{"driver_unknown",
                      "driver_unknown.yaml:8:13: suites.test-suite.driver: must be fast, reference or packet \\(got "
                      "'packets'\\)"},
        RejectionCase{"machine_column_unknown",
                      "machine: names column 'size', which the table lacks \\(got .*/machine/\\{size\\}.yaml\\)"},
        RejectionCase{"fit_params_too_many", "fit_params: must name 1 to 4 parameters \\(got 5\\)"},
        RejectionCase{"profile_and_profile_column",
                      "suites.test-suite.profile: give exactly one of 'profile' or 'profile_column'"},
        RejectionCase{
            "fit_variable_job_unknown",
            "fit_variable_job_unknown.yaml:17:28: suites.test-suite.fit_variables\\[0\\].job: must be main or "
            "background \\(got 'other'\\)"},
        RejectionCase{"fit_variable_range_reversed",
                      "fit_variable_range_reversed.yaml:17:62: suites.test-suite.fit_variables\\[0\\].range: must be "
                      "LOW..HIGH with 0 < LOW < HIGH"},
        RejectionCase{"fit_variable_background_without_background",
                      "fit_variable_background_without_background.yaml:16:5: suites.test-suite.fit_variables: fits a "
                      "background variable, and the suite has no background"},
        RejectionCase{"fit_variable_metric_unknown",
                      "fit_variable_metric_unknown.yaml:16:5: suites.test-suite.fit_variables: names no metric of this "
                      "suite"},
        RejectionCase{"fit_variable_quantity_unknown",
                      "fit_variable_quantity_unknown.yaml:17:49: suites.test-suite.fit_variables\\[0\\].quantity: must "
                      "be time, size or bandwidth"},
        RejectionCase{"paired_ordering_metric_unknown",
                      "paired_ordering_metric_unknown.yaml:17:5: suites.test-suite.paired_orderings: names no metric"},
        RejectionCase{
            "statistic_unknown",
            "metrics\\[0\\].statistic: must be peak_bandwidth_MBps, estimated_latency_us, "
            "model_max_rel_error_pct, main_job_end_s, accepted_flits_per_cycle, "
            "accepted_flits_per_cycle_min, pe_bandwidth_median_MBps, pe_bandwidth_min_MBps or label_span_us \\(got "
            "'peak_rate'\\)"},
        RejectionCase{
            "fit_metrics_unknown",
            "suites.test-suite.fit_metrics: names no metric of this suite; did you mean 'get'\\? \\(got 'gets'\\)"},
        RejectionCase{"csv_ragged_row", "ragged.csv:3:1: row has 4 cells, header has 3"},
        RejectionCase{"record_driver_unknown",
                      "record_driver_unknown.yaml:15:20: suites.test-suite.record_driver: must be fast, reference or "
                      "packet \\(got 'packets'\\)"},
        RejectionCase{"packet_fit_params_without_fit_params",
                      "packet_fit_params_without_fit_params.yaml:16:5: suites.test-suite.packet_fit_params: goes with "
                      "fit_params"},
        RejectionCase{"packet_fit_params_not_fitted",
                      "packet_fit_params_not_fitted.yaml:17:[0-9]+: suites.test-suite.packet_fit_params: not one of "
                      "fit_params calibrate can fit.*\\(got 'message_overhead'\\)"},
        RejectionCase{"fit_where_without_fit",
                      "fit_where_without_fit.yaml:14:5: suites.test-suite.fit_where: goes with fit_network or "
                      "fit_params \\(the rows the parameters are fitted to\\)"},
        RejectionCase{
            "label_span_without_record",
            "label_span_without_record.yaml:10:[0-9]+: suites.test-suite.metrics\\[0\\].record: required key is "
            "missing"},
        RejectionCase{"trace_with_variables",
                      "trace_with_variables.yaml:9:5: suites.test-suite.variables: a trace workload \\(.t3t\\) takes "
                      "no workload variables; give its PEs and size by row_settings"},
        RejectionCase{"trace_metric_with_variables",
                      "trace_metric_with_variables.yaml:10:[0-9]+: suites.test-suite.metrics\\[0\\].variables: a trace "
                      "workload \\(.t3t\\) takes no workload variables"},
        RejectionCase{"fit_network_with_fit_params",
                      "suites.test-suite.fit_network: give fit_network or fit_params / fit_variables, not both"},
        RejectionCase{"fit_network_unknown",
                      "fit_network: not a network parameter calibrate can fit; did you mean 'contention_loss'\\? "
                      "\\(got 'contention_los'\\)"},
        RejectionCase{"peer_with_fit_network",
                      "suites.test-suite.fit_network: a suite of a peer's figures \\(peer: SomeSim 1.0\\) is "
                      "checked, never fitted"},
        RejectionCase{"fit_where_column_unknown", "valid.csv:2:1: role: no such column"},
        RejectionCase{"judged_only_with_fit_metrics",
                      "judged_only_with_fit_metrics.yaml:15:5: suites.test-suite.fit_metrics: belongs to a fit, and "
                      "this suite of the packet driver's figures fits nothing \\(no fit_network or fit_params\\)"},
        RejectionCase{"judged_only_by_its_own_driver",
                      "judged_only_by_its_own_driver.yaml:14:20: suites.test-suite.record_driver: is the driver the "
                      "suite is judged by \\(driver: fast, the default\\): its figures would only meet themselves "
                      "\\(got 'fast'\\)"}),
    t3sim::test::rule_name);
