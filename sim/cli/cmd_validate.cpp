#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/calib/error_stats.hpp"
#include "sim/calib/validation_run.hpp"
#include "sim/cli/child_run.hpp"
#include "sim/cli/commands.hpp"
#include "sim/io/cases_loader.hpp"
#include "sim/io/input_error.hpp"

namespace t3sim::cli {
namespace {

void print_table(const std::vector<calib::CaseResult>& results, const std::vector<calib::SuiteStats>& stats) {
  std::cout << fmt::format("{:<42} {:>12} {:>12} {:>9} {:>6}  {}\n", "case", "measured_us", "predicted_us", "rel_err",
                           "tol", "");
  for (const auto& r : results)
    std::cout << fmt::format("{:<42} {:>12.3f} {:>12.3f} {:>+8.1f}% {:>5.0f}%  {}{}\n", r.measured.id,
                             r.measured.measured_s * 1e6, r.predicted_s * 1e6, r.rel_error * 100,
                             r.measured.tolerance * 100, r.within_tolerance ? "ok" : "FAIL",
                             r.measured.tolerance_why.empty() ? "" : "  (" + r.measured.tolerance_why + ")");
  std::cout << fmt::format("\n{:<20} {:>4} {:>18} {:>15} {:>9}  {}\n", "suite", "n", "median|rel_err|", "max|rel_err|",
                           "outside", "");
  for (const auto& s : stats)
    std::cout << fmt::format("{:<20} {:>4} {:>9.2f}% (<={:.0f}%) {:>14.2f}% {:>9}  {}\n", s.suite, s.n,
                             s.median_rel_error * 100, s.median_target * 100, s.max_rel_error * 100,
                             s.outside_tolerance, s.passed() ? "PASS" : "FAIL");
}

void print_json(const std::vector<calib::CaseResult>& results, const std::vector<calib::SuiteStats>& stats) {
  nlohmann::ordered_json j;
  j["cases"] = nlohmann::ordered_json::array();
  for (const auto& r : results)
    j["cases"].push_back({{"id", r.measured.id},
                          {"suite", r.measured.suite},
                          {"metric", r.measured.metric},
                          {"measured", r.measured.measured_s * 1e6},
                          {"predicted", r.predicted_s * 1e6},
                          {"rel_error", r.rel_error},
                          {"tolerance", r.measured.tolerance},
                          {"within_tolerance", r.within_tolerance}});
  j["suites"] = nlohmann::ordered_json::array();
  for (const auto& s : stats)
    j["suites"].push_back({{"suite", s.suite},
                           {"n", s.n},
                           {"median_rel_error", s.median_rel_error},
                           {"max_rel_error", s.max_rel_error},
                           {"median_target", s.median_target},
                           {"outside_tolerance", s.outside_tolerance},
                           {"passed", s.passed()}});
  std::cout << j.dump(1) << "\n";
}

}  // namespace

int cmd_validate(const ValidateArgs& a) {
  const auto suites = io::load_suites(a.cases);
  std::vector<calib::CaseResult> results;
  std::vector<calib::SuiteStats> stats;
  bool found = false;
  for (const auto& suite : suites) {
    if (!a.suite.empty() && suite.id != a.suite) continue;
    found = true;
    const auto cases = io::load_suite_cases(suite);
    std::set<std::string> profiles;
    for (const auto& c : cases) profiles.insert(c.profile);
    std::map<std::string, core::RunResult> runs;
    for (const auto& p : profiles) runs[p] = run_in_child(suite.machine_path, suite.workload_path, p);
    auto suite_results = calib::compare(cases, runs);
    stats.push_back(calib::suite_stats(suite.id, suite.median_rel_error, suite_results));
    results.insert(results.end(), suite_results.begin(), suite_results.end());
  }
  if (!found) throw io::InputError({a.cases, 0, 0}, "suites", "no suite named '" + a.suite + "'");
  if (a.json)
    print_json(results, stats);
  else
    print_table(results, stats);
  for (const auto& s : stats)
    if (!s.passed()) return 1;
  return 0;
}

}  // namespace t3sim::cli
