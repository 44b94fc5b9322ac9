#include "sim/io/workload/workload_values.hpp"

#include <charconv>

#include "sim/io/files/input_error.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {

std::string resolve_text(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key, std::string* shown) {
  const std::string text = scalar_text(n, ctx.file, key);
  if (text.empty() || text[0] != '$' || text == "$size") {
    if (shown) *shown = "'" + text + "'";
    return text;
  }
  auto it = ctx.variables.find(text.substr(1));
  if (it == ctx.variables.end())
    throw InputError(pos_of(ctx.file, n), key, "names no declared variable", "'" + text + "'");
  if (shown) *shown = text + " = '" + it->second + "'";
  return it->second;
}

size_t resolve_name(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key,
                    const std::vector<std::string>& names) {
  std::string shown;
  const std::string text = resolve_text(n, ctx, key, &shown);
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == text) return i;
  throw InputError(pos_of(ctx.file, n), key, "must be " + core::join_names(names, ", ", " or "), shown);
}

long resolve_int(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key, long min, long max) {
  std::string shown;
  const std::string text = resolve_text(n, ctx, key, &shown);
  long v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    throw InputError(pos_of(ctx.file, n), key, "must be a whole number", shown);
  if (v < min || v > max)
    throw InputError(pos_of(ctx.file, n), key, "must be between " + std::to_string(min) + " and " + std::to_string(max),
                     shown);
  return v;
}

bool resolve_bool(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key) {
  std::string shown;
  const std::string text = resolve_text(n, ctx, key, &shown);
  if (text == "true" || text == "yes") return true;
  if (text == "false" || text == "no") return false;
  throw InputError(pos_of(ctx.file, n), key, "must be true or false", shown);
}

double resolve_quantity(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key, core::Quantity q,
                        double min, double max) {
  std::string shown;
  const std::string text = resolve_text(n, ctx, key, &shown);
  std::string why;
  const auto v = core::parse_quantity(text, q, &why);
  if (!v)
    throw InputError(pos_of(ctx.file, n), key,
                     "must be a quantity in " + std::string(core::unit_names(q)) + (why.empty() ? "" : ": " + why),
                     shown);
  if (*v < min || *v > max)
    throw InputError(pos_of(ctx.file, n), key,
                     "must be between " + core::format_quantity(min, q) + " and " + core::format_quantity(max, q),
                     shown);
  return *v;
}

int resolve_pe(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key) {
  return static_cast<int>(resolve_int(n, ctx, key, 0, ctx.pes - 1));
}

}  // namespace t3sim::io
