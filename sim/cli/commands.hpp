// The t3sim subcommands. Each returns the process exit code: 0 ok, 1 a failed check or run error,
// 2 bad usage or bad input (main() maps io::InputError to 2 and other exceptions to 1).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/core/machine/machine_spec.hpp"
#include "sim/io/study/sweep_spec.hpp"
#include "sim/protocol/run_request.hpp"

namespace t3sim::cli {

int cmd_run(const protocol::RunRequest& a);

struct BenchArgs {
  std::string suite;               // default: bench/suite.yaml of t3sim's data (io::data_file)
  std::vector<std::string> cases;  // only these (default: all)
  int repeat = 3;                  // runs per case with the fast driver
  int reference_repeat = 1;        // runs per case with the reference driver; 0: skip it
  bool noise_floor = false;        // also run each case with router_delay x (1 + 1e-9) and compare
  int ensemble = 5;                // chaotic cases: both drivers with router_delay x (1 + k 1e-9), k < N; 0: one
  bool long_cases = false;         // also the cases marked `long: true` (always those named in `cases`)
  bool list = false;               // print the cases and exit
  int threads = 2;                 // packet cases: also run with this many threads (1: one thread only)
  std::string peer_binary;         // packet cases with a peer config: time `PEER config` beside them ("": no)
  std::string out_dir = "build/bench";
};
int cmd_bench(const BenchArgs& a);

struct RouteArgs {
  std::string machine;
  int src = 0, dst = 0;      // machine PEs
  protocol::RunRequest run;  // its routing and fail: the machine overrides, as for run
};
int cmd_route(const RouteArgs& a);
// `route --all`: every ordered pair of nodes under one routing, one line each (the route goldens).
int cmd_route_all(const RouteArgs& a);
// Applies run's machine overrides (--param, --routing, --fail) to a loaded machine.
void apply_params(core::MachineSpec& m, const protocol::RunRequest& a);
// `describe machine FILE [--param PATH=VALUE]...`: the file's values, ranges and who set each.
int cmd_describe(const std::string& what, const std::string& file = "",
                 const std::vector<std::pair<std::string, std::string>>& params = {});

struct ValidateArgs {
  std::string cases;                // default: validation/cases.yaml of t3sim's data (io::data_file)
  std::vector<std::string> suites;  // empty: all
  bool json = false;
  std::string plot_dir;    // when set, gnuplot SVGs of the comparison go here
  std::string report_dir;  // when set, report.html and validation.json go here
  std::string driver;      // when set, every suite's runs use this driver (the packet model against the records)
};
int cmd_validate(const ValidateArgs& a);

// `t3sim report DIR`: report.html of the sweep or validation results in DIR.
int cmd_report(const std::string& dir);

struct CalibrateArgs {
  std::string cases;    // default: validation/cases.yaml of t3sim's data, written only if that is a source tree
  std::string suite;    // empty: all
  std::string profile;  // empty: every profile in the suite's data
  bool dry_run = false;
  bool check = false;        // refit and compare with the file; exit 1 on a difference
  bool record = false;       // write the figures of suites with a record_driver instead of fitting
  bool model_error = false;  // network fits: also each row alone, their spread as the parameter's range
  int bootstrap = 0;         // > 0: also refit on this many resamples of the rows and write the 5-95% ranges
  std::string driver;        // "packet": the suites' packet_fit_params, fitted under the packet driver
};
int cmd_calibrate(const CalibrateArgs& a);

struct SweepArgs {
  std::string spec;
  int uncertainty = 0;  // > 0: every point with a 5-95% band over this many samples
  std::string driver;   // every point's transport unless an axis sets its own ("": the study's)
  std::string out_dir;  // default: sweep-NAME
  bool list = false;    // print the points and exit, run nothing
  bool force = false;   // write into a folder that holds another study's results
  bool report = false;  // when complete, also write OUT/report.html
  std::string points;   // non-empty: run only these points into a part file of their own (an array task)
  double check = 0;     // > 0: this fraction of the points again under check_driver (study/driver_check.hpp)
  std::string check_driver = "packet";
  // Slurm (cmd_sweep_slurm.cpp)
  bool slurm = false;     // write DIR/sweep.sbatch, a job array of the points not yet done, and submit it
  bool dry_run = false;   // with --slurm or --resubmit: write the script, submit nothing
  bool collect = false;   // merge the tasks' parts into sweep.csv, name missing and failed points
  bool resubmit = false;  // collect, then submit an array of only the missing points
  bool wait = false;      // show progress until the study's tasks leave the queue, then collect
  // Not given (empty, -1, 0): the study's last submission's, else Slurm's defaults and one point a task.
  std::string partition;    // sbatch --partition
  std::string time_limit;   // sbatch --time
  int array_limit = -1;     // at most this many array tasks at once; 0: Slurm's limit
  int points_per_task = 0;  // points per array task
};
int cmd_sweep(const SweepArgs& a);
// The Slurm modes of `t3sim sweep` (cmd_sweep_slurm.cpp); `dir` is the results folder.
int cmd_sweep_slurm(const SweepArgs& a, const io::SweepSpec& spec, const std::vector<io::SweepPoint>& points,
                    const std::string& dir);

}  // namespace t3sim::cli
