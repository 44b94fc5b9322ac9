#include "sim/io/validation/cases_loader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/support/units.hpp"
#include "sim/io/validation/measurement_table.hpp"
#include "sim/io/yaml/yaml_map.hpp"

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

std::map<std::string, std::string> read_text_map(const YAML::Node& n, const std::string& file,
                                                 const std::string& path) {
  MapReader m(n, file, path);
  std::map<std::string, std::string> out;
  for (const auto& key : m.keys()) out[key] = scalar_text(m.node()[key], file, m.child_path(key));
  return out;
}

core::Quantity quantity_named(MapReader& m, const std::string& key) {
  const std::string text = m.string_at(key);
  if (text == "time") return core::Quantity::Time;
  if (text == "size") return core::Quantity::Size;
  if (text == "bandwidth") return core::Quantity::Bandwidth;
  throw InputError(pos_of(m.file(), m.node()[key]), m.child_path(key), "must be time, size or bandwidth",
                   "'" + text + "'");
}

calib::FitVariable read_fit_variable(const YAML::Node& n, const std::string& file, const std::string& path) {
  MapReader m(n, file, path);
  calib::FitVariable v;
  v.variable = m.string_at("variable");
  if (m.has("job")) {
    const std::string job = m.string_at("job");
    if (job != "main" && job != "background")
      throw InputError(pos_of(file, m.node()["job"]), m.child_path("job"), "must be main or background",
                       "'" + job + "'");
    v.background = job == "background";
  }
  v.per_row_column = m.optional_string("per_row").value_or("");
  if (auto w = m.optional("where")) v.where = read_text_map(*w, file, m.child_path("where"));
  const YAML::Node ms = sequence_value(m.required("metrics"), file, m.child_path("metrics"));
  for (size_t i = 0; i < ms.size(); ++i) v.metrics.push_back(scalar_text(ms[i], file, m.child_path("metrics")));
  const core::Quantity q = quantity_named(m, "quantity");
  v.quantity_text = m.string_at("quantity");
  const std::string range = m.string_at("range");
  const size_t dots = range.find("..");
  std::optional<double> lo, hi;
  if (dots != std::string::npos) {
    lo = core::parse_quantity(range.substr(0, dots), q, nullptr);
    hi = core::parse_quantity(range.substr(dots + 2), q, nullptr);
  }
  if (!lo || !hi || !(*lo > 0) || !(*hi > *lo))
    throw InputError(pos_of(file, m.node()["range"]), m.child_path("range"),
                     "must be LOW..HIGH with 0 < LOW < HIGH, in units of the quantity", "'" + range + "'");
  v.low = *lo;
  v.high = *hi;
  m.finish();
  return v;
}

calib::MetricSpec read_metric(const YAML::Node& n, const std::string& file, const std::string& path) {
  MapReader m(n, file, path);
  calib::MetricSpec s;
  s.id = m.string_at("id");
  s.column = m.string_at("column");
  if (auto r = m.optional("report_only")) s.report_only = bool_value(*r, file, m.child_path("report_only"));
  if (m.has("statistic")) {
    const std::string st = m.string_at("statistic");
    const auto statistic = core::enum_value<calib::Statistic>(st);
    if (!statistic)
      throw InputError(pos_of(file, n["statistic"]), m.child_path("statistic"),
                       "must be " + core::enum_names_text<calib::Statistic>(", ", " or "), "'" + st + "'");
    s.statistic = *statistic;
    if (s.statistic == calib::Statistic::LabelSpan) s.record = m.string_at("record");
  } else {
    s.statistic = calib::Statistic::RecordDuration;
    s.record = m.string_at("record");
    const std::string holds = m.string_at("holds");
    const auto held = core::enum_value<calib::MetricSpec::Holds>(holds);
    if (!held)
      throw InputError(pos_of(file, n["holds"]), m.child_path("holds"),
                       "must be " + core::enum_names_text<calib::MetricSpec::Holds>(", ", " or "), "'" + holds + "'");
    s.holds = *held;
  }
  if (auto v = m.optional("variables")) s.variables = read_text_map(*v, file, m.child_path("variables"));
  m.finish();
  return s;
}

