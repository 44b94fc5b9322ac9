// How a PE's current operation is named in a deadlock report, the same for every transport.
#pragma once
#include <string>

#include "sim/core/program/workload.hpp"

namespace t3sim::core {

// `where` names what Op::step counts: "step" (a workload file's steps) or "line" (a trace's lines);
// `flags` is the workload's table of Op::flag names.
inline std::string describe_op(const Op& op, const std::string& where, const InternTable& flags) {
  return std::string(op_kind_name(op.kind)) + (op.flag == kNoName ? "" : " for flag '" + flags.name(op.flag) + "'") +
         (op.peer >= 0 ? " with PE " + std::to_string(op.peer) : "") + " (" + where + " " + std::to_string(op.step) +
         ")";
}

constexpr const char* kFinalQuiet = "quiet at the end of its program";

// One line of a deadlock report: what PE `pe` waits in.
inline std::string stuck_line(size_t pe, const std::string& doing) {
  return "\n  PE " + std::to_string(pe) + " waits in " + doing;
}

}  // namespace t3sim::core
