// Runs another program (sbatch, squeue, scontrol, sacct) and captures what it prints: the Slurm side of
// `t3sim sweep --slurm/--collect/--wait` goes through here, so that a missing or failing Slurm command
// is an outcome to report, not a crash.
#pragma once
#include <string>
#include <vector>

namespace t3sim::child {

struct CommandOutcome {
  int exit_status = -1;  // -1: killed by a signal; 127: not found on PATH
  std::string out, err;
};

// Runs argv[0] (looked up on PATH) with argv, standard input from /dev/null, and waits for it.
CommandOutcome run_command(const std::vector<std::string>& argv);

}  // namespace t3sim::child
