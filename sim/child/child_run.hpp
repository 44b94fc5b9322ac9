// Runs t3sim itself in child processes: SimGrid 3.32 allows one simulation per process, so every
// command that needs several runs (validate, calibrate, sweep, bench) goes through here.
#pragma once
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "sim/calib/validation_spec.hpp"
#include "sim/core/run/results.hpp"

namespace t3sim::child {

struct ChildOutcome {
  int exit_status = -1;  // -1: killed by a signal
  std::string out;       // its standard output
  double wall_s = 0;     // from fork to exit
  double peak_rss_bytes = 0;
};

// In a child just forked by `parent` (its getpid() before the fork): the child is killed (SIGKILL) when
// the thread that forked it ends, even by `kill -9` of the parent (PR_SET_PDEATHSIG, kept across exec),
// and exits at once when the parent died before this call could arm that. No orphan runs on.
void die_with_parent(pid_t parent);

// Runs `t3sim ARGS...` (args without the program name) and waits for it; dies with the caller.
ChildOutcome run_child(const std::vector<std::string>& args);

// `t3sim run ... --json` in a child; throws std::runtime_error with the child's exit status on failure.
core::RunResult run_in_child(const std::string& machine, const std::string& workload, const std::string& profile,
                             const std::map<std::string, std::string>& variables = {});
// The run a validation case needs (its suite's machine and workload, and its background when it has one).
// with_transfers: also its data movements (per-PE bandwidth statistics need them).
core::RunResult run_case_in_child(const calib::SuiteSpec& suite, const calib::RunKey& key, bool with_transfers = false);
// Every run the cases need (calib::runs_needed), two children at a time (the machines have 2 cores).
std::map<calib::RunKey, core::RunResult> run_cases_in_children(const calib::SuiteSpec& suite,
                                                               const std::vector<calib::MeasuredCase>& cases);

}  // namespace t3sim::child
