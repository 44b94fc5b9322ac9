// Reads the map under `pattern: swap:` of a workload file into a core::SwapSpec.
#pragma once
#include <yaml-cpp/yaml.h>

#include "sim/core/program/swap_pattern.hpp"
#include "sim/io/workload/workload_values.hpp"

namespace t3sim::io {

core::SwapSpec read_swap_pattern(const YAML::Node& pattern, const WorkloadContext& ctx);

}  // namespace t3sim::io
