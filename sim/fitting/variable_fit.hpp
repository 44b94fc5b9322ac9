// `t3sim calibrate` for the run conditions of a suite (SuiteSpec::fit_variables): each variable is
// solved, alone, for a mean relative error of 0 over the cases it covers (one value, or one per row),
// by the Illinois variant of regula falsi on log(value) between the declared bounds; every evaluation
// runs the covered cases' simulations in child processes, two at a time. Variables are fitted in the
// order declared, each with the values fitted before it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/calib/validation_spec.hpp"

namespace t3sim::fitting {

struct VariableFit {
  std::string variable;
  std::string row;            // "" or the row's value of per_row_column
  std::string value;          // as written back (a quantity with its unit)
  double mean_rel_error = 0;  // of the covered cases at that value
  int evaluations = 0;
  bool matches_file = false;  // the file's value already meets the cases (within kVariableTolerance)
};

// A fitted value is accepted when its cases' mean relative error is within this. Not finer: a
// background job's makespan is a step function of its think time (a request overtakes another, and
// the main job's calls queue differently): steps of about 0.5% were measured at the pmemd suite's fit.
constexpr double kVariableTolerance = 5e-3;

// check_only: evaluate the file's values (SuiteSpec::fitted) instead of solving.
std::vector<VariableFit> fit_suite_variables(const calib::SuiteSpec& suite, std::vector<calib::MeasuredCase> cases,
                                             bool check_only);

// The suite's `fitted:` value as one flow mapping, for writing back.
std::string fitted_text(const std::vector<VariableFit>& fits);

}  // namespace t3sim::fitting
