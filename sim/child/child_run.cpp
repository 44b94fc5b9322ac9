#include "sim/child/child_run.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <stdexcept>

#include "sim/calib/validation_run.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/output/results_writer.hpp"
#include "sim/protocol/run_request.hpp"

namespace t3sim::child {

void die_with_parent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(137);  // the parent was gone before the line above: adopted already
}

ChildOutcome run_child(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"t3sim"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : all) argv.push_back(s.data());
  argv.push_back(nullptr);

  int fds[2];
  // Close-on-exec: a child started at the same time from another thread must not inherit this write
  // end (its reader would wait for that child to exit too).
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for a child run");
  const auto started = std::chrono::steady_clock::now();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a child run");
  if (pid == 0) {
    die_with_parent(parent);
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(fds[1]);
  ChildOutcome o;
  char buf[65536];
  ssize_t n = 0;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) o.out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);  // the child's own peak resident set, not this process's
  o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  o.peak_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux reports KiB
  o.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

namespace {

core::RunResult run_request_in_child(const protocol::RunRequest& request, const std::string& what) {
  const ChildOutcome o = run_child(request.to_argv());
  if (o.exit_status != 0)
    throw std::runtime_error("child run of " + what + " failed with status " + std::to_string(o.exit_status));
  return io::parse_results_json(o.out);
}

// A validation run: every record as JSON.
protocol::RunRequest json_request(const std::string& machine, const std::string& workload, const std::string& profile,
                                  const std::map<std::string, std::string>& variables) {
  protocol::RunRequest r;
  r.machine = machine;
  r.workload = workload;
  r.profile = profile;
  r.variables = variables;
  r.json = true;
  return r;
}

}  // namespace

core::RunResult run_in_child(const std::string& machine, const std::string& workload, const std::string& profile,
                             const std::map<std::string, std::string>& variables) {
  return run_request_in_child(json_request(machine, workload, profile, variables),
                              workload + " on " + machine + " (profile " + profile + ")");
}

core::RunResult run_case_in_child(const calib::SuiteSpec& suite, const calib::RunKey& key, bool with_transfers) {
  protocol::RunRequest r =
      json_request(key.machine.empty() ? suite.machine_path : key.machine,
                   key.workload.empty() ? suite.workload_path : key.workload, key.profile, key.variables);
  if (calib::is_trace_path(r.workload)) std::swap(r.trace, r.workload);
  r.params = key.params;
  r.pes = key.pes;
  r.size = key.size;
  if (!suite.driver.empty()) r.driver = suite.driver;
  if (key.background) {
    r.background = suite.background_path;
    r.background_pes = suite.background_pes;
    r.background_variables = key.background_variables;
  }
  const std::string what = (r.trace.empty() ? r.workload : r.trace) + " on " + r.machine + " (suite " + suite.id + ")";
  if (!with_transfers) return run_request_in_child(r, what);
  // The JSON holds the records only; the data movements come back through a file of the child's.
  char dir_template[] = "/tmp/t3sim-case-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) throw std::runtime_error("cannot make a temporary folder for " + what);
  r.transfers_file = std::string(dir) + "/transfers.csv";
  core::RunResult result;
  try {
    result = run_request_in_child(r, what);
    result.transfers = io::parse_transfers_csv(io::read_whole_file(r.transfers_file), r.transfers_file);
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  std::filesystem::remove_all(dir);
  return result;
}

std::map<calib::RunKey, core::RunResult> run_cases_in_children(const calib::SuiteSpec& suite,
                                                               const std::vector<calib::MeasuredCase>& cases) {
  const std::vector<calib::RunKey> keys = calib::runs_needed(cases);
  // Per-PE bandwidths count each PE's data movements, which the run's JSON does not carry.
  const bool with_transfers = std::any_of(cases.begin(), cases.end(), [](const calib::MeasuredCase& c) {
    return c.statistic == calib::Statistic::PeBandwidthMedian || c.statistic == calib::Statistic::PeBandwidthMin;
  });
  std::map<calib::RunKey, core::RunResult> runs;
  for (size_t i = 0; i < keys.size(); i += 2) {
    std::vector<std::future<core::RunResult>> batch;
    for (size_t k = i; k < std::min(keys.size(), i + 2); ++k)
      batch.push_back(std::async(std::launch::async, [&suite, key = keys[k], with_transfers] {
        return run_case_in_child(suite, key, with_transfers);
      }));
    for (size_t k = i; k < std::min(keys.size(), i + 2); ++k) runs[keys[k]] = batch[k - i].get();
  }
  return runs;
}

}  // namespace t3sim::child
