#include "sim/io/trace/common/trace_lines.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "sim/io/files/input_file.hpp"

namespace t3sim::io {

TraceLine tokenize_line(const std::string& text, size_t start, size_t end, int number) {
  TraceLine line{number, {}};
  line.tokens.reserve(8);  // a TI line has up to 7 fields but for vector collectives: one allocation
  size_t i = start;
  while (i < end) {
    const char c = text[i];
    if (c == '#') break;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    const size_t from = i;
    while (i < end && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '#') ++i;
    line.tokens.push_back({text.substr(from, i - from), static_cast<int>(from - start) + 1});
  }
  return line;
}

namespace {
// Calls `each(start, end, number)` for every line of `text`.
template <typename Each>
void for_each_line(const std::string& text, Each each) {
  int number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    each(start, end, ++number);
    if (end == text.size()) break;
    start = end + 1;
  }
}
bool blank(const std::string& text, size_t start, size_t end) {
  for (size_t i = start; i < end; ++i) {
    const char c = text[i];
    if (c == '#') return true;
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}
}  // namespace

std::vector<TraceLine> read_trace_lines(const std::string& path) {
  const std::string text = read_input_file(path);
  std::vector<TraceLine> lines;
  for_each_line(text, [&](size_t start, size_t end, int number) {
    TraceLine line = tokenize_line(text, start, end, number);
    if (!line.tokens.empty()) lines.push_back(std::move(line));
  });
  return lines;
}

void TraceText::for_each_line(const std::function<void(const Line&)>& f) const {
  io::for_each_line(text, [&](size_t start, size_t end, int number) {
    if (blank(text, start, end)) return;
    // the text is under kMaxTraceBytes < 4 GiB: offsets and lengths fit 32 bits
    f({static_cast<uint32_t>(start), static_cast<uint32_t>(end - start), number});
  });
}

TraceText read_trace_text(const std::string& path, unsigned long long max_bytes, bool index) {
  static_assert(kMaxTraceBytes < (1ull << 32), "TraceText::Line holds 32-bit offsets");
  TraceText t;
  t.path = path;
  t.text = read_input_file(path, std::min(max_bytes, kMaxTraceBytes));
  if (!index) return t;
  // One allocation: a trace of millions of lines would otherwise peak at twice its index while growing.
  t.lines.reserve(static_cast<size_t>(std::count(t.text.begin(), t.text.end(), '\n')) + 1);
  t.for_each_line([&](const TraceText::Line& l) { t.lines.push_back(l); });
  return t;
}

std::string first_token(const std::string& path) {
  std::ifstream in = open_input_file(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t from = line.find_first_not_of(" \t\r");
    if (from == std::string::npos || line[from] == '#') continue;
    return line.substr(from, line.find_first_of(" \t\r#", from) - from);
  }
  return "";
}

LineReader::LineReader(const std::string& file, const TraceLine& line, size_t first_argument)
    : file_(file), line_(line), first_(first_argument), key_(line.tokens[first_argument - 1].text) {}

bool LineReader::has(size_t i) const { return first_ + i < line_.tokens.size(); }

SourcePos LineReader::pos(size_t i) const {
  const size_t t = std::min(first_ + i, line_.tokens.size());
  const int column = t < line_.tokens.size()
                         ? line_.tokens[t].column
                         : line_.tokens.back().column + static_cast<int>(line_.tokens.back().text.size());
  return {file_, line_.number, column};
}

void LineReader::fail(size_t i, const std::string& what, const std::string& got) const {
  throw InputError(pos(i), key_, what, got.empty() ? got : "'" + got + "'");
}

void LineReader::fail_line(const std::string& what) const {
  throw InputError({file_, line_.number, line_.tokens[first_ - 1].column}, key_, what);
}

const Token& LineReader::at(size_t i, const std::string& what) const {
  if (!has(i)) fail(i, "missing " + what);
  return line_.tokens[first_ + i];
}

double LineReader::number(size_t i, const std::string& what, double min, double max) const {
  const std::string& text = at(i, what).text;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v)) fail(i, what + " must be a number", text);
  if (v < min || v > max) fail(i, fmt::format("{} must be from {:g} to {:g}", what, min, max), text);
  return v;
}

long LineReader::integer(size_t i, const std::string& what, long min, long max) const {
  const std::string& text = at(i, what).text;
  const double v = number(i, what, static_cast<double>(min), static_cast<double>(max));
  if (v != std::floor(v)) fail(i, what + " must be a whole number", text);
  return static_cast<long>(v);
}

double LineReader::quantity(size_t i, const std::string& what, core::Quantity q, double min, double max) const {
  const std::string& text = at(i, what).text;
  std::string why;
  const auto v = core::parse_quantity(text, q, &why);
  if (!v) fail(i, what + ": " + why, text);
  if (*v < min || *v > max) fail(i, fmt::format("{} must be from {:g} to {:g} (SI units)", what, min, max), text);
  return *v;
}

void LineReader::no_more_than(size_t n) const {
  if (has(n)) fail(n, "unexpected argument", line_.tokens[first_ + n].text);
}

}  // namespace t3sim::io
