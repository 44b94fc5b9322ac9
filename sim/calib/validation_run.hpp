// Compares measured cases with the records a run predicted, and summarises a suite.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/core/results.hpp"
#include "sim/core/validation_spec.hpp"

namespace t3sim::calib {

struct CaseResult {
  core::MeasuredCase measured;
  double predicted_s = 0;
  double rel_error = 0;  // (predicted - measured) / measured, signed
  bool within_tolerance = false;
};

// The duration of the record with this label and size (first iteration that matches). Throws
// std::runtime_error when the run has no such record.
double predicted_duration(const core::RunResult& run, const std::string& label, double bytes);

// `runs` maps profile name -> the run under that profile.
std::vector<CaseResult> compare(const std::vector<core::MeasuredCase>& cases,
                                const std::map<std::string, core::RunResult>& runs);

}  // namespace t3sim::calib
