// Reads a workload file (workloads/*.yaml) and expands it into core::Op lists. Schema: workloads/README.md
// and `t3sim describe workload`.
#pragma once
#include <map>
#include <string>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/program/workload.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/workload/trace_account.hpp"

namespace t3sim::io {

struct LoadedWorkload {
  core::Workload workload;
  SourcePos pes_pos;     // where `pes` stands, for errors found against a machine
  TraceAccount account;  // a trace's: what its lines became (lines = 0 for a workload file)
};

// `overrides` replace declared variables (from `t3sim run --set NAME=VALUE`); naming an undeclared
// variable is an error.
// `pes`, when > 0, replaces the file's `pes` (from `t3sim run --pes N`): the job size.
// `size`, when > 0, replaces the file's `sizes` list by this one size (`t3sim run --size`).
LoadedWorkload load_workload(const std::string& path, const std::map<std::string, std::string>& overrides = {},
                             int pes = 0, double size = 0);

// Rejects a workload that needs more PEs than the machine has (exit 2, pointing at `pes`).
void check_fits_machine(const LoadedWorkload& w, int machine_pes, const std::string& machine_name);

// The workload schema, for `t3sim describe workload` (kept beside the code that reads it).
const std::vector<core::KeyDoc>& workload_keys();
// The keys of the generated I/O patterns, md and io_writers (file_io_pattern_reader.cpp), for describe.
const std::vector<core::KeyDoc>& io_pattern_keys();

// Largest message a workload may move: beyond the memory of any T3D/T3E PE.
constexpr double kMaxMessageBytes = 1073741824.0;  // 1 GiB
// The one rule for a message size anywhere (a step's bytes, a workload's or a study's sizes, --size):
// "" for a whole number of bytes from 1B to 1GiB, else what is wrong with it.
std::string message_size_problem(double bytes);

}  // namespace t3sim::io
