#include "sim/io/study/sweep_spec.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/study/sweep_axes_reader.hpp"
#include "sim/io/trace/common/trace_lines.hpp"
#include "sim/io/trace/shmem/shmem_trace_reader.hpp"
#include "sim/io/workload/workload_loader.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {
namespace {

std::vector<std::string> paths(MapReader& m, const std::string& key, bool required = true) {
  if (!required && !m.has(key)) return {};
  const YAML::Node list = sequence_value(m.required(key), m.file(), key);
  if (list.size() == 0) throw InputError(pos_of(m.file(), list), key, "must list at least one file");
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i)
    out.push_back(existing_file_value(list[i], m.file(), key + "[" + std::to_string(i) + "]"));
  return out;
}

const std::vector<std::string> kColumnNames = {"index",
                                               "machine",
                                               "workload",
                                               "pes",
                                               "placement",
                                               "bytes",
                                               "makespan_us",
                                               "pe_MBps_min",
                                               "pe_MBps_median",
                                               "pe_MBps_mean",
                                               "pe_MBps_max",
                                               "pair_MBps_median",
                                               "max_link_utilisation",
                                               "busiest_link",
                                               "bisection_utilisation",
                                               "transfers",
                                               "makespan_us_p05",
                                               "makespan_us_p95",
                                               "pe_MBps_median_p05",
                                               "pe_MBps_median_p95"};

// `plot:` names columns: the point's own (pes, bytes, ...) or an axis; y a measured one.
SweepSpec::Plot read_sweep_plot(MapReader& top, const SweepSpec& s) {
  SweepSpec::Plot plot;
  auto node = top.optional("plot");
  if (!node) return plot;
  if (s.axes.empty())
    throw InputError(top.key_pos("plot"), "plot", "needs axes (without them the default figures apply)");
  MapReader m(*node, top.file(), "plot");
  std::vector<std::string> names = {"machine", "workload", "pes", "placement", "bytes"};
  for (const auto& a : s.axes) names.push_back(a.name);
  auto column = [&](const char* key, bool required) {
    if (!required && !m.has(key)) return std::string();
    const std::string name = m.string_at(key);
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw InputError(pos_of(top.file(), m.lookup(key)), m.child_path(key),
                       "must name an axis or one of machine, workload, pes, placement, bytes", "'" + name + "'");
    return name;
  };
  plot.x = column("x", true);
  plot.series = column("series", false);
  plot.rows = column("rows", false);
  plot.columns = column("columns", false);
  const std::vector<std::string> measured = {"main_job_end_s",       "makespan_s",  "pe_MBps_median",
                                             "pe_MBps_min",          "pe_MBps_max", "max_link_utilisation",
                                             "bisection_utilisation"};
  plot.y = m.has("y") ? m.string_at("y") : "makespan_s";
  if (std::find(measured.begin(), measured.end(), plot.y) == measured.end())
    throw InputError(pos_of(top.file(), m.lookup("y")), "plot.y",
                     "must be main_job_end_s, makespan_s, pe_MBps_median, pe_MBps_min, pe_MBps_max, "
                     "max_link_utilisation or bisection_utilisation",
                     "'" + plot.y + "'");
  const std::vector<std::string> used = {plot.x, plot.series, plot.rows, plot.columns};
  for (size_t i = 0; i < used.size(); ++i)
    for (size_t j = i + 1; j < used.size(); ++j)
      if (!used[i].empty() && used[i] == used[j])
        throw InputError(pos_of(top.file(), *node), "plot", "uses " + used[i] + " twice");
  m.finish();
  return plot;
}

}  // namespace

const std::vector<std::string>& sweep_columns() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> c = kColumnNames;
    c.insert(c.end(), {"main_job_end_us", "id"});
    return c;
  }();
  return all;
}

std::string sweep_header(const SweepSpec& spec) {
  std::string header;
  for (const auto& c : kColumnNames) header += c + ",";
  if (!spec.axes.empty()) {
    header += "main_job_end_us,";
    for (const auto& a : spec.axes) header += a.name + ",";
  }
  return header + "id";
}

std::string SweepPoint::id() const {
  std::string id = std::filesystem::path(machine).filename().string() + "|" +
                   std::filesystem::path(workload).filename().string() + "|" + std::to_string(pes) + "|" + placement +
                   "|" + std::to_string(static_cast<long long>(bytes));
  for (const auto& [axis, label] : labels) id += "|" + axis + "=" + label;
  // A driver set outside the axes (sweep --driver, the study's driver:) is part of what the point is.
  if (!settings.driver.empty() && settings.driver != "fast") id += "|driver=" + settings.driver;
  return id;
}

protocol::RunRequest SweepPoint::request() const {
  protocol::RunRequest r;
  r.machine = machine;
  (trace ? r.trace : r.workload) = workload;
  r.pes = pes;
  r.placement = placement;
  r.size = bytes;
  settings.apply_to(r);
  r.summary = true;
  return r;
}

