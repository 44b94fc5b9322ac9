// The generated I/O workloads of a workload file (core/program/file_io_workloads.hpp): `pattern: {md: {...}}` and
// `pattern: {io_writers: {...}}`. They take no `sizes`; their keys may name variables ($name).
#pragma once
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/program/workload.hpp"
#include "sim/io/workload/workload_values.hpp"

namespace t3sim::io {

// Whether `kind` names one of them.
bool is_io_pattern(const std::string& kind);
// Appends the pattern's operations to w (w.pes set); throws InputError naming file, line and key.
void read_io_pattern(const std::string& kind, const YAML::Node& node, const WorkloadContext& ctx, core::Workload& w);

}  // namespace t3sim::io
