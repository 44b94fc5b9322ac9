#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/calib/error_stats.hpp"
#include "sim/calib/ordering_check.hpp"
#include "sim/calib/validation_run.hpp"
#include "sim/child/child_run.hpp"
#include "sim/cli/commands.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/validation/cases_loader.hpp"
#include "sim/report/validation_plot.hpp"
#include "sim/report/validation_report.hpp"

namespace t3sim::cli {
namespace {

void print_table(const std::vector<calib::CaseResult>& results, const std::vector<calib::SuiteStats>& stats,
                 const std::vector<calib::OrderingResult>& orderings) {
  std::cout << fmt::format("{:<70} {:>5} {:>11} {:>11} {:>9} {:>6}  {}\n", "case", "unit", "measured", "predicted",
                           "rel_err", "tol", "");
  for (const auto& r : results)
    std::cout << fmt::format("{:<70} {:>5} {:>11.3f} {:>11.3f} {:>9} {:>5.0f}%  {}{}\n", r.measured.id, r.measured.unit,
                             r.measured.measured, r.predicted,
                             std::isfinite(r.rel_error) ? fmt::format("{:+.1f}%", r.rel_error * 100) : "-",
                             r.measured.tolerance * 100,
                             r.measured.report_only ? "info"
                             : !r.within_tolerance  ? "FAIL"
                             : r.measured.fitted    ? "ok (fitted)"
                                                    : "ok",
                             r.measured.tolerance_why.empty() ? "" : "  (" + r.measured.tolerance_why + ")");
  std::cout << fmt::format("\n{:<20} {:>4} {:>18} {:>15} {:>9}  {}\n", "suite", "n", "median|rel_err|", "max|rel_err|",
                           "outside", "");
  for (const auto& s : stats)
    std::cout << fmt::format("{:<20} {:>4} {:>9.2f}% (<={:.0f}%) {:>14.2f}% {:>9}  {}\n", s.suite, s.n,
                             s.median_rel_error * 100, s.median_target * 100, s.max_rel_error * 100,
                             s.outside_tolerance, s.passed() ? "PASS" : "FAIL");
  for (const auto& o : orderings)
    std::cout << fmt::format("ordering {} by {}: measured {}; predicted {}: {}\n", o.suite, o.metric, o.measured_order,
                             o.predicted_order, o.ok ? "ok" : "FAIL");
}

}  // namespace

int cmd_validate(const ValidateArgs& a) {
  auto suites = io::load_suites(a.cases);
  if (!a.driver.empty())
    for (auto& s : suites) s.driver = a.driver;  // the same records against another transport
  std::vector<calib::CaseResult> results;
  std::vector<calib::SuiteStats> stats;
  std::vector<calib::OrderingResult> orderings;
  size_t found = 0;
  size_t on_request = 0;  // suites left out: run only when named
  for (const auto& suite : suites) {
    const bool named = std::find(a.suites.begin(), a.suites.end(), suite.id) != a.suites.end();
    if (!a.suites.empty() && !named) continue;
    if (suite.on_request && !named) {  // judged when asked for (its figures are another model's)
      std::cerr << "suite " << suite.id << ": on request (validate --suite " << suite.id << ")\n";
      ++on_request;
      continue;
    }
    ++found;
    const auto cases = io::load_suite_cases(suite);
    const auto runs = child::run_cases_in_children(suite, cases);
    auto suite_results = calib::compare(cases, runs);
    calib::SuiteStats st = calib::suite_stats(suite.id, suite.median_rel_error, suite_results);
    auto suite_orderings = calib::check_orderings(suite, suite_results);
    for (auto& o : calib::check_paired_orderings(suite, suite_results)) suite_orderings.push_back(std::move(o));
    for (auto& o : suite_orderings) {
      st.orderings_ok = st.orderings_ok && o.ok;
      orderings.push_back(std::move(o));
    }
    stats.push_back(st);
    results.insert(results.end(), suite_results.begin(), suite_results.end());
  }
  std::string missing;  // named suites the file does not have
  for (const auto& name : a.suites)
    if (std::none_of(suites.begin(), suites.end(), [&](const calib::SuiteSpec& s) { return s.id == name; }))
      missing += (missing.empty() ? "'" : ", '") + name + "'";
  if ((found == 0 && on_request == 0) || !missing.empty())
    throw io::InputError({a.cases, 0, 0}, "suites", "has no suite named " + missing);
  if (a.json)
    std::cout << report::validation_json(results, stats, orderings, a.cases, false);
  else
    print_table(results, stats, orderings);
  if (!a.plot_dir.empty()) {
    const std::string note = report::plot_validation(results, a.plot_dir);
    std::cerr << (note.empty() ? "plots in " + a.plot_dir : note) << "\n";
  }
  if (!a.report_dir.empty()) {
    std::filesystem::create_directories(a.report_dir);
    io::write_file_atomically(a.report_dir + "/validation.json",
                              report::validation_json(results, stats, orderings, a.cases, true));
    std::cerr << "report: " << report::write_validation_report(a.report_dir) << "\n";
  }
  for (const auto& s : stats)
    if (!s.passed()) return 1;
  return 0;
}

}  // namespace t3sim::cli