calib::ToleranceRule read_tolerance(const YAML::Node& n, const std::string& file, const std::string& path) {
  MapReader m(n, file, path);
  calib::ToleranceRule r;
  if (auto w = m.optional("where")) r.where = read_text_map(*w, file, m.child_path("where"));
  if (m.has("min_bytes")) r.min_bytes = m.quantity_at("min_bytes", core::Quantity::Size);
  if (m.has("max_bytes")) r.max_bytes = m.quantity_at("max_bytes", core::Quantity::Size);
  r.metric = m.optional_string("metric").value_or("");
  r.rel_error = ratio_in(m, "rel_error", 0, 10);
  r.why = m.optional_string("why").value_or("");
  m.finish();
  return r;
}

// Every metric id named by fit_metrics, orderings and tolerance rules must be one of the suite's metrics.
void check_metric_names(const calib::SuiteSpec& spec, const MapReader& s) {
  std::vector<std::string> ids;
  for (const auto& m : spec.metrics) ids.push_back(m.id);
  auto check = [&](const std::string& name, const std::string& where) {
    if (std::find(ids.begin(), ids.end(), name) != ids.end()) return;
    const std::string hint = closest_match(name, ids);
    throw InputError(s.key_pos(where), s.child_path(where),
                     "names no metric of this suite" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                     "'" + name + "'");
  };
  for (const auto& m : spec.fit_metrics) check(m, "fit_metrics");
  for (const auto& o : spec.orderings)
    for (const auto& m : o.metrics) check(m, "orderings");
  for (const auto& t : spec.tolerances)
    if (!t.metric.empty()) check(t.metric, "tolerances");
  for (const auto& v : spec.fit_variables)
    for (const auto& m : v.metrics) check(m, "fit_variables");
  for (const auto& o : spec.paired_orderings) {
    check(o.first, "paired_orderings");
    check(o.second, "paired_orderings");
  }
}

// A suite's list of parameters to fit under `key`: 1 to kMaxFitParams names, each one of `fittable`
// (`what` says which kind, in the error), none twice.
std::vector<std::string> read_param_list(MapReader& s, const std::string& list_key,
                                         const std::vector<std::string>& fittable, const std::string& what) {
  const std::string key = s.child_path(list_key);
  const YAML::Node list = sequence_value(s.required(list_key), s.file(), key);
  if (list.size() == 0 || list.size() > calib::kMaxFitParams)
    throw InputError(pos_of(s.file(), list), key,
                     "must name 1 to " + std::to_string(calib::kMaxFitParams) + " parameters",
                     std::to_string(list.size()));
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string name = scalar_text(list[i], s.file(), key);
    if (std::find(fittable.begin(), fittable.end(), name) == fittable.end()) {
      const std::string hint = closest_match(name, fittable);
      throw InputError(pos_of(s.file(), list[i]), key,
                       "not " + what + " calibrate can fit" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                       "'" + name + "'");
    }
    if (std::find(out.begin(), out.end(), name) != out.end())
      throw InputError(pos_of(s.file(), list[i]), key, "names a parameter twice", "'" + name + "'");
    out.push_back(name);
  }
  return out;
}

// A profile's parameters (`fit_params`): those declared with a fit range.
std::vector<std::string> read_fit_params(MapReader& s) {
  std::vector<std::string> fittable;
  for (const auto& d : core::profile_params())
    if (d.fit) fittable.push_back(d.key);
  return read_param_list(s, "fit_params", fittable, "a parameter");
}

// The network parameters a suite fits (`fit_network`): those declared with a fit range.
std::vector<std::string> read_fit_network(MapReader& s) {
  std::vector<std::string> fittable;
  for (const auto& d : core::network_params())
    if (d.fit) fittable.push_back(d.key);
  return read_param_list(s, "fit_network", fittable, "a network parameter");
}

calib::RowSetting read_row_setting(const YAML::Node& n, const std::string& file, const std::string& path) {
  MapReader m(n, file, path);
  calib::RowSetting r;
  if (auto w = m.optional("where")) r.where = read_text_map(*w, file, m.child_path("where"));
  if (auto p = m.optional("params"))
    for (const auto& [key, value] : read_text_map(*p, file, m.child_path("params"))) r.params.emplace_back(key, value);
  if (auto v = m.optional("variables")) r.variables = read_text_map(*v, file, m.child_path("variables"));
  if (m.has("pes")) r.pes = static_cast<int>(m.integer_at("pes", 1, core::kMaxNodes));
  if (m.has("size")) r.size = m.quantity_at("size", core::Quantity::Size);
  m.finish();
  return r;
}

