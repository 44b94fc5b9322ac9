#include "sim/cli/uncertainty_run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <iostream>

#include "sim/child/child_run.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/protocol/run_summary.hpp"

namespace t3sim::cli {
namespace {

// The point as `run --summary`, without what only the whole command does (outputs, its own bands).
protocol::RunRequest point_request(const protocol::RunRequest& a) {
  protocol::RunRequest r = a;
  r.summary = true;
  r.json = false;
  r.out_dir.clear();
  r.transfers_file.clear();
  r.traffic_file.clear();
  r.paje.clear();
  r.uncertainty = 0;
  r.seed = protocol::RunRequest().seed;
  return r;
}

struct Setting {
  std::vector<std::pair<std::string, std::string>> values;  // parameter path -> its --param text
};

// Runs the point once per setting, `jobs` at a time; the summaries in setting order.
std::vector<protocol::RunSummary> run_settings(const protocol::RunRequest& a, const std::vector<Setting>& settings) {
  const int jobs = std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  std::vector<protocol::RunSummary> out(settings.size());
  for (size_t first = 0; first < settings.size(); first += static_cast<size_t>(jobs)) {
    std::vector<std::future<child::ChildOutcome>> running;
    const size_t last = std::min(settings.size(), first + static_cast<size_t>(jobs));
    for (size_t i = first; i < last; ++i) {
      protocol::RunRequest r = point_request(a);
      if (i == 0) r.traffic_file = a.traffic_file;  // the nominal run's traffic report
      for (const auto& [path, text] : settings[i].values) r.params.emplace_back(path, text);
      running.push_back(std::async(std::launch::async, [args = r.to_argv()] { return child::run_child(args); }));
    }
    for (size_t i = first; i < last; ++i) {
      const child::ChildOutcome o = running[i - first].get();
      if (o.exit_status != 0)
        throw std::runtime_error(fmt::format("run {} of {} (parameters moved) failed with exit status {}", i + 1,
                                             settings.size(), o.exit_status));
      out[i] = protocol::run_summary_from_json(o.out.substr(0, o.out.find('\n')),
                                               fmt::format("run {} of {}", i + 1, settings.size()));
    }
  }
  return out;
}

std::vector<core::RangedParam> params_of(const protocol::RunRequest& a, const core::MachineSpec& m) {
  std::vector<core::RangedParam> params = core::ranged_params(m, a.profile, a.driver == "packet");
  // A parameter fixed on the command line is not uncertain in this run.
  params.erase(std::remove_if(params.begin(), params.end(),
                              [&](const core::RangedParam& p) {
                                return std::any_of(a.params.begin(), a.params.end(),
                                                   [&](const auto& kv) { return kv.first == p.path; });
                              }),
               params.end());
  if (params.empty())
    throw io::InputError(
        {a.machine, 0, 0}, "uncertainty",
        "gives no range for any parameter this run depends on (see `t3sim describe machine " + a.machine + "`)");
  return params;
}

protocol::Band band(const std::vector<double>& v) {
  return {core::quantile(v, 0.05), core::quantile(v, 0.5), core::quantile(v, 0.95)};
}

}  // namespace

int cmd_run_uncertainty(const protocol::RunRequest& a) {
  core::MachineSpec machine = io::load_machine(a.machine);
  if (a.driver == "packet") core::use_packet_driver_values(machine);  // their ranges, not the flow fit's
  const std::vector<core::RangedParam> params = params_of(a, machine);
  const auto samples = core::latin_hypercube(params, a.uncertainty, a.seed);
  std::vector<Setting> settings(1);  // the nominal run first
  for (const auto& row : samples) {
    Setting s;
    for (size_t d = 0; d < params.size(); ++d)
      s.values.emplace_back(params[d].path, core::ranged_value_text(params[d], row[d], true));
    settings.push_back(std::move(s));
  }
  const std::vector<protocol::RunSummary> runs = run_settings(a, settings);
  const protocol::RunSummary& nominal = runs[0];
  std::vector<double> makespans;
  std::vector<std::vector<double>> medians(nominal.sizes.size());
  for (size_t i = 1; i < runs.size(); ++i) {
    makespans.push_back(runs[i].makespan_s);
    for (size_t s = 0; s < medians.size() && s < runs[i].sizes.size(); ++s)
      medians[s].push_back(runs[i].sizes[s].pe_bandwidth_Bps.median);
  }
  protocol::SummaryUncertainty u;
  u.samples = a.uncertainty;
  u.seed = a.seed;
  u.design = "latin hypercube, uniform in each range";
  for (const auto& p : params)
    u.parameters.push_back({p.path, p.range.low, p.range.high, p.range.why, p.range.choices});
  u.makespan_s = band(makespans);
  for (size_t s = 0; s < medians.size(); ++s) u.sizes.push_back({nominal.sizes[s].bytes, band(medians[s])});
  if (a.summary) {
    protocol::RunSummary with_bands = nominal;
    with_bands.uncertainty = u;
    std::cout << with_bands.to_json() << "\n";
    return 0;
  }
  std::cout << fmt::format("{} runs over {} uncertain parameters (Latin hypercube, seed {}), and the nominal run:\n",
                           a.uncertainty, params.size(), a.seed);
  for (const auto& p : params)
    std::cout << fmt::format("  {:<44} {:>14} in {}  ({})\n", p.path, core::ranged_value_text(p, p.nominal, false),
                             core::range_text(p.path, p.range), p.range.why);
  std::cout << fmt::format("\n{:<34} {:>14} {:>14} {:>14} {:>14}\n", "figure", "nominal", "median", "5%", "95%");
  auto row = [](const std::string& name, double nom, const std::vector<double>& v, double scale) {
    std::cout << fmt::format("{:<34} {:>14.3f} {:>14.3f} {:>14.3f} {:>14.3f}\n", name, nom * scale,
                             core::quantile(v, 0.5) * scale, core::quantile(v, 0.05) * scale,
                             core::quantile(v, 0.95) * scale);
  };
  row("makespan (us)", nominal.makespan_s, makespans, 1e6);
  for (size_t s = 0; s < medians.size(); ++s)
    row(fmt::format("per-PE MB/s, median, {:.0f} B", nominal.sizes[s].bytes), nominal.sizes[s].pe_bandwidth_Bps.median,
        medians[s], 1e-6);
  return 0;
}

int cmd_sensitivity(const SensitivityArgs& a) {
  if (a.figure != "makespan" && a.figure != "pe_bandwidth")
    throw io::InputError({"--figure", 0, 0}, "", "must be makespan or pe_bandwidth", "'" + a.figure + "'");
  core::MachineSpec machine = io::load_machine(a.run.machine);
  if (a.run.driver == "packet") core::use_packet_driver_values(machine);
  const std::vector<core::RangedParam> params = params_of(a.run, machine);
  std::vector<Setting> settings(1);
  for (const auto& p : params) {
    settings.push_back({{{p.path, core::ranged_value_text(p, p.range.low, true)}}});
    settings.push_back({{{p.path, core::ranged_value_text(p, p.range.high, true)}}});
  }
  const std::vector<protocol::RunSummary> lines = run_settings(a.run, settings);
  auto figure = [&](const protocol::RunSummary& run) {
    return a.figure == "makespan" ? run.makespan_s : (run.sizes.empty() ? 0.0 : run.sizes[0].pe_bandwidth_Bps.median);
  };
  const double nominal = figure(lines[0]);
  struct Row {
    const core::RangedParam* param;
    double at_low, at_high, swing;
  };
  std::vector<Row> rows;
  for (size_t d = 0; d < params.size(); ++d) {
    const double lo = figure(lines[1 + 2 * d]), hi = figure(lines[2 + 2 * d]);
    rows.push_back({&params[d], lo, hi, nominal != 0 ? std::fabs(hi - lo) / std::fabs(nominal) : 0});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.swing > y.swing; });
  const bool us = a.figure == "makespan";
  const double scale = us ? 1e6 : 1e-6;
  std::cout << fmt::format(
      "{} ({}), nominal {:.3f}; each parameter at the low and high end of its range, the others "
      "nominal:\n",
      us ? "makespan" : "median per-PE bandwidth", us ? "us" : "MB/s", nominal * scale);
  std::cout << fmt::format("{:>4} {:<44} {:>14} {:>14} {:>10}  {}\n", "rank", "parameter", "at low", "at high", "swing",
                           "range from");
  int rank = 0;
  for (const auto& r : rows)
    std::cout << fmt::format("{:>4} {:<44} {:>14.3f} {:>14.3f} {:>9.2f}%  {}\n", ++rank, r.param->path,
                             r.at_low * scale, r.at_high * scale, r.swing * 100,
                             r.param->range.why.rfind("fit", 0) == 0 ? "fit" : "assumed");
  return 0;
}

}  // namespace t3sim::cli
