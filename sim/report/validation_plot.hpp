// Plots a validation run with gnuplot: per suite, predicted against measured for every case on log
// axes with the y = x line (a parity plot), and for suites of record durations the rate against the
// message size, measured points beside predicted lines, one series per profile and metric.
#pragma once
#include <string>
#include <vector>

#include "sim/calib/validation_run.hpp"

namespace t3sim::report {

// Writes DIR/<suite>-parity.svg (and DIR/<suite>-rate.svg for record suites) with their data and
// scripts. Returns "" or a note saying why no plot was made.
std::string plot_validation(const std::vector<calib::CaseResult>& results, const std::string& dir);

}  // namespace t3sim::report
