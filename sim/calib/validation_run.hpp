// Compares measured cases with what runs predicted.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/core/results.hpp"
#include "sim/core/validation_spec.hpp"

namespace t3sim::calib {

struct CaseResult {
  core::MeasuredCase measured;
  double predicted = 0;  // in measured.unit
  double rel_error = 0;  // (predicted - measured) / measured, signed
  bool within_tolerance = false;
};

// The duration of the record with this label and size (first that matches). Throws
// std::runtime_error when the run has no such record.
double predicted_duration(const core::RunResult& run, const std::string& label, double bytes);
// The case's statistic of its run, in the case's unit.
double predicted_value(const core::MeasuredCase& c, const core::RunResult& run);

std::vector<CaseResult> compare(const std::vector<core::MeasuredCase>& cases,
                                const std::map<core::RunKey, core::RunResult>& runs);

// The distinct runs a list of cases needs.
std::vector<core::RunKey> runs_needed(const std::vector<core::MeasuredCase>& cases);

}  // namespace t3sim::calib
