// How a PE's current operation is named in a deadlock report, the same for both drivers.
#pragma once
#include <string>

#include "sim/core/workload.hpp"

namespace t3sim::engine {

inline std::string describe_op(const core::Op& op) {
  return std::string(core::op_kind_name(op.kind)) + (op.flag.empty() ? "" : " for flag '" + op.flag + "'") +
         (op.peer >= 0 ? " with PE " + std::to_string(op.peer) : "") + " (step " + std::to_string(op.step) + ")";
}

constexpr const char* kFinalQuiet = "quiet at the end of its program";

}  // namespace t3sim::engine
