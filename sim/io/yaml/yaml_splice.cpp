#include "sim/io/yaml/yaml_splice.hpp"

#include <algorithm>

#include <yaml-cpp/yaml.h>

#include "sim/io/files/input_error.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {
namespace {

struct Span {
  size_t pos;
  size_t length;
  std::string text;
};

Span locate(const std::string& file, const std::string& text, const YAML::Node& root, const std::string& path,
            bool flow_map) {
  YAML::Node node = root;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const YAML::Node& current = node;
    if (!current.IsMap() || !current[key].IsDefined())
      throw InputError({file, 0, 0}, path,
                       "cannot write a value here: the key is missing (add it, then calibrate again)");
    node.reset(current[key]);  // reset, not =: yaml-cpp's operator= would overwrite the node's value
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const size_t pos = static_cast<size_t>(node.Mark().pos);
  if (flow_map) {  // from its '{' to the matching '}' on the same line
    if (!node.IsMap() || pos >= text.size() || text[pos] != '{')
      throw InputError(pos_of(file, node), path, "must be a flow mapping {...} to be written");
    int depth = 0;
    for (size_t i = pos; i < text.size() && text[i] != '\n'; ++i) {
      if (text[i] == '{') ++depth;
      if (text[i] == '}' && --depth == 0) return {pos, i + 1 - pos, ""};
    }
    throw InputError(pos_of(file, node), path, "must be a flow mapping on one line to be written");
  }
  if (!node.IsScalar()) throw InputError(pos_of(file, node), path, "must be a single value to be written");
  const std::string& scalar = node.Scalar();
  if (text.compare(pos, scalar.size(), scalar) != 0)
    throw InputError(pos_of(file, node), path, "is quoted or spans lines; write it as a plain value");
  return {pos, scalar.size(), ""};
}

}  // namespace

std::string splice_scalars(const std::string& file, const std::string& text, const std::vector<ScalarEdit>& edits) {
  const YAML::Node root = YAML::Load(text);
  std::vector<Span> spans;
  for (const auto& e : edits) {
    Span s = locate(file, text, root, e.key_path, e.flow_map);
    s.text = e.new_text;
    spans.push_back(std::move(s));
  }
  // Apply from the end so earlier positions stay valid.
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.pos > b.pos; });
  std::string out = text;
  for (const auto& s : spans) out.replace(s.pos, s.length, s.text);
  return out;
}

}  // namespace t3sim::io
