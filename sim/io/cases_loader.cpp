#include "sim/io/cases_loader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "sim/core/machine_params.hpp"
#include "sim/core/units.hpp"
#include "sim/io/measurement_table.hpp"
#include "sim/io/yaml_map.hpp"

namespace t3sim::io {
namespace {

std::string resolve(const std::string& base_file, const std::string& relative) {
  const std::filesystem::path p(relative);
  if (p.is_absolute()) return relative;
  return (std::filesystem::path(base_file).parent_path() / p).lexically_normal().string();
}

double ratio_in(MapReader& m, const std::string& key, double lo, double hi) {
  const double v = m.quantity_at(key, core::Quantity::Ratio);
  if (v < lo || v > hi)
    throw InputError(pos_of(m.file(), m.node()[key]), m.child_path(key),
                     "must be between " + core::format_quantity(lo, core::Quantity::Ratio) + " and " +
                         core::format_quantity(hi, core::Quantity::Ratio),
                     m.node()[key].Scalar());
  return v;
}

core::MetricSpec read_metric(const YAML::Node& n, const std::string& file, const std::string& path) {
  MapReader m(n, file, path);
  core::MetricSpec s;
  s.id = m.string_at("id");
  s.record = m.string_at("record");
  s.column = m.string_at("column");
  const std::string holds = m.string_at("holds");
  if (holds == "time_s")
    s.holds = core::MetricSpec::Holds::TimeSeconds;
  else if (holds == "rate_MBps")
    s.holds = core::MetricSpec::Holds::RateMBps;
  else
    throw InputError(pos_of(file, n["holds"]), m.child_path("holds"), "must be time_s or rate_MBps", "'" + holds + "'");
  m.finish();
  return s;
}

core::ToleranceRule read_tolerance(const YAML::Node& n, const std::string& file, const std::string& path) {
  MapReader m(n, file, path);
  core::ToleranceRule r;
  if (m.has("min_bytes")) r.min_bytes = m.quantity_at("min_bytes", core::Quantity::Size);
  if (m.has("max_bytes")) r.max_bytes = m.quantity_at("max_bytes", core::Quantity::Size);
  r.rel_error = ratio_in(m, "rel_error", 0, 10);
  r.why = m.optional_string("why").value_or("");
  m.finish();
  return r;
}

std::vector<std::string> read_fit_params(MapReader& s) {
  const std::string key = s.child_path("fit_params");
  const YAML::Node list = sequence_value(s.required("fit_params"), s.file(), key);
  if (list.size() == 0 || list.size() > core::kMaxFitParams)
    throw InputError(pos_of(s.file(), list), key,
                     "must name 1 to " + std::to_string(core::kMaxFitParams) + " parameters",
                     std::to_string(list.size()));
  std::vector<std::string> fittable;
  for (const auto& d : core::profile_params())
    if (d.fit) fittable.push_back(d.key);
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string name = scalar_text(list[i], s.file(), key);
    if (std::find(fittable.begin(), fittable.end(), name) == fittable.end()) {
      const std::string hint = closest_match(name, fittable);
      throw InputError(pos_of(s.file(), list[i]), key,
                       "not a parameter calibrate can fit" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                       "'" + name + "'");
    }
    if (std::find(out.begin(), out.end(), name) != out.end())
      throw InputError(pos_of(s.file(), list[i]), key, "names a parameter twice", "'" + name + "'");
    out.push_back(name);
  }
  return out;
}

}  // namespace

