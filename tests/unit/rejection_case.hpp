// One rejection rule: a bad input file in tests/data and the message it must produce.
#pragma once
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "sim/io/files/input_error.hpp"

namespace t3sim::test {

struct RejectionCase {
  std::string rule;   // also the file name in tests/data/<kind>/
  std::string regex;  // must match the whole message somewhere (std::regex_search, ECMAScript)
};

// Prints the rule in test listings instead of gtest's byte dump.
inline void PrintTo(const RejectionCase& c, std::ostream* os) { *os << c.rule; }

inline std::string rule_name(const testing::TestParamInfo<RejectionCase>& info) { return info.param.rule; }

// Runs `load` and checks it throws an InputError whose message matches.
template <class Load>
void expect_rejected(Load load, const RejectionCase& c) {
  try {
    load();
    FAIL() << c.rule << ": accepted, expected an error matching " << c.regex;
  } catch (const io::InputError& e) {
    EXPECT_TRUE(std::regex_search(e.what(), std::regex(c.regex))) << "message: " << e.what() << "\nregex: " << c.regex;
  }
}

}  // namespace t3sim::test
