#include "sim/io/study/sweep_axes_reader.hpp"

#include <algorithm>
#include <set>

#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/validation/cases_loader.hpp"

namespace t3sim::io {
namespace {

void check_text(const std::string& text, const SourcePos& at, const std::string& key) {
  if (text.empty()) throw InputError(at, key, "must not be empty");
  if (text.find_first_of(",|\n") != std::string::npos)
    throw InputError(at, key, "must not hold ',' or '|' (it becomes a sweep.csv cell and part of a point's id)",
                     "'" + text + "'");
}

// What a settings bundle sets, as "kind name" strings (for the two-axes conflict check).
std::set<std::string> touched(const RunSettings& s) {
  std::set<std::string> out;
  for (const auto& [k, v] : s.sets) out.insert("variable " + k);
  for (const auto& [k, v] : s.params) out.insert("parameter " + k);
  if (!s.background.empty()) out.insert("background");
  for (const auto& [k, v] : s.background_sets) out.insert("background variable " + k);
  if (!s.driver.empty()) out.insert("driver");
  return out;
}

}  // namespace

std::map<std::string, std::string> read_variable_values(const YAML::Node& node, const std::string& file,
                                                        const std::string& path) {
  if (!node.IsMap()) throw InputError(pos_of(file, node), path, "must be a mapping of NAME: VALUE");
  std::map<std::string, std::string> out;
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    const std::string at = path + "." + name;
    if (name.empty() || name.find('=') != std::string::npos)
      throw InputError(pos_of(file, kv.first), at, "must name a variable (no '=')");
    out[name] = scalar_text(kv.second, file, at);
  }
  return out;
}

RunSettings RunSettings::overlaid(const RunSettings& over) const {
  RunSettings out = *this;
  for (const auto& [k, v] : over.sets) out.sets[k] = v;
  for (const auto& [k, v] : over.params) out.params[k] = v;
  if (!over.background.empty()) {
    out.background = over.background;
    out.background_pes = over.background_pes;
  }
  for (const auto& [k, v] : over.background_sets) out.background_sets[k] = v;
  if (!over.driver.empty()) out.driver = over.driver;
  return out;
}

void RunSettings::apply_to(protocol::RunRequest& r) const {
  for (const auto& [k, v] : sets) r.variables[k] = v;
  for (const auto& [k, v] : params) r.params.emplace_back(k, v);
  if (!driver.empty()) r.driver = driver;
  if (!background.empty()) {
    r.background = background;
    r.background_pes = background_pes;
    r.background_variables = background_sets;
  }
}

RunSettings read_run_settings(const YAML::Node& node, const std::string& file, const std::string& path) {
  RunSettings s;
  if (node.IsNull()) return s;  // `quiet:` with nothing after it
  MapReader m(node, file, path);
  if (auto n = m.optional("set")) s.sets = read_variable_values(*n, file, m.child_path("set"));
  if (auto n = m.optional("param")) {
    const std::string at = m.child_path("param");
    if (!n->IsMap()) throw InputError(pos_of(file, *n), at, "must be a mapping of PARAMETER: VALUE");
    for (const auto& kv : *n) {
      const std::string key = kv.first.Scalar();
      if (core::is_enum_param(key)) {  // a named value: one of its names
        const std::string text = scalar_text(kv.second, file, at + "." + key);
        core::MachineSpec probe;
        if (!core::set_enum_param(probe, key, text))
          throw InputError(pos_of(file, kv.second), at + "." + key, "must be " + core::enum_param_choices(key),
                           "'" + text + "'");
        s.params[key] = text;
        continue;
      }
      const auto q = core::param_quantity(key);
      if (!q)
        throw InputError(pos_of(file, kv.first), at + "." + key,
                         "names no machine parameter (`t3sim describe machine` lists them; a profile's as "
                         "software.profiles.NAME.KEY)");
      quantity_value(kv.second, file, at + "." + key, *q);  // its units, checked here and not in a child
      s.params[key] = scalar_text(kv.second, file, at + "." + key);
    }
  }
  if (m.has("driver")) {  // the transport: a study's axis over drivers sets packets beside flows
    s.driver = m.string_at("driver");
    if (s.driver != "fast" && s.driver != "reference" && s.driver != "packet")
      throw InputError(pos_of(file, m.node()["driver"]), m.child_path("driver"), "must be fast, reference or packet",
                       "'" + s.driver + "'");
  }
  if (auto n = m.optional("background")) s.background = existing_file_value(*n, file, m.child_path("background"));
  if (m.has("background_pes")) {
    if (s.background.empty())
      throw InputError(m.key_pos("background_pes"), m.child_path("background_pes"), "needs a background");
    s.background_pes = static_cast<int>(m.integer_at("background_pes", 1, 1 << 20));
  }
  if (auto n = m.optional("background_set")) {
    if (s.background.empty()) throw InputError(pos_of(file, *n), m.child_path("background_set"), "needs a background");
    s.background_sets = read_variable_values(*n, file, m.child_path("background_set"));
  }
  m.finish();
  return s;
}