std::vector<core::SuiteSpec> load_suites(const std::string& cases_path) {
  const YAML::Node root = load_yaml_file(cases_path);
  MapReader top(root, cases_path, "");
  check_schema_version(top);
  MapReader suites(top.required("suites"), cases_path, "suites");
  std::vector<core::SuiteSpec> out;
  for (const auto& id : suites.keys()) {
    MapReader s(suites.node()[id], cases_path, suites.child_path(id));
    core::SuiteSpec spec;
    spec.id = id;
    spec.doc = s.optional_string("doc").value_or("");
    spec.data_path = resolve(cases_path, s.string_at("data"));
    spec.machine_path = resolve(cases_path, s.string_at("machine"));
    spec.workload_path = resolve(cases_path, s.string_at("workload"));
    spec.profile_column = s.string_at("profile_column");
    spec.bytes_column = s.string_at("bytes_column");
    const YAML::Node metrics = sequence_value(s.required("metrics"), cases_path, s.child_path("metrics"));
    for (size_t i = 0; i < metrics.size(); ++i)
      spec.metrics.push_back(
          read_metric(metrics[i], cases_path, s.child_path("metrics") + "[" + std::to_string(i) + "]"));
    const YAML::Node tols = sequence_value(s.required("tolerances"), cases_path, s.child_path("tolerances"));
    for (size_t i = 0; i < tols.size(); ++i)
      spec.tolerances.push_back(
          read_tolerance(tols[i], cases_path, s.child_path("tolerances") + "[" + std::to_string(i) + "]"));
    if (auto ex = s.optional("exceptions")) {
      sequence_value(*ex, cases_path, s.child_path("exceptions"));
      for (size_t i = 0; i < ex->size(); ++i) {
        MapReader e((*ex)[i], cases_path, s.child_path("exceptions") + "[" + std::to_string(i) + "]");
        core::ToleranceException t;
        t.case_suffix = e.string_at("case");
        t.rel_error = ratio_in(e, "rel_error", 0, 10);
        t.why = e.string_at("why");
        e.finish();
        spec.exceptions.push_back(std::move(t));
      }
    }
    spec.median_rel_error = ratio_in(s, "median_rel_error", 0, 10);
    spec.fit_min_bytes = s.quantity_at("fit_min_bytes", core::Quantity::Size);
    spec.fit_params = read_fit_params(s);
    s.finish();
    out.push_back(std::move(spec));
  }
  top.finish();
  return out;
}

std::vector<core::MeasuredCase> load_suite_cases(const core::SuiteSpec& suite) {
  const MeasurementTable table = MeasurementTable::read(suite.data_path);
  const size_t profile_col = table.column(suite.profile_column);
  const size_t bytes_col = table.column(suite.bytes_column);
  std::vector<core::MeasuredCase> cases;
  for (size_t r = 0; r < table.row_count(); ++r) {
    const std::string& profile = table.cell(r, profile_col);
    const double bytes = table.positive_number(r, bytes_col);
    for (const auto& metric : suite.metrics) {
      const double value = table.positive_number(r, table.column(metric.column));
      core::MeasuredCase c;
      c.suite = suite.id;
      c.profile = profile;
      c.metric = "time_us";
      c.record = metric.record;
      c.bytes = bytes;
      c.measured_s = metric.holds == core::MetricSpec::Holds::RateMBps ? bytes / (value * 1e6) : value;
      c.id = suite.id + "/" + profile + "/" + metric.id + "/" + core::format_quantity(bytes, core::Quantity::Size);
      bool matched = false;
      for (const auto& rule : suite.tolerances) {
        if (bytes >= rule.min_bytes && bytes <= rule.max_bytes) {
          c.tolerance = rule.rel_error;
          c.tolerance_why = rule.why;
          matched = true;
          break;
        }
      }
      if (!matched)
        throw InputError(table.cell_pos(r, bytes_col), "tolerances", "no tolerance rule covers this size",
                         table.cell(r, bytes_col));
      cases.push_back(std::move(c));
    }
  }
  for (const auto& ex : suite.exceptions) {
    bool found = false;
    for (auto& c : cases)
      if (c.id == suite.id + "/" + ex.case_suffix) {
        c.tolerance = ex.rel_error;
        c.tolerance_why = ex.why;
        found = true;
      }
    if (!found)
      throw InputError({suite.data_path, 0, 0}, "exceptions", "names no case of suite '" + suite.id + "'",
                       "'" + ex.case_suffix + "'");
  }
  return cases;
}

}  // namespace t3sim::io
