#include "sim/io/workload/trace_account.hpp"

#include <fmt/format.h>

namespace t3sim::io {

std::string account_text(const TraceAccount& a) {
  size_t without = 0;
  std::string rules;
  for (const auto& [rule, n] : a.no_cost) {
    without += n;
    rules += fmt::format("{}{}: {}", rules.empty() ? "" : ", ", rule, n);
  }
  std::string out = fmt::format("trace: {} lines: {} replayed, {} without cost{}\n", a.lines, a.replayed, without,
                                rules.empty() ? "" : " (" + rules + ")");
  for (const TraceWarning& w : a.warnings)
    out += fmt::format("warning: {}:{}:{}: {}: {}{} ({} line{})\n", w.first.file, w.first.line, w.first.column, w.key,
                       w.what, w.detail.empty() ? "" : " (" + w.detail + ")", w.lines, w.lines == 1 ? "" : "s");
  return out;
}

}  // namespace t3sim::io
