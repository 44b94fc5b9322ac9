// Validation suites: recorded measurements tied to a machine, a profile, a workload and a tolerance.
// Read by io/cases_loader from validation/cases.yaml; compared and fitted by sim/calib.
#pragma once
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/support/enum_names.hpp"

namespace t3sim::calib {

// A model with more free parameters than this per profile is a lookup table, not a model.
constexpr size_t kMaxFitParams = 4;

// What a measured number is compared with, in the run a case selects.
enum class Statistic {
  RecordDuration,       // duration of the record with the metric's label and the row's size, us
  PeakBandwidth,        // swap runs: peak unidirectional bandwidth, MB/s (1e6 B/s)
  EstimatedLatency,     // swap runs: the PSTSWM page's estimated latency, us
  ModelMaxRelErrorPct,  // swap runs: max relative error of latency + size/bandwidth, percent
  MainJobEnd,           // when the main job's last PE finished (a background job's tail left out), s
  AcceptedFlits,        // packet driver: accepted flits per node per cycle, mean over nodes (BookSim's)
  AcceptedFlitsMin,     // packet driver: the slowest node's accepted flits per cycle
  PeBandwidthMedian,    // the median PE's bandwidth over the pattern's exchange (analysis/pe_bandwidth.hpp), MB/s
  PeBandwidthMin,       // the slowest PE's, MB/s
  LabelSpan,            // from the first start to the last end of the records labelled `record:` (one call
                        // of a collective, every PE's part of it), us
};
// As a metric's `statistic:` names them; RecordDuration has no name: it is a metric without one (with
// `record:` and `holds:` instead).
constexpr core::NameTable<Statistic, 9> kStatisticNames = {
    {Statistic::PeakBandwidth, "peak_bandwidth_MBps"},
    {Statistic::EstimatedLatency, "estimated_latency_us"},
    {Statistic::ModelMaxRelErrorPct, "model_max_rel_error_pct"},
    {Statistic::MainJobEnd, "main_job_end_s"},
    {Statistic::AcceptedFlits, "accepted_flits_per_cycle"},
    {Statistic::AcceptedFlitsMin, "accepted_flits_per_cycle_min"},
    {Statistic::PeBandwidthMedian, "pe_bandwidth_median_MBps"},
    {Statistic::PeBandwidthMin, "pe_bandwidth_min_MBps"},
    {Statistic::LabelSpan, "label_span_us"}};
constexpr const auto& name_table(Statistic) { return kStatisticNames; }
const char* statistic_unit(Statistic s);

// A tolerance rule; the first rule that matches a case wins. Empty metric matches every metric.
// Rows of a measurement table: the CSV columns and the values they must hold (empty: every row).
using RowFilter = std::map<std::string, std::string>;
bool row_matches(const RowFilter& filter, const std::map<std::string, std::string>& row);

struct ToleranceRule {
  RowFilter where;  // rows it covers
  double min_bytes = 0;
  double max_bytes = std::numeric_limits<double>::infinity();
  std::string metric;
  double rel_error = 0;  // |predicted - measured| / measured must be <= this
  std::string why;       // the reason a rule is looser than the suite's target, reported with the case
};

// How one measured column becomes a case.
struct MetricSpec {
  std::string id;      // "local", "bandwidth"
  std::string column;  // CSV column holding the measurement
  Statistic statistic = Statistic::RecordDuration;
  std::string record;        // RecordDuration, LabelSpan: label of the workload step whose duration is predicted
  bool report_only = false;  // shown beside the others, but no target: not in the statistics or the verdict
  enum class Holds { TimeSeconds, RateMBps };
  Holds holds = Holds::TimeSeconds;              // RecordDuration: what the column holds (`holds:`, kHoldsNames)
  std::map<std::string, std::string> variables;  // workload variables this metric's runs set (e.g. a build)
};

// As a metric's `holds:` names them.
constexpr core::NameTable<MetricSpec::Holds, 2> kHoldsNames = {{MetricSpec::Holds::TimeSeconds, "time_s"},
                                                               {MetricSpec::Holds::RateMBps, "rate_MBps"}};
constexpr const auto& name_table(MetricSpec::Holds) { return kHoldsNames; }

// A workload variable `t3sim calibrate` fits (instead of machine parameters) so that the mean
// relative error of the cases it covers is 0: one value for all of them, or one per row (per_row_column
// names the column whose value keys the row) for run conditions that differ by row.
struct FitVariable {
  std::string variable;
  bool background = false;  // a variable of the suite's background workload, else of the main one
  std::string per_row_column;
  RowFilter where;
  std::vector<std::string> metrics;
  double low = 0, high = 0;   // the search's bounds, SI units (the variable's quantity)
  std::string quantity_text;  // "time", "size", ...: how its value is written

