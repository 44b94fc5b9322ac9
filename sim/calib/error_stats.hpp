// Summary statistics of a suite's relative errors (absolute values).
#pragma once
#include <string>
#include <vector>

#include "sim/calib/validation_run.hpp"

namespace t3sim::calib {

struct SuiteStats {
  std::string suite;
  int n = 0;
  double median_rel_error = 0;  // median of |rel_error|
  double max_rel_error = 0;     // max of |rel_error|
  int outside_tolerance = 0;
  double median_target = 0;
  bool orderings_ok = true;
  bool passed() const { return outside_tolerance == 0 && median_rel_error <= median_target && orderings_ok; }
};

SuiteStats suite_stats(const std::string& suite, double median_target, const std::vector<CaseResult>& cases);
double median(std::vector<double> values);

}  // namespace t3sim::calib