SweepSpec load_sweep(const std::string& path) {
  MapReader top = read_document(path);
  SweepSpec s;
  s.name = top.string_at("name");
  s.machines = paths(top, "machines");
  const bool has_traces = top.has("traces");
  if (!has_traces && !top.has("workloads"))
    throw InputError({path, 0, 0}, "workloads", "a study needs 'workloads', 'traces' or both");
  s.workloads = paths(top, "workloads", !has_traces);
  s.traces = paths(top, "traces", false);
  for (size_t i = 0; i < s.traces.size(); ++i) {
    const auto lines = read_trace_lines(s.traces[i]);
    if (lines.empty() || lines[0].tokens[0].text != kShmemTraceMagic)
      throw InputError(top.key_pos("traces"), "traces[" + std::to_string(i) + "]",
                       "a study scales traces to its PE counts and sizes: only t3sim SHMEM traces "
                       "('t3sim-trace 1'), not SimGrid TI traces, whose ranks are fixed",
                       s.traces[i]);
  }
  const YAML::Node pes = sequence_value(top.required("pes"), path, "pes");
  for (size_t i = 0; i < pes.size(); ++i) {
    // `all`: every PE of each machine (machines of different sizes in one study).
    if (pes[i].IsScalar() && pes[i].Scalar() == "all")
      s.pes.push_back(kAllPes);
    else
      s.pes.push_back(static_cast<int>(integer_value(pes[i], path, "pes", 2, 1 << 20)));
  }
  if (s.pes.empty()) throw InputError(pos_of(path, pes), "pes", "must list at least one PE count");
  if (auto pl = top.optional("placements")) {
    sequence_value(*pl, path, "placements");
    for (size_t i = 0; i < pl->size(); ++i) s.placements.push_back(scalar_text((*pl)[i], path, "placements"));
  }
  if (s.placements.empty()) s.placements.push_back("contiguous");
  // Without `sizes` each workload runs its own (an MD run, I/O): no --size.
  if (auto sizes = top.optional("sizes")) {
    sequence_value(*sizes, path, "sizes");
    for (size_t i = 0; i < sizes->size(); ++i) {
      const std::string key = "sizes[" + std::to_string(i) + "]";
      s.sizes.push_back(quantity_value((*sizes)[i], path, key, core::Quantity::Size));
      if (const std::string problem = message_size_problem(s.sizes.back()); !problem.empty())
        throw InputError(pos_of(path, (*sizes)[i]), key, problem, (*sizes)[i].Scalar());
    }
    if (s.sizes.empty()) throw InputError(pos_of(path, *sizes), "sizes", "must list at least one size");
  } else if (!s.traces.empty()) {
    throw InputError(top.key_pos("traces"), "sizes", "a study of traces needs sizes (a trace is scaled to each)");
  }
  if (top.has("jobs")) s.jobs = static_cast<int>(top.integer_at("jobs", 1, 256));
  s.common.sets = read_fitted_variables(top);
  if (top.has("driver")) {  // every point's transport (an axis may set it per point instead)
    s.common.driver = top.string_at("driver");
    if (s.common.driver != "fast" && s.common.driver != "reference" && s.common.driver != "packet")
      throw InputError(pos_of(path, top.node()["driver"]), "driver", "must be fast, reference or packet",
                       "'" + s.common.driver + "'");
  }
  if (auto set = top.optional("set"))
    for (const auto& [name, value] : read_variable_values(*set, path, "set")) s.common.sets[name] = value;
  s.axes = read_sweep_axes(top, sweep_columns());
  if (!s.traces.empty() && !s.axes.empty())
    for (const auto& axis : s.axes)
      for (const auto& v : axis.values)
        if (!v.settings.sets.empty() || !v.settings.background.empty())
          throw InputError(top.key_pos("axes"), "axes." + axis.name + "." + v.label,
                           "sets workload variables or a background job, which traces do not take");
  s.plot = read_sweep_plot(top, s);
  top.finish();
  return s;
}

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
  std::vector<SweepPoint> points;
  std::vector<std::pair<std::string, bool>> jobs;  // (file, is a trace)
  for (const auto& w : spec.workloads) jobs.push_back({w, false});
  for (const auto& t : spec.traces) jobs.push_back({t, true});
  const bool whole = std::find(spec.pes.begin(), spec.pes.end(), kAllPes) != spec.pes.end();
  const std::vector<double> sizes = spec.sizes.empty() ? std::vector<double>{0} : spec.sizes;
  // Every combination of the axes' values, the last axis varying fastest.
  std::vector<std::vector<size_t>> combinations = {{}};
  for (const auto& axis : spec.axes) {
    std::vector<std::vector<size_t>> longer;
    for (const auto& c : combinations)
      for (size_t v = 0; v < axis.values.size(); ++v) {
        longer.push_back(c);
        longer.back().push_back(v);
      }
    combinations = longer;
  }
  for (const auto& m : spec.machines) {
    const int machine_pes = whole ? load_machine(m).pe_count() : 0;
    for (const auto& [w, is_trace] : jobs)
      for (int listed : spec.pes)
        for (const auto& pl : spec.placements)
          for (double b : sizes)
            for (const auto& combination : combinations) {
              SweepPoint p;
              p.index = static_cast<int>(points.size());
              p.machine = m;
              p.workload = w;
              p.trace = is_trace;
              p.pes = listed == kAllPes ? machine_pes : listed;
              p.placement = pl;
              p.bytes = b;
              p.settings = is_trace ? RunSettings{} : spec.common;
              for (size_t a = 0; a < spec.axes.size(); ++a) {
                const AxisValue& v = spec.axes[a].values[combination[a]];
                p.labels.emplace_back(spec.axes[a].name, v.label);
                p.settings = p.settings.overlaid(v.settings);
              }
              points.push_back(p);
            }
  }
  return points;
}

}  // namespace t3sim::io
