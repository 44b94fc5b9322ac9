#include "sim/study/point_selection.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/io/files/input_error.hpp"

namespace t3sim::study {
namespace {

[[noreturn]] void reject(const std::string& what, const std::string& text) {
  throw io::InputError({"--points", 0, 0}, "", what, text);
}

int parse_index(const std::string& item, const std::string& text) {
  if (item.empty() || !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
    reject("expects point indices and ranges I..J separated by commas, not '" + item + "'", text);
  if (item.size() > 9) reject("index '" + item + "' is out of range", text);
  return std::stoi(item);
}

}  // namespace

std::vector<int> parse_point_selection(const std::string& text, int count) {
  std::vector<int> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t dots = item.find("..");
    const int first = parse_index(dots == std::string::npos ? item : item.substr(0, dots), text);
    const int last = dots == std::string::npos ? first : parse_index(item.substr(dots + 2), text);
    if (last < first) reject("range '" + item + "' is empty (it must read I..J with I <= J)", text);
    if (last >= count)
      reject("index " + std::to_string(last) + " is past the study's last point (" + std::to_string(count - 1) +
                 "; `t3sim sweep SPEC --list` shows them)",
             text);
    for (int i = first; i <= last; ++i) out.push_back(i);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string format_point_selection(const std::vector<int>& indices) {
  std::string out;
  for (size_t i = 0; i < indices.size();) {
    size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(indices[i]);
    if (j > i) out += ".." + std::to_string(indices[j]);
    i = j + 1;
  }
  return out;
}

std::vector<std::vector<int>> group_points(const std::vector<int>& indices, int per_task) {
  if (per_task < 1) throw std::invalid_argument("group_points: per_task must be at least 1");
  std::vector<std::vector<int>> groups;
  for (size_t i = 0; i < indices.size(); i += static_cast<size_t>(per_task))
    groups.emplace_back(indices.begin() + static_cast<std::ptrdiff_t>(i),
                        indices.begin() + static_cast<std::ptrdiff_t>(std::min(indices.size(), i + per_task)));
  return groups;
}

}  // namespace t3sim::study
