// Replaces the text of existing scalar values in a YAML file, leaving every other byte (comments,
// order, layout) as it was. `t3sim calibrate` writes fitted values back this way.
#pragma once
#include <string>
#include <vector>

namespace t3sim::io {

struct ScalarEdit {
  std::string key_path;   // "software.profiles.default.call_overhead"
  std::string new_text;   // written as a plain scalar: must need no quoting
  bool flow_map = false;  // the value is a one-line flow mapping {...}, replaced whole by new_text
};

// Returns the edited text; throws InputError naming the key when a path is missing or its value is
// not a plain scalar.
std::string splice_scalars(const std::string& file, const std::string& text, const std::vector<ScalarEdit>& edits);

}  // namespace t3sim::io