// `text` with every {COLUMN} replaced by the row's value; "" when it names a column the row lacks
// (`missing` then says which).
std::string fill_columns(const std::string& text, const std::map<std::string, std::string>& row, std::string* missing) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = text.find('{', at);
    if (open == std::string::npos) break;
    const size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    const std::string column = text.substr(open + 1, close - open - 1);
    auto it = row.find(column);
    if (it == row.end()) {
      *missing = column;
      return "";
    }
    out += text.substr(at, open - at) + it->second;
    at = close + 1;
  }
  return out + text.substr(at);
}

}  // namespace

std::vector<calib::SuiteSpec> load_suites(const std::string& cases_path) {
  MapReader top = read_document(cases_path);
  MapReader suites(top.required("suites"), cases_path, "suites");
  std::vector<calib::SuiteSpec> out;
  for (const auto& id : suites.keys()) {
    MapReader s(suites.node()[id], cases_path, suites.child_path(id));
    calib::SuiteSpec spec;
    spec.id = id;
    spec.doc = s.optional_string("doc").value_or("");
    spec.data_path = resolve(cases_path, s.string_at("data"));
    spec.machine_path = resolve(cases_path, s.string_at("machine"));
    spec.workload_path = resolve(cases_path, s.string_at("workload"));
    spec.driver = s.optional_string("driver").value_or("");
    if (!spec.driver.empty() && spec.driver != "fast" && spec.driver != "reference" && spec.driver != "packet")
      throw InputError(pos_of(cases_path, s.node()["driver"]), s.child_path("driver"),
                       "must be fast, reference or packet", "'" + spec.driver + "'");
    spec.peer = s.optional_string("peer").value_or("");
    if (auto rs = s.optional("row_settings")) {
      sequence_value(*rs, cases_path, s.child_path("row_settings"));
      for (size_t i = 0; i < rs->size(); ++i)
        spec.row_settings.push_back(
            read_row_setting((*rs)[i], cases_path, s.child_path("row_settings") + "[" + std::to_string(i) + "]"));
    }
    spec.profile = s.optional_string("profile").value_or("");
    spec.profile_column = s.optional_string("profile_column").value_or("");
    if (spec.profile.empty() == spec.profile_column.empty())
      throw InputError(pos_of(cases_path, s.node()), s.child_path("profile"),
                       "give exactly one of 'profile' or 'profile_column'");
    spec.bytes_column = s.optional_string("bytes_column").value_or("");
    if (auto vars = s.optional("row_variables")) {
      MapReader v(*vars, cases_path, s.child_path("row_variables"));
      for (const auto& name : v.keys())
        spec.row_variables.emplace_back(name, scalar_text(v.node()[name], cases_path, v.child_path(name)));
    }
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
        calib::ToleranceException t;
        t.case_suffix = e.string_at("case");
        t.rel_error = ratio_in(e, "rel_error", 0, 10);
        t.why = e.string_at("why");
        e.finish();
        spec.exceptions.push_back(std::move(t));
      }
    }
    spec.median_rel_error = ratio_in(s, "median_rel_error", 0, 10);
    if (s.has("fit_min_bytes")) spec.fit_min_bytes = s.quantity_at("fit_min_bytes", core::Quantity::Size);
    if (auto vars = s.optional("variables"))
      spec.variables = read_text_map(*vars, cases_path, s.child_path("variables"));
    if (s.has("background")) {
      spec.background_path = resolve(cases_path, s.string_at("background"));
      if (s.has("background_pes")) spec.background_pes = static_cast<int>(s.integer_at("background_pes", 1, 1 << 20));
      if (auto w = s.optional("background_where"))
        spec.background_where = read_text_map(*w, cases_path, s.child_path("background_where"));
    }
    if (auto ic = s.optional("id_column")) {
      if (ic->IsSequence())
        for (size_t i = 0; i < ic->size(); ++i)
          spec.id_columns.push_back(scalar_text((*ic)[i], cases_path, s.child_path("id_column")));
      else
        spec.id_columns.push_back(scalar_text(*ic, cases_path, s.child_path("id_column")));
    }
    if (auto fv = s.optional("fit_variables")) {
      sequence_value(*fv, cases_path, s.child_path("fit_variables"));
      for (size_t i = 0; i < fv->size(); ++i)
        spec.fit_variables.push_back(
            read_fit_variable((*fv)[i], cases_path, s.child_path("fit_variables") + "[" + std::to_string(i) + "]"));
      for (const auto& v : spec.fit_variables)
        if (v.background && spec.background_path.empty())
          throw InputError(s.key_pos("fit_variables"), s.child_path("fit_variables"),
                           "fits a background variable, and the suite has no background", "'" + v.variable + "'");
    }
    if (auto fitted = s.optional("fitted")) {
      MapReader f(*fitted, cases_path, s.child_path("fitted"));
      for (const auto& name : f.keys()) {
        const YAML::Node v = f.node()[name];
        if (v.IsMap())
          spec.fitted[name] = read_text_map(v, cases_path, f.child_path(name));
        else
          spec.fitted[name][""] = scalar_text(v, cases_path, f.child_path(name));
      }
    }
    if (auto po = s.optional("paired_orderings")) {
      sequence_value(*po, cases_path, s.child_path("paired_orderings"));
      for (size_t i = 0; i < po->size(); ++i) {
        MapReader o((*po)[i], cases_path, s.child_path("paired_orderings") + "[" + std::to_string(i) + "]");
        calib::PairedOrdering p;
        if (auto w = o.optional("where")) p.where = read_text_map(*w, cases_path, o.child_path("where"));
        p.first = o.string_at("first");
        p.second = o.string_at("second");
        if (o.has("tie")) p.tie = ratio_in(o, "tie", 0, 1);
        o.finish();
        spec.paired_orderings.push_back(std::move(p));
      }
    }
    spec.record_driver = s.optional_string("record_driver").value_or("");
    if (!spec.record_driver.empty() && spec.record_driver != "fast" && spec.record_driver != "reference" &&
        spec.record_driver != "packet")
      throw InputError(pos_of(cases_path, s.node()["record_driver"]), s.child_path("record_driver"),
                       "must be fast, reference or packet", "'" + spec.record_driver + "'");
    if (auto r = s.optional("on_request")) spec.on_request = bool_value(*r, cases_path, s.child_path("on_request"));
    if (auto fw = s.optional("fit_where")) {
      if (!s.has("fit_network") && !s.has("fit_params"))
        throw InputError(s.key_pos("fit_where"), s.child_path("fit_where"),
                         "goes with fit_network or fit_params (the rows the parameters are fitted to)");
      spec.fit_where = read_text_map(*fw, cases_path, s.child_path("fit_where"));
    }
    if (!spec.peer.empty()) {  // a peer's figures check a configuration; nothing is fitted to them
      for (const char* key : {"fit_params", "fit_variables", "fit_network"})
        if (s.has(key))
          throw InputError(s.key_pos(key), s.child_path(key),
                           "a suite of a peer's figures (peer: " + spec.peer + ") is checked, never fitted");
    } else if (s.has("fit_network")) {
      if (s.has("fit_params") || s.has("fit_variables"))
        throw InputError(s.key_pos("fit_network"), s.child_path("fit_network"),
                         "give fit_network or fit_params / fit_variables, not both (one model per suite)");
      spec.fit_network = read_fit_network(s);
    } else if (!spec.record_driver.empty() && !s.has("fit_params") && !s.has("fit_variables")) {
      // Another model's figures judged as they are (a fit elsewhere is what they test): nothing fitted,
      // so no key of a fit, and not judged by the driver that made them (it would only meet itself).
      for (const char* key : {"fit_metrics", "fit_min_bytes", "fitted"})
        if (s.has(key))
          throw InputError(s.key_pos(key), s.child_path(key),
                           "belongs to a fit, and this suite of the " + spec.record_driver +
                               " driver's figures fits nothing (no fit_network or fit_params)");
      if (spec.record_driver == (spec.driver.empty() ? "fast" : spec.driver))
        throw InputError(pos_of(cases_path, s.node()["record_driver"]), s.child_path("record_driver"),
                         "is the driver the suite is judged by (driver: " +
                             (spec.driver.empty() ? std::string("fast, the default") : spec.driver) +
                             "): its figures would only meet themselves",
                         "'" + spec.record_driver + "'");
    } else if (spec.fit_variables.empty() || s.has("fit_params")) {
      spec.fit_params = read_fit_params(s);
    }
    if (s.has("packet_fit_params")) {
      if (spec.fit_params.empty())
        throw InputError(s.key_pos("packet_fit_params"), s.child_path("packet_fit_params"),
                         "goes with fit_params (the packet driver re-fits some of a profile's fitted parameters)");
      spec.packet_fit_params = read_param_list(s, "packet_fit_params", spec.fit_params, "one of fit_params");
    }
    if (auto fm = s.optional("fit_metrics")) {
      sequence_value(*fm, cases_path, s.child_path("fit_metrics"));
      for (size_t i = 0; i < fm->size(); ++i)
        spec.fit_metrics.push_back(scalar_text((*fm)[i], cases_path, s.child_path("fit_metrics")));
    }
    if (auto ord = s.optional("orderings")) {
      sequence_value(*ord, cases_path, s.child_path("orderings"));
      for (size_t i = 0; i < ord->size(); ++i) {
        MapReader o((*ord)[i], cases_path, s.child_path("orderings") + "[" + std::to_string(i) + "]");
        calib::OrderingSpec spec_o;
        spec_o.group_column = o.string_at("group_column");
        const YAML::Node ms = sequence_value(o.required("metrics"), cases_path, o.child_path("metrics"));
        for (size_t k = 0; k < ms.size(); ++k)
          spec_o.metrics.push_back(scalar_text(ms[k], cases_path, o.child_path("metrics")));
        if (o.has("tie")) spec_o.tie = ratio_in(o, "tie", 0, 1);
        o.finish();
        spec.orderings.push_back(std::move(spec_o));
      }
    }
    check_metric_names(spec, s);
    // A trace has no variables to set (its PEs and size come from row_settings).
    if (calib::is_trace_path(spec.workload_path)) {
      for (const char* key : {"row_variables", "variables", "fit_variables", "background"})
        if (s.has(key))
          throw InputError(s.key_pos(key), s.child_path(key),
                           "a trace workload (.t3t) takes no workload variables; give its PEs and size by "
                           "row_settings");
      for (size_t i = 0; i < spec.metrics.size(); ++i)
        if (!spec.metrics[i].variables.empty())
          throw InputError(pos_of(cases_path, s.node()["metrics"][i]["variables"]),
                           s.child_path("metrics") + "[" + std::to_string(i) + "].variables",
                           "a trace workload (.t3t) takes no workload variables");
    }
    s.finish();
    out.push_back(std::move(spec));
  }
  top.finish();
  return out;
}