std::vector<SweepAxis> read_sweep_axes(MapReader& top, const std::vector<std::string>& reserved_columns) {
  std::vector<SweepAxis> axes;
  auto node = top.optional("axes");
  if (!node) return axes;
  const std::string& file = top.file();
  if (!node->IsMap() || node->size() == 0)
    throw InputError(pos_of(file, *node), "axes", "must map each axis name to its labelled values");
  std::map<std::string, std::string> owner;  // what an axis sets -> that axis
  for (const auto& axis_kv : *node) {
    SweepAxis axis;
    axis.name = axis_kv.first.Scalar();
    const std::string path = "axes." + axis.name;
    check_text(axis.name, pos_of(file, axis_kv.first), path);
    if (std::find(reserved_columns.begin(), reserved_columns.end(), axis.name) != reserved_columns.end())
      throw InputError(pos_of(file, axis_kv.first), path, "is the name of one of sweep.csv's own columns");
    const YAML::Node values = axis_kv.second;
    if (!values.IsMap() || values.size() == 0)
      throw InputError(pos_of(file, values), path, "must map each label to its settings (at least one)");
    std::set<std::string> sets_here;
    for (const auto& v : values) {
      AxisValue value;
      value.label = v.first.Scalar();
      const std::string at = path + "." + value.label;
      check_text(value.label, pos_of(file, v.first), at);
      value.settings = read_run_settings(v.second, file, at);
      for (const auto& what : touched(value.settings)) {
        sets_here.insert(what);
        const auto other = owner.find(what);
        if (other != owner.end() && other->second != axis.name)
          throw InputError(pos_of(file, v.first), at,
                           "sets the " + what + ", as axis '" + other->second +
                               "' does: give each thing one axis (which would win is not obvious)");
      }
      axis.values.push_back(value);
    }
    for (const auto& what : sets_here) owner[what] = axis.name;
    axes.push_back(axis);
  }
  return axes;
}

std::map<std::string, std::string> read_fitted_variables(MapReader& top) {
  std::map<std::string, std::string> out;
  auto node = top.optional("fitted");
  if (!node) return out;
  MapReader f(*node, top.file(), "fitted");
  const std::string cases = existing_file_value(f.required("cases"), top.file(), "fitted.cases");
  const std::string suite = f.string_at("suite");
  f.finish();
  for (const auto& s : load_suites(cases)) {
    if (s.id != suite) continue;
    for (const auto& v : s.fit_variables) {
      if (!v.of_the_model()) continue;  // a row's conditions
      const auto it = s.fitted.find(v.variable);
      if (it == s.fitted.end() || !it->second.count(""))
        throw InputError(f.key_pos("suite"), "fitted.suite",
                         "has not been calibrated: " + v.variable +
                             " has no fitted value (run t3sim calibrate --suite " + suite + ")");
      out[v.variable] = it->second.at("");
    }
    return out;
  }
  throw InputError(f.key_pos("suite"), "fitted.suite", "names no suite of " + cases, "'" + suite + "'");
}

}  // namespace t3sim::io
