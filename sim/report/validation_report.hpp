// The HTML report of a validation (`validate --report DIR`, `t3sim report DIR`): each suite's verdict,
// predicted against measured with the tolerance band and every case outside it named, rate against
// message size, the orderings, and the sortable table of every case. Built from DIR/validation.json,
// which `validate --report` writes (the `validate --json` document plus each case's size and profile).
#pragma once
#include <string>
#include <vector>

#include "sim/calib/error_stats.hpp"
#include "sim/calib/ordering_check.hpp"
#include "sim/calib/validation_run.hpp"

namespace t3sim::report {

// The validation document (`validate --json`; with `for_report`, each case's bytes, profile,
// report_only and tolerance_why too).
std::string validation_json(const std::vector<calib::CaseResult>& results, const std::vector<calib::SuiteStats>& stats,
                            const std::vector<calib::OrderingResult>& orderings, const std::string& cases_file,
                            bool for_report);

// Writes DIR/report.html (plots under DIR/report-files/) from DIR/validation.json; returns its path.
std::string write_validation_report(const std::string& dir);

}  // namespace t3sim::report
