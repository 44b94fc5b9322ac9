// `t3sim calibrate` for a suite of another model's figures on our machine (SuiteSpec::fit_network: the
// flow model's contention term fitted to the packet driver, issue 32). The network parameters are
// fitted to the rows `fit_where` picks (training) by minimising the sum of squared log-ratios
// log(predicted / recorded) over their cases (calib/bounded_minimiser.hpp: a global search of the
// parameters' declared fit ranges, on the values themselves, then a local polish); every evaluation runs the training
// cases' simulations in child processes with the trial values as --param overrides. The other rows are held back: their
// errors at the fitted values say how well the fit predicts what it never saw. `--record` makes the data: the suite's
// rows run under its record_driver, the figures written into its CSV.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/calib/validation_run.hpp"
#include "sim/calib/validation_spec.hpp"

namespace t3sim::fitting {

struct NetworkFit {
  std::vector<std::pair<std::string, double>> params;  // key -> fitted value, in fit_network's order
  std::vector<calib::CaseResult> training, held_back;  // every case at the fitted values
  int evaluations = 0;
};

// Fits the suite's fit_network parameters to its training cases (those marked fitted by the loader).
NetworkFit fit_suite_network(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases);
// What each row alone would want of the first fit_network parameter: fitted to that row's cases only
// (a quicker search of the same range), two rows at a time. Their spread is the model-form error: how
// far apart the patterns and sizes of job pull the one value the machine file holds.
struct RowValue {
  std::string row;        // the row's case id without the metric ("t3e-contention/pattern=tornado/pes=64")
  double value = 0;       // the value that fits it best
  bool sensitive = true;  // its error moves with the value (at the range's ends by more than 1e-4 in the
                          // objective): else it says nothing of the value and is left out of the spread
  bool trained = false;   // one of fit_where's rows
};
std::vector<RowValue> fit_each_row(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases);

// The cases' results with the network parameters at `values` (key, value).
std::vector<calib::CaseResult> evaluate_network(const calib::SuiteSpec& suite, std::vector<calib::MeasuredCase> cases,
                                                const std::vector<std::pair<std::string, double>>& values);
// Runs every row of the suite under its record_driver and writes each metric's figure into its column of
// the suite's CSV (other columns, comments and rows kept; one comment line says how they were made).
// Returns the number of figures made; `write` false (--dry-run): the file is left as it is.
int record_suite(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases, bool write = true);

}  // namespace t3sim::fitting
