// An error in an input file, located: "file:line:column: key.path: what is wrong (got X)".
// Thrown by the readers in sim/io; caught only in sim/cli, which prints it and exits 2.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/support/enum_names.hpp"

namespace t3sim::io {

struct SourcePos {
  std::string file;
  int line = 0;    // 1-based; 0 when the error is about the file as a whole
  int column = 0;  // 1-based
};

class InputError : public std::runtime_error {
 public:
  InputError(const SourcePos& pos, const std::string& key, const std::string& what, const std::string& got = "");
  const SourcePos& pos() const { return pos_; }
  const std::string& key() const { return key_; }

 private:
  SourcePos pos_;
  std::string key_;
};

// "Did you mean": the one edit-distance match, in core/support/enum_names.hpp.
using core::closest_match;
using core::did_you_mean;

}  // namespace t3sim::io
