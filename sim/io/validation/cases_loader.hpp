// Reads validation/cases.yaml (the suites) and each suite's measurement CSV into measured cases.
#pragma once
#include <string>
#include <vector>

#include "sim/calib/validation_spec.hpp"

namespace t3sim::io {

std::vector<calib::SuiteSpec> load_suites(const std::string& cases_path);

// The cases of one suite: one per CSV row and metric. Errors name the CSV's line and column.
std::vector<calib::MeasuredCase> load_suite_cases(const calib::SuiteSpec& suite);

}  // namespace t3sim::io
