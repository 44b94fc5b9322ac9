#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "sim/analysis/time_split.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/uncertainty_run.hpp"
#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/core/program/swap_pattern.hpp"
#include "sim/core/program/traffic_pattern.hpp"
#include "sim/core/support/enum_names.hpp"
#include "sim/core/support/units.hpp"
#include "sim/core/topology/failed_links.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/output/results_writer.hpp"
#include "sim/io/output/vc_report_csv.hpp"
#include "sim/io/trace/trace_loader.hpp"
#include "sim/io/workload/workload_loader.hpp"
#include "sim/report/link_heatmap.hpp"

namespace t3sim::cli {
namespace {

// An output file a run was asked for (--transfers, --traffic), its folder made first.
void write_making_folder(const std::string& path, const std::string& text) {
  const auto folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder);
  io::write_file_atomically(path, text);
}

// --vc-window FROM:TO, each a time with its unit: the window in seconds.
std::pair<double, double> vc_window(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw io::InputError({"--vc-window", 0, 0}, "", "must be FROM:TO, two times with units (e.g. 0.4ms:2.4ms)",
                         "'" + text + "'");
  double ends[2];
  for (int i = 0; i < 2; ++i) {
    const std::string part = i == 0 ? text.substr(0, colon) : text.substr(colon + 1);
    std::string why;
    const auto t = core::parse_quantity(part, core::Quantity::Time, &why);
    if (!t) throw io::InputError({"--vc-window", 0, 0}, i == 0 ? "FROM" : "TO", why, "'" + part + "'");
    if (*t < 0) throw io::InputError({"--vc-window", 0, 0}, i == 0 ? "FROM" : "TO", "must be >= 0", "'" + part + "'");
    ends[i] = *t;
  }
  if (!(ends[1] > ends[0])) throw io::InputError({"--vc-window", 0, 0}, "", "TO must be after FROM", "'" + text + "'");
  return {ends[0], ends[1]};
}

// The paths --param takes: the quantities and the named values.
std::vector<std::string> all_param_paths(const core::MachineSpec& m) {
  std::vector<std::string> paths = core::param_paths(m);
  for (const auto& p : core::enum_param_paths()) paths.push_back(p);
  return paths;
}

}  // namespace

// Applies --param PATH=VALUE overrides: the value in the parameter's units, range-checked as in a file.
void apply_params(core::MachineSpec& m, const protocol::RunRequest& a) {
  if (a.driver == "packet") core::use_packet_driver_values(m);  // the profile's packet fit, under --param
  for (const auto& [path, text] : a.params) {
    if (core::is_enum_param(path)) {  // a named value (network.switch_hold=packet)
      if (!core::set_enum_param(m, path, text))
        throw io::InputError({"--param", 0, 0}, path, "must be " + core::enum_param_choices(path), "'" + text + "'");
      m.uncertainty.erase(path);  // (as for a number below: the file's choices were of its own value)
      m.provenance.erase(path);
      m.set_by[path] = "--param";
      continue;
    }
    const auto q = core::param_quantity(path);
    const bool known = q && core::param_value(m, path).has_value();
    if (!known)
      throw io::InputError({"--param", 0, 0}, path,
                           "names no parameter of " + a.machine + core::did_you_mean(path, all_param_paths(m)),
                           "'" + text + "'");
    std::string why;
    const auto v = core::parse_quantity(text, *q, &why);
    if (!v || *v < 0) throw io::InputError({"--param", 0, 0}, path, v ? "must not be negative" : why, "'" + text + "'");
    if (const auto wrong = core::param_range_violation(path, *v))
      throw io::InputError({"--param", 0, 0}, path, *wrong, "'" + text + "'");
    core::set_param(m, path, *v);
    // The machine file's range and source were of its own value, not of this one (so `sensitivity` and
    // `--uncertainty` leave it alone, and `describe` says who set it).
    m.uncertainty.erase(path);
    m.provenance.erase(path);
    m.set_by[path] = "--param";
  }
  if (const auto wrong = m.inconsistency(); wrong && !a.params.empty())
    throw io::InputError({"--param", 0, 0}, wrong->first, wrong->second,
                         fmt::format("{:g}", *core::param_value(m, wrong->first)));
  if (const auto wrong = core::enum_param_inconsistency(m); wrong && !a.params.empty())
    throw io::InputError({"--param", 0, 0}, wrong->first, wrong->second);
  if (!a.routing.empty()) {
    const auto kind = core::enum_value<core::RoutingKind>(a.routing);
    if (!kind)
      throw io::InputError({"--routing", 0, 0}, "", "must be one of " + core::enum_names_text<core::RoutingKind>(", "),
                           "'" + a.routing + "'");
    m.routing = *kind;
  }
  for (const auto& spec : a.fail) {
    const std::string wrong = core::parse_failed_link(m.torus(), spec, m.failed_links);
    if (!wrong.empty()) throw io::InputError({"--fail", 0, 0}, "", wrong, "'" + spec + "'");
  }
  core::normalise_links(m.failed_links);
}