std::vector<calib::MeasuredCase> load_suite_cases(const calib::SuiteSpec& suite) {
  const MeasurementTable table = MeasurementTable::read(suite.data_path);
  const bool by_column = !suite.profile_column.empty();
  const size_t profile_col = by_column ? table.column(suite.profile_column) : 0;
  const bool has_bytes = !suite.bytes_column.empty();
  const size_t bytes_col = has_bytes ? table.column(suite.bytes_column) : 0;
  std::vector<std::pair<std::string, size_t>> var_cols;
  for (const auto& [var, column] : suite.row_variables) var_cols.emplace_back(var, table.column(column));
  for (const auto& o : suite.orderings) table.column(o.group_column);  // named columns must exist
  for (const auto& [column, value] : suite.fit_where) table.column(column);

  std::vector<size_t> id_cols;
  for (const auto& column : suite.id_columns) id_cols.push_back(table.column(column));
  for (const auto& v : suite.fit_variables)
    if (!v.per_row_column.empty()) table.column(v.per_row_column);  // named columns must exist

  std::vector<calib::MeasuredCase> cases;
  for (size_t r = 0; r < table.row_count(); ++r) {
    std::map<std::string, std::string> row;
    for (size_t col = 0; col < table.columns().size(); ++col) row[table.columns()[col]] = table.cell(r, col);
    calib::RunKey run;
    run.profile = by_column ? table.cell(r, profile_col) : suite.profile;
    run.variables = suite.variables;
    // A machine or workload named by the row's columns ({COLUMN}), and the settings of the rows it matches.
    for (auto [path, key] : {std::pair{&suite.machine_path, &run.machine}, {&suite.workload_path, &run.workload}}) {
      if (path->find('{') == std::string::npos) continue;
      std::string missing;
      *key = fill_columns(*path, row, &missing);
      if (key->empty())
        throw InputError({suite.data_path, 0, 0}, key == &run.machine ? "machine" : "workload",
                         "names column '" + missing + "', which the table lacks", *path);
    }
    for (const auto& setting : suite.row_settings) {
      if (!calib::row_matches(setting.where, row)) continue;
      run.params.insert(run.params.end(), setting.params.begin(), setting.params.end());
      for (const auto& [var, value] : setting.variables) run.variables[var] = value;
      if (setting.pes > 0) run.pes = setting.pes;
      if (setting.size > 0) run.size = setting.size;
    }
    std::string row_id = by_column ? run.profile : "";
    for (size_t i = 0; i < id_cols.size(); ++i)
      row_id += (i > 0 ? "/" : "") + suite.id_columns[i] + "=" + table.cell(r, id_cols[i]);
    for (const auto& [var, col] : var_cols) {
      run.variables[var] = table.cell(r, col);
      row_id += (row_id.empty() ? "" : "/") + var + "=" + table.cell(r, col);
    }
    // Run conditions: the background on the rows that had it, and the values calibrate fitted.
    run.background = !suite.background_path.empty() && calib::row_matches(suite.background_where, row);
    // A value fitted once for the main job (the compute per step) holds for every row; a background
    // value only where the background runs; a per-row value on the rows it was fitted to.
    for (const auto& v : suite.fit_variables) {
      if (!v.of_the_model() && (!calib::row_matches(v.where, row) || (v.background && !run.background))) continue;
      auto it = suite.fitted.find(v.variable);
      if (it == suite.fitted.end()) continue;  // not fitted yet: the workload's own value
      auto value = it->second.find(v.per_row_column.empty() ? "" : row.at(v.per_row_column));
      if (value == it->second.end()) continue;
      (v.background ? run.background_variables : run.variables)[v.variable] = value->second;
    }
    const double bytes = has_bytes ? table.positive_number(r, bytes_col) : 0;
    for (const auto& metric : suite.metrics) {
      if (metric.statistic == calib::Statistic::RecordDuration && !has_bytes)
        throw InputError({suite.data_path, 0, 0}, metric.id, "a record metric needs the suite's bytes_column");
      const size_t col = table.column(metric.column);
      const double value = table.positive_number(r, col, metric.report_only);
      calib::MeasuredCase c;
      c.suite = suite.id;
      c.metric = metric.id;
      c.statistic = metric.statistic;
      c.unit = calib::statistic_unit(metric.statistic);
      c.run = run;
      for (const auto& [var, value] : metric.variables) c.run.variables[var] = value;
      c.row = row;
      // A row the network parameters were fitted to is no prediction (held-back rows are).
      if (!suite.fit_network.empty() && calib::row_matches(suite.fit_where, row)) c.fitted = true;
      if (!suite.fit_params.empty() && !suite.fit_where.empty() && calib::row_matches(suite.fit_where, row) &&
          suite.fits_metric(metric.id))
        c.fitted = true;
      for (const auto& v : suite.fit_variables)
        if (calib::row_matches(v.where, row) &&
            std::find(v.metrics.begin(), v.metrics.end(), metric.id) != v.metrics.end())
          c.fitted = true;
      c.record = metric.record;
      c.bytes = bytes;
      c.measured = value;
      c.report_only = metric.report_only;
      if (metric.statistic == calib::Statistic::RecordDuration)
        c.measured = metric.holds == calib::MetricSpec::Holds::RateMBps ? bytes / value : value * 1e6;
      c.id = suite.id + "/" + row_id + "/" + metric.id +
             (has_bytes ? "/" + core::format_quantity(bytes, core::Quantity::Size) : "");
      bool matched = metric.report_only;
      if (metric.report_only) c.tolerance_why = "reported only";
      for (const auto& rule : suite.tolerances) {
        if (metric.report_only) break;
        if (bytes >= rule.min_bytes && bytes <= rule.max_bytes && (rule.metric.empty() || rule.metric == metric.id) &&
            calib::row_matches(rule.where, row)) {
          c.tolerance = rule.rel_error;
          c.tolerance_why = rule.why;
          matched = true;
          break;
        }
      }
      if (!matched) throw InputError(table.cell_pos(r, col), "tolerances", "no tolerance rule covers this case", c.id);
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
