#include "sim/analysis/peer_output.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace t3sim::analysis {
namespace {

// The number that follows `prefix` at the start of `line` (leading blanks allowed), if any.
std::optional<double> number_after(const std::string& line, const std::string& prefix) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line.compare(start, prefix.size(), prefix) != 0) return std::nullopt;
  const char* text = line.c_str() + start + prefix.size();
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

}  // namespace

std::optional<PeerFigures> booksim_figures(const std::string& output) {
  std::istringstream in(output);
  std::string line;
  std::optional<double> cycles, accepted;
  bool overall = false;  // past the "Overall Traffic Statistics" heading
  while (std::getline(in, line)) {
    if (!cycles) cycles = number_after(line, "Time taken is ");
    if (line.find("Overall Traffic Statistics") != std::string::npos) overall = true;
    if (overall && !accepted) accepted = number_after(line, "Accepted flit rate average = ");
  }
  if (!cycles || !accepted || *cycles <= 0) return std::nullopt;
  return PeerFigures{*cycles, *accepted};
}

}  // namespace t3sim::analysis
