// Checks that predictions order groups of cases (e.g. protocols) the way the measurements do.
#pragma once
#include <string>
#include <vector>

#include "sim/calib/validation_run.hpp"

namespace t3sim::calib {

struct OrderingResult {
  std::string suite;
  std::string metric;
  std::string measured_order;   // "a < b ~ c < d" by the mean measured value ("~": tied within `tie`)
  std::string predicted_order;  // the same groups by the mean predicted value
  bool ok = false;              // every measured strict order holds in the predictions
};

std::vector<OrderingResult> check_orderings(const calib::SuiteSpec& suite, const std::vector<CaseResult>& results);
// Per row, two metrics in the same relation (lower, higher, or within `tie`) predicted as measured.
std::vector<OrderingResult> check_paired_orderings(const calib::SuiteSpec& suite,
                                                   const std::vector<CaseResult>& results);

}  // namespace t3sim::calib
