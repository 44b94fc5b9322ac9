// Reads the traffic patterns of a workload's `pattern:` (all but swap) into a core::PatternSpec.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "sim/core/program/packet_stream.hpp"
#include "sim/core/program/traffic_pattern.hpp"
#include "sim/io/workload/workload_values.hpp"

namespace t3sim::io {

// `kind` is the pattern's key under `pattern:`; `node` its map of parameters.
core::PatternSpec read_traffic_pattern(const std::string& kind, const YAML::Node& node, const WorkloadContext& ctx);
// `pattern: {stream: {...}}`: traffic, messages, block, seed, gap (core/program/packet_stream.hpp).
core::StreamSpec read_stream_pattern(const YAML::Node& node, const WorkloadContext& ctx);

}  // namespace t3sim::io