  // One value of the main job for every row (the model's, e.g. the compute per step), not a row's
  // run condition: it holds on every row of its suite, and a study may take it (sweep `fitted:`).
  bool of_the_model() const { return per_row_column.empty() && !background; }
};

// Per row, the order of two metrics (e.g. two builds): measured and predicted must agree on which is
// lower, or that they are within `tie` of each other.
struct PairedOrdering {
  RowFilter where;
  std::string first, second;
  double tie = 0.02;
};

// A case whose measurement the model is not expected to meet, with the reason; reported as such.
struct ToleranceException {
  std::string case_suffix;  // "suppress/local/8000B": the case id after "SUITE/"
  double rel_error = 0;
  std::string why;
};

// The recorded order of groups of rows (e.g. protocols) by a metric, checked on the predictions.
struct OrderingSpec {
  std::string group_column;
  std::vector<std::string> metrics;
  double tie = 0.01;  // groups whose measured means differ by less than this (relative) are tied
};

// Run settings for the rows a filter picks (a suite's `row_settings`): machine parameters, workload
// variables, the job's PEs and one message size.
struct RowSetting {
  RowFilter where;
  std::vector<std::pair<std::string, std::string>> params;  // path, value (as --param)
  std::map<std::string, std::string> variables;
  int pes = 0;      // 0: the workload's
  double size = 0;  // bytes; 0: the workload's sizes
};

// A suite's workload path naming a t3sim trace (SHMEM and MPI calls: workloads/README.md) instead of a
// workload YAML: its runs replay it (`run --trace`); it takes no variables.
inline bool is_trace_path(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".t3t") == 0;
}

struct SuiteSpec {
  std::string id;
  std::string doc;
  std::string data_path;     // CSV, resolved against the cases file's folder
  std::string machine_path;  // machine YAML, likewise; {COLUMN} is replaced by the row's value
  std::string driver;        // the runs' --driver ("": the default, fast)
  std::string peer;          // the data are a peer simulator's figures (this names it): checked, never fitted
  std::vector<RowSetting> row_settings;
  std::string workload_path;   // workload YAML, likewise ({COLUMN} too); a t3sim trace if it ends in .t3t
  std::string profile;         // one profile for every row, or
  std::string profile_column;  // the column naming each row's profile
  std::string bytes_column;    // optional: the column giving each row's message size
  std::vector<std::pair<std::string, std::string>> row_variables;  // workload variable <- CSV column
  std::vector<MetricSpec> metrics;
  std::vector<ToleranceRule> tolerances;
  std::vector<ToleranceException> exceptions;
  std::vector<OrderingSpec> orderings;
  double median_rel_error = 0;          // target for the suite's median |relative error|
  double fit_min_bytes = 0;             // calibrate fits only cases with at least this many bytes
  std::vector<std::string> fit_params;  // profile parameters calibrate fits (at most kMaxFitParams)
  // Of fit_params, those `calibrate --driver packet` fits again with every run under the packet driver
  // (written to the profile's packet_driver); the others keep their flow fit's values there.
  std::vector<std::string> packet_fit_params;
  std::vector<std::string> fit_metrics;  // metric ids calibrate fits (empty: all)
  bool fits_metric(const std::string& id) const {
    return fit_metrics.empty() || std::find(fit_metrics.begin(), fit_metrics.end(), id) != fit_metrics.end();
  }
  // Runs as conditions: variables every run sets, a background job on the rows `background_where`
  // selects, the column naming each row in case ids, variables fitted by calibrate and their values.
  std::map<std::string, std::string> variables;
  std::string background_path;  // resolved like the workload; "" none
  int background_pes = 0;       // 0: its file's
  RowFilter background_where;
  std::vector<std::string> id_columns;  // `id_column`: one column or a list, naming each row in case ids
  std::vector<FitVariable> fit_variables;
  // Written by calibrate: variable -> value text ("" key) or row value -> value text.
  std::map<std::string, std::map<std::string, std::string>> fitted;
  std::vector<PairedOrdering> paired_orderings;
  // A suite of another model's figures on our machine (the packet driver's, issue 32): the driver that
  // makes the data (`calibrate --record` writes them), the network parameters `calibrate` fits to the
  // rows `fit_where` picks (the others are held back: predictions the fit never saw), and whether
  // validate runs it only when named (`on_request`).
  std::string record_driver;
  std::vector<std::string> fit_network;
  // The rows fit_network's or fit_params' parameters are fitted to (empty: every row); with either,
  // the other rows are predictions the fit never saw, and the fitted ones are marked so.
  RowFilter fit_where;
  bool on_request = false;
};

// The run a case needs: a profile and the workload's variable values.
struct RunKey {
  std::string profile;
  std::map<std::string, std::string> variables;
  bool background = false;  // with the suite's background job
  std::map<std::string, std::string> background_variables;
  // From the row's columns ({COLUMN} in the suite's paths) and its row_settings:
  std::string machine;   // "": the suite's machine
  std::string workload;  // "": the suite's workload
  std::vector<std::pair<std::string, std::string>> params;
  int pes = 0;      // 0: the workload's
  double size = 0;  // 0: the workload's sizes
  bool operator<(const RunKey& o) const {
    return std::tie(machine, workload, params, pes, size, profile, variables, background, background_variables) <
           std::tie(o.machine, o.workload, o.params, o.pes, o.size, o.profile, o.variables, o.background,
                    o.background_variables);
  }
};

// One measured number, ready to compare with a statistic of its run.
struct MeasuredCase {
  std::string id;  // "t3d-shmem-get/default/remote/800B"
  std::string suite;
  std::string metric;  // the metric id
  std::string unit;    // of measured and predicted values: "us", "MB/s", "%"
  Statistic statistic = Statistic::RecordDuration;
  RunKey run;
  std::map<std::string, std::string> row;  // the CSV row, for orderings
  std::string record;
  double bytes = 0;
  double measured = 0;
  double tolerance = 0;
  std::string tolerance_why;
  bool report_only = false;
  bool fitted = false;  // its run conditions were fitted to it (a FitVariable covers it): not a prediction
};

}  // namespace t3sim::calib
