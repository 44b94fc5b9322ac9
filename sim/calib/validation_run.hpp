// Compares measured cases with what runs predicted.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/calib/validation_spec.hpp"
#include "sim/core/run/results.hpp"

namespace t3sim::calib {

struct CaseResult {
  calib::MeasuredCase measured;
  double predicted = 0;  // in measured.unit
  double rel_error = 0;  // (predicted - measured) / measured, signed
  bool within_tolerance = false;
};

// The duration of the record with this label and size (first that matches). Throws
// std::runtime_error when the run has no such record.
double predicted_duration(const core::RunResult& run, const std::string& label, double bytes);
// From the first start to the last end of the records labelled `label`, over every PE (a collective
// call's span: from the first PE's entry to the last one's return), s.
double label_span(const core::RunResult& run, const std::string& label);
// The case's statistic of its run, in the case's unit.
double predicted_value(const calib::MeasuredCase& c, const core::RunResult& run);

std::vector<CaseResult> compare(const std::vector<calib::MeasuredCase>& cases,
                                const std::map<calib::RunKey, core::RunResult>& runs);

// The distinct runs a list of cases needs.
std::vector<calib::RunKey> runs_needed(const std::vector<calib::MeasuredCase>& cases);

}  // namespace t3sim::calib
