// Validation suites: recorded measurements tied to a machine, a profile, a workload and a tolerance.
// Read by io/cases_loader from validation/cases.yaml; compared and fitted by sim/calib.
#pragma once
#include <limits>
#include <string>
#include <vector>

namespace t3sim::core {

// A model with more free parameters than this per profile is a lookup table, not a model.
constexpr size_t kMaxFitParams = 4;

// A tolerance that applies to the cases whose message size is in [min_bytes, max_bytes].
// The first rule that matches a case wins.
struct ToleranceRule {
  double min_bytes = 0;
  double max_bytes = std::numeric_limits<double>::infinity();
  double rel_error = 0;  // |predicted - measured| / measured must be <= this
  std::string why;       // the reason a rule is looser than the suite's target, reported with the case
};

// How one measured column becomes a case: the record label of the workload it is compared with,
// and what the column holds.
struct MetricSpec {
  std::string id;      // "local"
  std::string record;  // label of the workload step whose duration is predicted
  std::string column;  // CSV column holding the measurement
  enum class Holds { TimeSeconds, RateMBps } holds = Holds::TimeSeconds;  // rate: MB/s, MB = 1e6 bytes
};

// A case whose measurement the model is not expected to meet, with the reason; reported as such.
struct ToleranceException {
  std::string case_suffix;  // "suppress/local/8000B": the case id after "SUITE/"
  double rel_error = 0;
  std::string why;
};

struct SuiteSpec {
  std::string id;
  std::string doc;
  std::string data_path;      // CSV, resolved against the cases file's folder
  std::string machine_path;   // machine YAML, likewise
  std::string workload_path;  // workload YAML, likewise
  std::string profile_column;
  std::string bytes_column;
  std::vector<MetricSpec> metrics;
  std::vector<ToleranceRule> tolerances;
  std::vector<ToleranceException> exceptions;
  double median_rel_error = 0;          // target for the suite's median |relative error|
  double fit_min_bytes = 0;             // calibrate fits only cases with at least this many bytes
  std::vector<std::string> fit_params;  // profile parameters calibrate fits (at most kMaxFitParams)
};

// One measured number, ready to compare: the workload record (label, bytes) under a profile.
struct MeasuredCase {
  std::string id;  // "t3d-shmem-get/default/remote/800B"
  std::string suite;
  std::string profile;
  std::string metric;  // "time_us"
  std::string record;
  double bytes = 0;
  double measured_s = 0;
  double tolerance = 0;
  std::string tolerance_why;
};

}  // namespace t3sim::core
