// A study handed to Slurm: its points as a job array (one task per group of points, each task running
// `t3sim sweep SPEC --out DIR --points LIST`), the submissions recorded in DIR/slurm-jobs.json, and the
// array tasks' states read back from Slurm (sacct when accounting is on, else scontrol, else squeue).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/io/study/sweep_spec.hpp"

namespace t3sim::study {

struct SlurmOptions {
  std::string partition;   // empty: the cluster's default
  std::string time_limit;  // sbatch --time; empty: the partition's
  int array_limit = 0;     // at most this many tasks at once (--array=0-N%L); 0: no limit
  int points_per_task = 1;
  int uncertainty = 0;  // the tasks' --uncertainty N (0: none)
  std::string driver;   // the tasks' --driver ("": the study's)
};

// Refuses (InputError) what sbatch directives cannot carry: a folder, study name, partition or time with
// white space, '#', '%', quotes or a newline (sbatch splits #SBATCH lines at spaces, stops at '#', and
// expands '%' in --output).
void check_slurm_safe(const std::string& dir, const std::string& study, const std::string& partition,
                      const std::string& time_limit);

// One submitted (or, with --dry-run, written) job array.
struct SlurmSubmission {
  std::string job_id;              // empty for a dry run
  std::string script;              // the sbatch file
  std::vector<std::string> tasks;  // task i's --points LIST
  SlurmOptions options;
};

// Writes DIR/NAME (a job array over `groups`, each a task's points) and returns the submission without a
// job id. `t3sim` is this program's absolute path; `spec` and `dir` are made absolute.
SlurmSubmission write_array_script(const std::string& spec, const std::string& dir, const std::string& study,
                                   const std::vector<std::vector<int>>& groups, const SlurmOptions& options,
                                   const std::string& name);

// Submits the script with `sbatch --parsable` and returns the job id; throws std::runtime_error with
// sbatch's own message when it fails or is not there.
std::string submit_array(const std::string& script);

// The submissions of a results folder, oldest first, and appending one (DIR/slurm-jobs.json).
std::vector<SlurmSubmission> read_submissions(const std::string& dir);
void record_submission(const std::string& dir, const SlurmSubmission& s);

// State of each array task of `job_ids` ("JOB_TASK" -> PENDING, RUNNING, COMPLETED, CANCELLED, FAILED,
// TIMEOUT, ...), and where it came from ("sacct", "scontrol", "squeue", or "" when Slurm answered nothing:
// tasks then have no state).
struct TaskStates {
  std::string source;
  std::map<std::string, std::string> state;
};
TaskStates query_task_states(const std::vector<std::string>& job_ids);

// Tasks of `job_ids` still queued or running, by state, from squeue (empty when none, no squeue, or the
// jobs are gone: "Invalid job id"); throws std::runtime_error with squeue's message on any other error
// (a controller that does not answer must not read as "nothing queued").
std::map<std::string, int> queued_tasks(const std::vector<std::string>& job_ids);

}  // namespace t3sim::study
