#include "sim/io/files/input_error.hpp"

#include <algorithm>

namespace t3sim::io {
namespace {

std::string format_message(const SourcePos& pos, const std::string& key, const std::string& what,
                           const std::string& got) {
  std::string msg = pos.file;
  if (pos.line > 0) msg += ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
  msg += ": ";
  if (!key.empty()) msg += key + ": ";
  msg += what;
  if (!got.empty()) msg += " (got " + got + ")";
  return msg;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

InputError::InputError(const SourcePos& pos, const std::string& key, const std::string& what, const std::string& got)
    : std::runtime_error(format_message(pos, key, what, got)), pos_(pos), key_(key) {}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = word.size() / 2 + 2;  // farther than this is no suggestion
  for (const auto& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace t3sim::io
