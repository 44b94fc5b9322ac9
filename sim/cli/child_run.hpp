// Runs `t3sim run ... --json` in a child process and reads its results: SimGrid 3.32 allows one
// simulation per process, so every command that needs several runs goes through here.
#pragma once
#include <map>
#include <string>

#include "sim/core/results.hpp"

namespace t3sim::cli {

// Throws std::runtime_error with the child's exit status when the run fails.
core::RunResult run_in_child(const std::string& machine, const std::string& workload, const std::string& profile,
                             const std::map<std::string, std::string>& variables = {});

}  // namespace t3sim::cli
