// What an imported trace's lines became, so that nothing is dropped without a word: every line is
// replayed (it became calls) or has no cost by a named rule of the format (`finalize`, a `wait` whose
// request an earlier call completed, ...); and the guesses the trace forced (a derived datatype's size,
// a collective whose communicator the trace does not record) are warnings, counted per kind, with the
// first line where each happened. `run --trace` prints both; `--strict` makes every warning an error.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "sim/io/files/input_error.hpp"

namespace t3sim::io {

struct TraceWarning {
  SourcePos first;     // the first line that raised it
  std::string key;     // the action
  std::string what;    // the guess made (warnings are counted per key and what)
  std::string detail;  // what the first line said, if more
  size_t lines = 0;    // lines that raised it
};

struct TraceAccount {
  size_t lines = 0;                       // action lines read
  size_t replayed = 0;                    // lines that became calls
  std::map<std::string, size_t> no_cost;  // rule -> lines without cost by that rule
  std::vector<TraceWarning> warnings;     // in order of first appearance
};

// "L lines: R replayed, N without cost (rule n, ...)" and one "warning: file:line:col: key: what (n lines)"
// line per warning.
std::string account_text(const TraceAccount& a);

}  // namespace t3sim::io
