#include "sim/io/sweep_spec.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/core/units.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/machine_loader.hpp"
#include "sim/io/shmem_trace_reader.hpp"
#include "sim/io/trace_lines.hpp"
#include "sim/io/yaml_map.hpp"

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

}  // namespace

std::string SweepPoint::id() const {
  return std::filesystem::path(machine).filename().string() + "|" +
         std::filesystem::path(workload).filename().string() + "|" + std::to_string(pes) + "|" + placement + "|" +
         std::to_string(static_cast<long long>(bytes));
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
  const YAML::Node sizes = sequence_value(top.required("sizes"), path, "sizes");
  for (size_t i = 0; i < sizes.size(); ++i)
    s.sizes.push_back(quantity_value(sizes[i], path, "sizes[" + std::to_string(i) + "]", core::Quantity::Size));
  if (s.sizes.empty()) throw InputError(pos_of(path, sizes), "sizes", "must list at least one size");
  if (top.has("jobs")) s.jobs = static_cast<int>(top.integer_at("jobs", 1, 256));
  top.finish();
  return s;
}

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
  std::vector<SweepPoint> points;
  std::vector<std::pair<std::string, bool>> jobs;  // (file, is a trace)
  for (const auto& w : spec.workloads) jobs.push_back({w, false});
  for (const auto& t : spec.traces) jobs.push_back({t, true});
  const bool whole = std::find(spec.pes.begin(), spec.pes.end(), kAllPes) != spec.pes.end();
  for (const auto& m : spec.machines) {
    const int machine_pes = whole ? load_machine(m).pe_count() : 0;
    for (const auto& [w, is_trace] : jobs)
      for (int listed : spec.pes)
        for (const auto& pl : spec.placements)
          for (double b : spec.sizes) {
            SweepPoint p;
            p.index = static_cast<int>(points.size());
            p.machine = m;
            p.workload = w;
            p.trace = is_trace;
            p.pes = listed == kAllPes ? machine_pes : listed;
            p.placement = pl;
            p.bytes = b;
            points.push_back(p);
          }
  }
  return points;
}

}  // namespace t3sim::io
