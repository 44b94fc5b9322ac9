#include "sim/calib/error_stats.hpp"

#include <algorithm>
#include <cmath>

#include "sim/analysis/traffic_report.hpp"

namespace t3sim::calib {

double median(std::vector<double> v) { return analysis::distribution_of(std::move(v)).median; }

SuiteStats suite_stats(const std::string& suite, double median_target, const std::vector<CaseResult>& cases) {
  SuiteStats s;
  s.suite = suite;
  s.median_target = median_target;
  std::vector<double> abs_err;
  for (const auto& c : cases) {
    if (c.measured.suite != suite || c.measured.report_only) continue;
    abs_err.push_back(std::fabs(c.rel_error));
    s.max_rel_error = std::max(s.max_rel_error, std::fabs(c.rel_error));
    if (!c.within_tolerance) ++s.outside_tolerance;
  }
  s.n = static_cast<int>(abs_err.size());
  s.median_rel_error = median(abs_err);
  return s;
}

}  // namespace t3sim::calib
