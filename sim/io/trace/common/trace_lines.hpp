// The text layer of both trace formats: lines split into whitespace-separated tokens, each with its
// column, '#' starting a comment; and the located parsing of one token (file:line:column in errors).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"

namespace t3sim::io {

struct Token {
  std::string text;
  int column = 0;  // 1-based
};

struct TraceLine {
  int number = 0;  // 1-based line number in its file
  std::vector<Token> tokens;
};

// The non-empty lines of `path` (read with read_input_file's checks), comments removed.
std::vector<TraceLine> read_trace_lines(const std::string& path);

// The tokens of text[start, end) (one line, without its newline), comments removed: empty when blank.
TraceLine tokenize_line(const std::string& text, size_t start, size_t end, int number);

// A large trace file kept as its text, its lines tokenized when read (12 bytes a line in `lines`
// instead of a TraceLine's ~250): what the TI reader needs to hold a trace of millions of lines.
struct TraceText {
  struct Line {
    uint32_t start = 0;  // offset of the line in `text` (a trace is under 4 GiB: kMaxTraceBytes)
    uint32_t length = 0;
    int32_t number = 0;  // 1-based
  };
  std::string path;
  std::string text;
  std::vector<Line> lines;  // the non-empty ones
  TraceLine line(const Line& l) const { return tokenize_line(text, l.start, l.start + l.length, l.number); }
  // Calls f for every non-empty line of `text`, in order (whether or not `lines` holds them).
  void for_each_line(const std::function<void(const Line&)>& f) const;
};
// Reads `path` (at most `max_bytes`, no more than kMaxTraceBytes) and, when `index`, lists its
// non-empty lines in `lines`.
TraceText read_trace_text(const std::string& path, unsigned long long max_bytes, bool index = true);

// The first token of the first non-empty line that is not a comment ("" when there is none): what a
// reader needs to tell a trace's format without reading it whole.
std::string first_token(const std::string& path);

// Parsing of one token of a line; errors name `file`, the token's position and `key` (the operation).
class LineReader {
 public:
  LineReader(const std::string& file, const TraceLine& line, size_t first_argument);
  const std::string& key() const { return key_; }
  bool has(size_t i) const;  // argument i (0-based after the operation's name) is present
  const Token& at(size_t i, const std::string& what) const;
  long integer(size_t i, const std::string& what, long min, long max) const;
  double number(size_t i, const std::string& what, double min, double max) const;
  double quantity(size_t i, const std::string& what, core::Quantity q, double min, double max) const;
  void no_more_than(size_t n) const;  // rejects arguments beyond the n-th
  [[noreturn]] void fail(size_t i, const std::string& what, const std::string& got = "") const;
  [[noreturn]] void fail_line(const std::string& what) const;
  SourcePos pos(size_t i) const;

 private:
  const std::string& file_;
  const TraceLine& line_;
  size_t first_;
  std::string key_;
};

}  // namespace t3sim::io