int cmd_run(const protocol::RunRequest& a) {
  if (a.uncertainty > 0) return cmd_run_uncertainty(a);
  core::MachineSpec machine = io::load_machine(a.machine);
  apply_params(machine, a);
  const core::SoftwareProfile* profile = machine.find_profile(a.profile);
  if (!profile) {
    std::string names;
    for (const auto& p : machine.profiles) names += " " + p.name;
    throw io::InputError({a.machine, 0, 0}, "software.profiles", "has no profile '" + a.profile + "'; it has:" + names);
  }
  const bool is_trace = !a.trace.empty();
  const auto load_start = std::chrono::steady_clock::now();
  io::LoadedWorkload loaded = is_trace ? io::load_trace(a.trace, {profile->eager_threshold, profile->mpi_queue_bytes},
                                                        a.pes, a.size, core::kMaxOperations, a.strict, a.expand_whole)
                                       : io::load_workload(a.workload, a.variables, a.pes, a.size);
  if (loaded.account.lines > 0) std::cerr << io::account_text(loaded.account);
  const double load_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  io::check_fits_machine(loaded, machine.pe_count(), machine.name);
  std::optional<core::JobPlacement> placement;
  try {
    placement = core::make_placement(machine, loaded.workload.pes, a.placement);
  } catch (const core::ModelError& e) {
    throw io::InputError({"--placement", 0, 0}, "", e.what(), a.placement);
  }
  for (const core::Repeat& r : loaded.workload.repeats)
    if (r.count == 0)
      throw io::InputError({is_trace ? a.trace : a.workload, 0, 0}, "pattern.io_writers.writes",
                           "0 repeats until the main job has finished: this workload runs only as a background job "
                           "(--background)");
  const int job_pes = loaded.workload.pes;
  const std::string pattern = loaded.workload.pattern;
  const std::string workload_name = loaded.workload.name;
  core::Workload workload = std::move(loaded.workload);  // no copy: a large run's ops are GBs
  if (!a.background.empty()) {
    const io::LoadedWorkload bg = io::load_workload(a.background, a.background_variables, a.background_pes);
    try {
      placement = core::with_background_placement(machine, *placement, bg.workload.pes, a.background_placement);
    } catch (const std::exception& e) {
      throw io::InputError({"--background", 0, 0}, "", e.what(), a.background);
    }
    workload = core::with_background(workload, bg.workload);
  }
  if (workload.has_io() && !machine.has_io())
    throw io::InputError({a.machine, 0, 0}, "io",
                         "workload '" + workload_name +
                             "' writes or reads files, and this machine has no I/O nodes "
                             "(no io section)");
  engine::SimulationOptions options;
  options.driver = *core::enum_value<engine::Driver>(a.driver);  // CLI11 checked the name
  options.paje_file = a.paje;
  options.threads = a.threads;
  if (a.threads > 1 && (options.driver != engine::Driver::Packet || !a.paje.empty()))
    throw io::InputError({"--threads", 0, 0}, "",
                         "needs --driver packet (only the packet network shares its cycles over threads)");
  if (!a.vc_window.empty() && a.vc_report_file.empty())
    throw io::InputError({"--vc-window", 0, 0}, "", "is the window of --vc-report, which was not given");
  if (!a.vc_report_file.empty()) {
    if (options.driver != engine::Driver::Packet || !a.paje.empty())
      throw io::InputError({"--vc-report", 0, 0}, "",
                           "needs --driver packet (virtual channels exist only in the packet network)");
    options.record_vcs = true;
    if (!a.vc_window.empty()) std::tie(options.vcs_from, options.vcs_to) = vc_window(a.vc_window);
  }
  if (auto why = engine::driver_refusal(machine, a.paje.empty() ? options.driver : engine::Driver::Reference))
    throw io::InputError({a.paje.empty() ? "--driver" : "--paje", 0, 0}, "", *why);
  const auto wall_start = std::chrono::steady_clock::now();
  const core::RunResult result = engine::simulate(machine, *profile, workload, *placement, options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (is_trace) {  // on stderr: wall time is not a result and would break byte-identical outputs
    double operations = 0;
    for (const core::OpRecord& r : result.records) operations += r.repeats;
    std::cerr << fmt::format(
        "read the trace in {:.3f} s; replayed {:.0f} operations in {:.3f} s of wall time: {:.0f} operations per "
        "wall-second\n",
        load_wall, operations, wall, operations / wall);
  }
  if (!a.transfers_file.empty()) write_making_folder(a.transfers_file, io::transfers_csv(result));
  if (!a.vc_report_file.empty()) write_making_folder(a.vc_report_file, io::vc_report_csv(result));
  std::optional<analysis::TrafficReport> traffic;
  // A step workload's report is made when something shows it (the printed text, --summary, --traffic),
  // not for --json alone (validate's child runs); --out writes its files only when it was asked for.
  const bool traffic_files = !pattern.empty() || is_trace || a.summary || !a.traffic_file.empty();
  if (!pattern.empty()) {
    const std::string label = pattern == "swap" ? core::kSwapLabel : core::kExchangeLabel;
    traffic = analysis::traffic_report(machine, *placement, result, label, job_pes);
  } else if (traffic_files || !a.json) {  // a step workload or a trace: every operation counts
    traffic = analysis::traffic_report(machine, *placement, result, "", job_pes);
  }
  if (!a.traffic_file.empty()) write_making_folder(a.traffic_file, io::traffic_json(*traffic) + "\n");
  const std::vector<analysis::PeTime> split = analysis::time_split(result, job_pes);
  if (!a.out_dir.empty()) {
    std::filesystem::create_directories(a.out_dir);
    const std::string stem = a.out_dir + "/" + workload_name + "." + profile->name;
    io::write_file_atomically(stem + ".csv", io::results_csv(result));
    io::write_file_atomically(stem + ".json", io::results_json(result));
    io::write_file_atomically(stem + ".pes.csv", io::time_split_csv(split));
    if (traffic && traffic_files) {
      io::write_file_atomically(stem + ".traffic.json", io::traffic_json(*traffic) + "\n");
      io::write_file_atomically(stem + ".transfers.csv", io::transfers_csv(result));
      const std::string note = report::plot_link_heatmap(machine, *traffic, stem);
      if (!note.empty()) std::cerr << note << "\n";
    }
  }
  if (a.summary) {
    std::cout << io::run_summary(result, *traffic).to_json() << "\n";
  } else if (a.json)
    std::cout << io::results_json(result);
  else if (a.ops)  // every operation, then the traffic report
    std::cout << io::results_table(result) << io::traffic_summary(*traffic);
  else  // in brief: makespan, time split, per-PE bandwidth, link utilisation and the busiest links
    std::cout << io::trace_summary(result, split, is_trace ? "trace" : "workload") << io::traffic_summary(*traffic)
              << io::swap_summary(result) << (is_trace ? "" : "(the table of every operation: --ops)\n");
  return 0;
}

}  // namespace t3sim::cli
