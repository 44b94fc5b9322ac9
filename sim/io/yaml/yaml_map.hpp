// Strict reading of YAML (the only files besides the loaders that include yaml-cpp).
// A MapReader reads one mapping: it rejects duplicate keys on construction, hands out the keys asked
// for, and on finish() rejects every key nobody asked for, with a "did you mean" suggestion.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"

namespace t3sim::io {

// Reads and parses a YAML file whose top level must be a mapping. Rejects a missing, unreadable or
// empty file, a directory, and text that is not YAML.
YAML::Node load_yaml_file(const std::string& path);

SourcePos pos_of(const std::string& file, const YAML::Node& node);

class MapReader {
 public:
  // `path` is the key path of this mapping ("" at top level, "network", "software.profiles.default").
  MapReader(const YAML::Node& node, std::string file, std::string path);

  bool has(const std::string& key) const;
  // The value under key (undefined when absent); never inserts.
  YAML::Node lookup(const std::string& key) const;
  YAML::Node required(const std::string& key);
  std::optional<YAML::Node> optional(const std::string& key);
  // Every key of the mapping, in file order (marks them all as used).
  std::vector<std::string> keys();
  void finish() const;

  // Typed readers of a child value; each marks the key used and throws InputError on a bad value.
  std::string string_at(const std::string& key);
  std::optional<std::string> optional_string(const std::string& key);
  long integer_at(const std::string& key, long min, long max);
  double quantity_at(const std::string& key, core::Quantity q);

  std::string child_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const std::string& file() const { return file_; }
  const YAML::Node& node() const { return node_; }
  SourcePos key_pos(const std::string& key) const;

 private:
  YAML::Node node_;
  std::string file_;
  std::string path_;
  std::vector<std::string> all_keys_;
  std::set<std::string> used_;
};

// Value readers on a bare node, for list items and values the caller already holds.
std::string scalar_text(const YAML::Node& n, const std::string& file, const std::string& key);
long integer_value(const YAML::Node& n, const std::string& file, const std::string& key, long min, long max);
double quantity_value(const YAML::Node& n, const std::string& file, const std::string& key, core::Quantity q);
bool bool_value(const YAML::Node& n, const std::string& file, const std::string& key);
YAML::Node sequence_value(const YAML::Node& n, const std::string& file, const std::string& key);
// A path to an existing regular file, relative to the directory of `file` unless absolute; normalised.
std::string existing_file_value(const YAML::Node& n, const std::string& file, const std::string& key);
// The top-level mapping of a YAML input file, after checking that it declares schema_version 1.
MapReader read_document(const std::string& path);

}  // namespace t3sim::io
