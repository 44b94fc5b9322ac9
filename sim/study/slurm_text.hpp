// What Slurm's commands print, read: array-task lists ("2-5,7%2"), `sacct -n -P -X -o JobID,State`
// lines, `scontrol show job -o` records and `sbatch --parsable` output. Pure text, unit-tested without
// a cluster (tests/unit/sweep_slurm_text_test.cpp).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace t3sim::study {

// The task ids of an array-task list: "2-5,7" -> 2 3 4 5 7; a trailing "%L" (the throttle) is not a task;
// an item that is not a number or range (e.g. "N/A") gives none.
std::vector<int> expand_task_ids(const std::string& list);

// "JOB_TASK" -> state from `sacct -n -P -X -o JobID,State` output ("12_3|COMPLETED",
// "12_[4-6%2]|PENDING", "12_5|CANCELLED by 0" -> CANCELLED). Lines of plain jobs are skipped.
std::map<std::string, std::string> parse_sacct_states(const std::string& text);

// "JOB_TASK" -> JobState from `scontrol show job -o` output (ArrayJobId=, ArrayTaskId=, JobState=).
std::map<std::string, std::string> parse_scontrol_states(const std::string& text);

// The job id of `sbatch --parsable` output ("12" or "12;cluster"); empty when there is none.
std::string parse_sbatch_job_id(const std::string& text);

}  // namespace t3sim::study
