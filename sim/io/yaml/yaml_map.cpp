#include "sim/io/yaml/yaml_map.hpp"

#include "sim/io/files/input_file.hpp"

#include <charconv>
#include <filesystem>

namespace t3sim::io {

YAML::Node load_yaml_file(const std::string& path) {
  const SourcePos whole{path, 0, 0};
  const std::string content = read_input_file(path);
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError(whole, "", "is empty");
  YAML::Node root;
  try {
    root = YAML::Load(content);
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1, e.mark.column + 1}, "", "not valid YAML: " + e.msg);
  }
  if (!root.IsMap()) throw InputError({path, 1, 1}, "", "top level must be a mapping of keys to values");
  return root;
}

SourcePos pos_of(const std::string& file, const YAML::Node& node) {
  const auto m = node.Mark();
  if (m.is_null()) return {file, 0, 0};
  return {file, m.line + 1, m.column + 1};
}

MapReader::MapReader(const YAML::Node& node, std::string file, std::string path)
    : node_(node), file_(std::move(file)), path_(std::move(path)) {
  if (!node_.IsMap()) throw InputError(pos_of(file_, node_), path_, "must be a mapping (key: value lines)");
  std::set<std::string> seen;
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar()) throw InputError(pos_of(file_, kv.first), path_, "keys must be plain words");
    const std::string key = kv.first.Scalar();
    if (!seen.insert(key).second) throw InputError(pos_of(file_, kv.first), child_path(key), "duplicate key");
    all_keys_.push_back(key);
  }
}

bool MapReader::has(const std::string& key) const { return lookup(key).IsDefined(); }

YAML::Node MapReader::lookup(const std::string& key) const {
  const YAML::Node& map = node_;  // const access: a non-const operator[] may insert the key
  return map[key];
}

SourcePos MapReader::key_pos(const std::string& key) const {
  for (const auto& kv : node_)
    if (kv.first.Scalar() == key) return pos_of(file_, kv.first);
  return pos_of(file_, node_);
}

YAML::Node MapReader::required(const std::string& key) {
  used_.insert(key);
  const YAML::Node v = lookup(key);
  if (!v.IsDefined()) throw InputError(pos_of(file_, node_), child_path(key), "required key is missing");
  if (v.IsNull()) throw InputError(key_pos(key), child_path(key), "has no value");
  return v;
}

std::optional<YAML::Node> MapReader::optional(const std::string& key) {
  used_.insert(key);
  const YAML::Node v = lookup(key);
  if (!v.IsDefined()) return std::nullopt;
  if (v.IsNull()) throw InputError(key_pos(key), child_path(key), "has no value");
  return v;
}

std::vector<std::string> MapReader::keys() {
  for (const auto& k : all_keys_) used_.insert(k);
  return all_keys_;
}

void MapReader::finish() const {
  std::vector<std::string> known(used_.begin(), used_.end());
  for (const auto& key : all_keys_) {
    if (used_.count(key)) continue;
    std::string hint = closest_match(key, known);
    std::string what = "unknown key";
    if (!hint.empty()) what += "; did you mean '" + hint + "'?";
    throw InputError(key_pos(key), child_path(key), what);
  }
}

std::string MapReader::string_at(const std::string& key) { return scalar_text(required(key), file_, child_path(key)); }

std::optional<std::string> MapReader::optional_string(const std::string& key) {
  auto v = optional(key);
  if (!v) return std::nullopt;
  return scalar_text(*v, file_, child_path(key));
}

long MapReader::integer_at(const std::string& key, long min, long max) {
  return integer_value(required(key), file_, child_path(key), min, max);
}

double MapReader::quantity_at(const std::string& key, core::Quantity q) {
  return quantity_value(required(key), file_, child_path(key), q);
}

std::string scalar_text(const YAML::Node& n, const std::string& file, const std::string& key) {
  if (!n.IsScalar()) throw InputError(pos_of(file, n), key, "must be a single value, not a list or mapping");
  return n.Scalar();
}

long integer_value(const YAML::Node& n, const std::string& file, const std::string& key, long min, long max) {
  const std::string text = scalar_text(n, file, key);
  long v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size())
    throw InputError(pos_of(file, n), key, "must be a whole number", "'" + text + "'");
  if (v < min || v > max)
    throw InputError(pos_of(file, n), key, "must be between " + std::to_string(min) + " and " + std::to_string(max),
                     text);
  return v;
}

double quantity_value(const YAML::Node& n, const std::string& file, const std::string& key, core::Quantity q) {
  const std::string text = scalar_text(n, file, key);
  std::string why;
  auto v = core::parse_quantity(text, q, &why);
  if (!v) throw InputError(pos_of(file, n), key, why, "'" + text + "'");
  return *v;
}

bool bool_value(const YAML::Node& n, const std::string& file, const std::string& key) {
  const std::string text = scalar_text(n, file, key);
  if (text == "true") return true;
  if (text == "false") return false;
  throw InputError(pos_of(file, n), key, "must be true or false", "'" + text + "'");
}

YAML::Node sequence_value(const YAML::Node& n, const std::string& file, const std::string& key) {
  if (!n.IsSequence()) throw InputError(pos_of(file, n), key, "must be a YAML list ([a, b] or '- a' lines)");
  return n;
}

MapReader read_document(const std::string& path) {
  MapReader top(load_yaml_file(path), path, "");
  const long v = integer_value(top.required("schema_version"), top.file(), "schema_version", 0, 1000000);
  if (v != 1)
    throw InputError(pos_of(top.file(), top.node()["schema_version"]), "schema_version",
                     "unsupported version; this t3sim reads version 1", std::to_string(v));
  return top;
}

std::string existing_file_value(const YAML::Node& n, const std::string& file, const std::string& key) {
  const std::string full =
      std::filesystem::path(path_beside(file, scalar_text(n, file, key))).lexically_normal().string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(full, ec)) throw InputError(pos_of(file, n), key, "no such file", full);
  return full;
}

}  // namespace t3sim::io
