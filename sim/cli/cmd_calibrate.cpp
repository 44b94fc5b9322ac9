#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include <cmath>
#include <iostream>
#include <random>
#include <set>

#include "sim/calib/profile_fitter.hpp"
#include "sim/calib/validation_run.hpp"
#include "sim/cli/commands.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/fitting/network_fit.hpp"
#include "sim/fitting/packet_profile_fit.hpp"
#include "sim/fitting/variable_fit.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/trace/trace_loader.hpp"
#include "sim/io/validation/cases_loader.hpp"
#include "sim/io/workload/workload_loader.hpp"
#include "sim/io/yaml/yaml_splice.hpp"

namespace t3sim::cli {
namespace {

core::Quantity quantity_of(const std::string& key) {
  for (const auto& d : core::profile_params())
    if (d.key == key) return d.quantity;
  return core::Quantity::Ratio;
}

double value_in(const core::SoftwareProfile& p, const std::string& key) {
  for (const auto& d : core::profile_params())
    if (d.key == key) return d.get(p);
  return NAN;
}

// Values are written with 7 significant digits; a refit that agrees to 1e-5 reproduces them.
constexpr double kCheckTolerance = 1e-5;

// The 5-95% spread of each parameter refitted on `resamples` residual-bootstrap data sets, widened to
// hold the full fit. A residual bootstrap (not a resampling of rows): each data set keeps every case
// and gives it the full fit's prediction times one of the fit's residual ratios drawn with
// replacement, so every parameter stays identifiable (a resample of the T3D's 10 rows that drops
// all local calls leaves local_overhead free) while the spread is the data's. Seeded 1..resamples,
// so the same ranges come out on every run.
std::map<std::string, core::ParamRange> bootstrap_ranges(const core::MachineSpec& machine, const std::string& profile,
                                                         const std::map<calib::RunKey, core::Workload>& workloads,
                                                         const std::vector<calib::MeasuredCase>& cases,
                                                         const std::vector<std::string>& params,
                                                         const calib::FitResult& full, int resamples) {
  std::map<std::string, std::vector<double>> values;
  for (int b = 1; b <= resamples; ++b) {
    std::mt19937_64 rng(static_cast<uint64_t>(b));
    std::vector<calib::MeasuredCase> drawn = cases;
    for (size_t i = 0; i < cases.size(); ++i) {
      const double predicted = cases[i].measured * (1 + full.rel_errors[i]);
      const double ratio = 1 + full.rel_errors[rng() % cases.size()];  // predicted / measured of a case
      drawn[i].measured = predicted / ratio;
    }
    for (const auto& [key, v] : calib::fit_profile(machine, profile, workloads, drawn, params).params)
      values[key].push_back(v);
  }
  std::map<std::string, core::ParamRange> out;
  for (const auto& [key, v] : full.params) {
    core::ParamRange r{core::quantile(values[key], 0.05), core::quantile(values[key], 0.95), "", {}};
    out[key] = {std::min(r.low, v), std::max(r.high, v), "", {}};
  }
  return out;
}

// The profile's fit record as one flow mapping, ranges included when there are any.
std::string fit_text(const std::string& suite, const calib::FitResult& fit, int resamples,
                     const std::map<std::string, core::ParamRange>& ranges) {
  std::string text = fmt::format("{{suite: {}, points: {}, rms_rel_error: {:.4f}, max_rel_error: {:.4f}", suite,
                                 fit.points, fit.rms_rel_error, fit.max_rel_error);
  if (!ranges.empty()) {
    std::vector<std::string> items;
    for (const auto& [key, r] : ranges)
      items.push_back(key + ": " + core::format_quantity(r.low, quantity_of(key)) + ".." +
                      core::format_quantity(r.high, quantity_of(key)));
    text += fmt::format(", bootstrap: {}, range: {{{}}}", resamples, fmt::join(items, ", "));
  }
  return text + "}";
}

// Per metric, over `results`: median and largest |relative error|, and how many are outside tolerance.
void print_error_summary(const std::string& what, const std::vector<calib::CaseResult>& results) {
  std::map<std::string, std::vector<double>> errors;
  std::map<std::string, int> outside;
  for (const auto& r : results) {
    if (r.measured.report_only) continue;
    errors[r.measured.metric].push_back(std::fabs(r.rel_error));
    if (!r.within_tolerance) ++outside[r.measured.metric];
  }
  for (auto& [metric, e] : errors)
    std::cout << fmt::format(
        "    {:<10} {:<8} n {:>3}  median |rel err| {:6.2f}%  max {:7.2f}%  outside tolerance {}\n", what, metric,
        e.size(), core::quantile(e, 0.5) * 100, *std::max_element(e.begin(), e.end()) * 100, outside[metric]);
}

// A suite's network parameters fitted to its training rows (network_fit.hpp), the held-back rows
// judged, the values written into its machine file. Returns the values that differ from the file's.
int calibrate_network(const calib::SuiteSpec& suite, const CalibrateArgs& a) {
  const core::MachineSpec machine = io::load_machine(suite.machine_path);
  std::cout << fmt::format("suite {}: fitting {} ({}) to its rows {}\n", suite.id, suite.machine_path,
                           fmt::join(suite.fit_network, ", "),
                           suite.fit_where.empty() ? std::string("(all)") : fmt::format("{}", suite.fit_where));
  const fitting::NetworkFit fit = fitting::fit_suite_network(suite, io::load_suite_cases(suite));
  int mismatches = 0;
  std::vector<io::ScalarEdit> edits;
  for (const auto& [key, value] : fit.params) {
    const double in_file = core::param_value(machine, "network." + key).value_or(NAN);
    const bool same = std::fabs(in_file - value) <= kCheckTolerance * std::max(std::fabs(value), 1e-6);
    if (!same) ++mismatches;
    const std::string text = fmt::format("{:.7g}", value);
    std::cout << fmt::format("    {:<18} {:>12}   (file: {:.7g}{})   {} evaluations\n", key, text, in_file,
                             same ? "" : ", differs", fit.evaluations);
    edits.push_back({"network." + key, text});
  }
  for (const auto* group : {&fit.training, &fit.held_back})
    for (const auto& r : *group)
      std::cout << fmt::format("    {:<9} {:<60} {:>+8.2f}%{}\n", group == &fit.training ? "trained" : "held back",
                               r.measured.id.substr(suite.id.size() + 1), r.rel_error * 100,
                               r.within_tolerance ? "" : "  outside");
  print_error_summary("trained", fit.training);
  print_error_summary("held back", fit.held_back);
  if (a.model_error) {
    // The model-form error as the parameter's range: the 5-95% of the values the rows would each want
    // (those whose error moves with it), widened to hold the fitted value; --uncertainty then carries it.
    const std::string& key = suite.fit_network.front();
    std::vector<double> wanted;
    for (const auto& r : fitting::fit_each_row(suite, io::load_suite_cases(suite))) {
      std::cout << fmt::format("    row alone {:<52} {}{}\n", r.row.substr(suite.id.size() + 1),
                               r.sensitive ? fmt::format("{:.4g}", r.value) : "-  (its error does not move with it)",
                               r.trained ? "" : "  (held back)");
      if (r.sensitive) wanted.push_back(r.value);
    }
    if (wanted.size() < 2) throw std::runtime_error("suite " + suite.id + ": fewer than 2 rows move with " + key);
    const double fitted = fit.params.front().second;
    const double low = std::min(core::quantile(wanted, 0.05), fitted);
    const double high = std::max(core::quantile(wanted, 0.95), fitted);
    const std::string range = fmt::format("{:.4g}..{:.4g}", low, high);
    const std::string path = "uncertainty.network." + key;
    const auto in_file = machine.uncertainty.find("network." + key);
    const std::string file_range = in_file == machine.uncertainty.end()
                                       ? std::string("none")
                                       : fmt::format("{:.4g}..{:.4g}", in_file->second.low, in_file->second.high);
    const bool same = file_range == range;
    if (!same) ++mismatches;
    std::cout << fmt::format("    {:<18} model-form range {}  (5-95% of {} rows' own values; file: {}{})\n", key, range,
                             wanted.size(), file_range, same ? "" : ", differs");
    edits.push_back(
        {path,
         fmt::format("{{range: {}, why: \"fit: the model-form error, 5-95% of the values {} rows of {} want each "
                     "(calibrate --model-error)\"}}",
                     range, wanted.size(), suite.id),
         true});
  }
  if (!a.dry_run && !a.check) {
    const std::string text = io::read_whole_file(suite.machine_path);
    io::write_file_atomically(suite.machine_path, io::splice_scalars(suite.machine_path, text, edits));
    std::cout << "  written to " << suite.machine_path << "\n";
  }
  return mismatches;
}

// A run's workload for an in-process fit, with the row's job size and message size: the suite's
// workload file, or its trace (expanded through the message layer by the profile's protocols).
core::Workload suite_workload(const calib::SuiteSpec& suite, const calib::RunKey& key,
                              const core::SoftwareProfile& profile) {
  const std::string& path = key.workload.empty() ? suite.workload_path : key.workload;
  if (calib::is_trace_path(path))
    return io::load_trace(path, {profile.eager_threshold, profile.mpi_queue_bytes}, key.pes, key.size).workload;
  return io::load_workload(path, key.variables, key.pes, key.size).workload;
}

// The cases a suite fits its profiles to (fit_metrics, fit_min_bytes, fit_where; only `profile` when
// given), by profile.
std::map<std::string, std::vector<calib::MeasuredCase>> fitted_cases_by_profile(const calib::SuiteSpec& suite,
                                                                                const std::string& profile) {
  std::map<std::string, std::vector<calib::MeasuredCase>> by_profile;
  for (const auto& c : io::load_suite_cases(suite)) {
    if ((profile.empty() || c.run.profile == profile) && c.bytes >= suite.fit_min_bytes &&
        suite.fits_metric(c.metric) && calib::row_matches(suite.fit_where, c.row))
      by_profile[c.run.profile].push_back(c);
  }
  return by_profile;
}

// A suite's packet_fit_params fitted again under the packet driver (fitting/packet_profile_fit.hpp),
// from the profile's values under flows, written to the profile's packet_driver. Returns the values
// that differ from the file's.
int calibrate_under_packets(const calib::SuiteSpec& suite, const CalibrateArgs& a) {
  const core::MachineSpec machine = io::load_machine(suite.machine_path);
  const auto by_profile = fitted_cases_by_profile(suite, a.profile);
  int mismatches = 0;
  std::vector<io::ScalarEdit> edits;
  std::cout << fmt::format("suite {}: fitting {} ({}) under the packet driver\n", suite.id, suite.machine_path,
                           fmt::join(suite.packet_fit_params, ", "));
  for (const auto& [profile, fit_cases] : by_profile) {
    const core::SoftwareProfile* flows = machine.find_profile(profile);
    const std::string base = "software.profiles." + profile + ".packet_driver";
    const auto own = machine.packet_driver.find(profile);
    if (!flows || own == machine.packet_driver.end())
      throw io::InputError({suite.machine_path, 0, 0}, base,
                           "is missing: add 'packet_driver: {" + suite.packet_fit_params.front() +
                               ": VALUE, ..., fit: {suite: " + suite.id +
                               ", points: 0, rms_rel_error: 0, max_rel_error: 0}}' under the profile, then calibrate "
                               "again");
    std::map<std::string, double> start;
    for (const auto& key : suite.packet_fit_params) start[key] = value_in(*flows, key);
    const fitting::PacketProfileFit under_packets =
        fitting::fit_profile_under_packets(suite, fit_cases, profile, start);
    const calib::FitResult& fit = under_packets.fit;
    std::cout << fmt::format(
        "  profile {:<10} points {:>2}  rms rel err {:.4f}  max rel err {:.4f}  ({} evaluations)\n", profile,
        fit.points, fit.rms_rel_error, fit.max_rel_error, fit.evaluations);
    for (const auto& [key, value] : fit.params) {
      const auto in_file = own->second.values.find(key);
      const double file_value = in_file == own->second.values.end() ? NAN : in_file->second;
      const bool same = std::fabs(file_value / value - 1.0) <= kCheckTolerance;
      if (!same) ++mismatches;
      std::cout << fmt::format("    {:<18} {:>16}   (under flows: {}; file: {}{})\n", key,
                               core::format_quantity(value, quantity_of(key)),
                               core::format_quantity(start.at(key), quantity_of(key)),
                               core::format_quantity(file_value, quantity_of(key)), same ? "" : ", differs");
      edits.push_back({base + "." + key, core::format_quantity(value, quantity_of(key))});
      const double factor = value / start.at(key);
      if (factor < fitting::kLowestFactor * 1.001 || factor > fitting::kHighestFactor * 0.999)
        std::cout << fmt::format(
            "    {:<18} at the search's bound ({:.3f} of its value under flows): the fit "
            "may want more than the box allows\n",
            key, factor);
    }
    for (const auto& r : under_packets.results)
      std::cout << fmt::format("    residual {:<56} {:>+8.2f}%\n", r.measured.id.substr(suite.id.size() + 1),
                               r.rel_error * 100);
    edits.push_back({base + ".fit", fit_text(suite.id, fit, 0, {}), true});
  }
  if (!a.dry_run && !a.check) {
    const std::string text = io::read_whole_file(suite.machine_path);
    io::write_file_atomically(suite.machine_path, io::splice_scalars(suite.machine_path, text, edits));
    std::cout << "  written to " << suite.machine_path << "\n";
  }
  return mismatches;
}

}  // namespace

int cmd_calibrate(const CalibrateArgs& a) {
  const auto suites = io::load_suites(a.cases);
  bool found = false;
  int mismatches = 0;
  for (const auto& suite : suites) {
    if (!a.suite.empty() && suite.id != a.suite) continue;
    found = true;
    if (!suite.peer.empty()) {  // a peer's figures check a configuration of ours: nothing to fit
      std::cout << fmt::format("suite {}: {}'s figures, checked by validate, never fitted\n", suite.id, suite.peer);
      continue;
    }
    if (!a.driver.empty()) {  // --driver packet: the profile fits again under that driver, nothing else
      if (suite.packet_fit_params.empty()) {
        std::cout << fmt::format("suite {}: no packet_fit_params, nothing to fit under the packet driver\n", suite.id);
        continue;
      }
      mismatches += calibrate_under_packets(suite, a);
      continue;
    }
    if (a.record) {  // another model's figures made again, not a fit
      if (suite.record_driver.empty()) {
        if (!a.suite.empty())
          throw io::InputError({a.cases, 0, 0}, "suites." + suite.id + ".record_driver",
                               "is missing: --record makes the figures of a suite with a record_driver");
        continue;
      }
      if (suite.on_request && a.suite.empty()) {
        std::cout << fmt::format("suite {}: on request (calibrate --suite {} --record)\n", suite.id, suite.id);
        continue;
      }
      std::cout << fmt::format("suite {}: recording its figures under the {} driver\n", suite.id, suite.record_driver);
      const int made = fitting::record_suite(suite, io::load_suite_cases(suite), !a.dry_run);
      std::cout << fmt::format("  {} figures {} {}\n", made,
                               a.dry_run ? "made, not written (--dry-run):" : "written to", suite.data_path);
      continue;
    }
    if (suite.fit_network.empty() && suite.fit_params.empty() && suite.fit_variables.empty()) {
      std::cout << fmt::format("suite {}: the {} driver's figures, judged by validate, nothing fitted to them\n",
                               suite.id, suite.record_driver);
      continue;
    }
    if (!suite.fit_network.empty()) {
      if (suite.on_request && a.suite.empty()) {
        std::cout << fmt::format("suite {}: on request (calibrate --suite {})\n", suite.id, suite.id);
        continue;
      }
      mismatches += calibrate_network(suite, a);
      continue;
    }
    if (!suite.fit_variables.empty()) {  // run conditions fitted, written back into the cases file
      std::cout << fmt::format("suite {}: fitting its run conditions ({} variable(s))\n", suite.id,
                               suite.fit_variables.size());
      const auto fits = fitting::fit_suite_variables(suite, io::load_suite_cases(suite), a.check);
      for (const auto& f : fits) {
        std::cout << fmt::format("  {}{} = {}  mean rel err {:+.5f}  ({} runs){}\n", f.variable,
                                 f.row.empty() ? "" : "[" + f.row + "]", f.value, f.mean_rel_error, f.evaluations,
                                 f.matches_file ? "  (the file's value)" : "");
        if (!f.matches_file) ++mismatches;
      }
      if (!a.dry_run && !a.check) {
        const std::string text = io::read_whole_file(a.cases);
        io::write_file_atomically(
            a.cases,
            io::splice_scalars(a.cases, text, {{"suites." + suite.id + ".fitted", fitting::fitted_text(fits), true}}));
        std::cout << "  written to " << a.cases << "\n";
      }
      if (suite.fit_params.empty()) continue;
    }
    const core::MachineSpec machine = io::load_machine(suite.machine_path);
    const auto by_profile = fitted_cases_by_profile(suite, a.profile);
    std::vector<io::ScalarEdit> edits;
    std::cout << fmt::format("suite {}: fitting {} ({})\n", suite.id, suite.machine_path,
                             fmt::join(suite.fit_params, ", "));
    for (const auto& [profile, fit_cases] : by_profile) {
      const core::SoftwareProfile* current = machine.find_profile(profile);
      if (!current)
        throw io::InputError({suite.machine_path, 0, 0}, "software.profiles." + profile,
                             "profile named by " + suite.data_path + " is missing");
      std::map<calib::RunKey, core::Workload> workloads;
      for (const auto& key : calib::runs_needed(fit_cases)) workloads[key] = suite_workload(suite, key, *current);
      const calib::FitResult fit = calib::fit_profile(machine, profile, workloads, fit_cases, suite.fit_params);
      const std::string base = "software.profiles." + profile;
      std::cout << fmt::format(
          "  profile {:<10} points {:>2}  rms rel err {:.4f}  max rel err {:.4f}  ({} evaluations)\n", profile,
          fit.points, fit.rms_rel_error, fit.max_rel_error, fit.evaluations);
      for (const auto& [key, value] : fit.params) {
        const double in_file = value_in(*current, key);
        const bool same = std::fabs(in_file / value - 1.0) <= kCheckTolerance;
        if (!same) ++mismatches;
        std::cout << fmt::format("    {:<18} {:>16}   (file: {}{})\n", key,
                                 core::format_quantity(value, quantity_of(key)),
                                 core::format_quantity(in_file, quantity_of(key)), same ? "" : ", differs");
        edits.push_back({base + "." + key, core::format_quantity(value, quantity_of(key))});
      }
      for (size_t i = 0; i < fit_cases.size(); ++i)
        std::cout << fmt::format("    residual {:<56} {:>+8.2f}%\n", fit_cases[i].id.substr(suite.id.size() + 1),
                                 fit.rel_errors[i] * 100);
      // Ranges: refitted now with --bootstrap; else the file's, kept while they still hold the values.
      std::map<std::string, core::ParamRange> ranges;
      int resamples = a.bootstrap;
      if (a.bootstrap > 0) {
        ranges = bootstrap_ranges(machine, profile, workloads, fit_cases, suite.fit_params, fit, a.bootstrap);
        for (const auto& [key, r] : ranges)
          std::cout << fmt::format("    {:<18} 5-95% over {} bootstrap refits: {} .. {}\n", key, a.bootstrap,
                                   core::format_quantity(r.low, quantity_of(key)),
                                   core::format_quantity(r.high, quantity_of(key)));
      } else if (machine.fits.count(profile) && !machine.fits.at(profile).ranges.empty()) {
        resamples = machine.fits.at(profile).bootstrap;
        ranges = machine.fits.at(profile).ranges;
        for (const auto& [key, v] : fit.params)
          if (ranges.count(key) && (v < ranges[key].low || v > ranges[key].high)) {
            std::cout << "    the file's ranges no longer hold the fitted values: dropped (rerun with --bootstrap N)\n";
            ranges.clear();
            break;
          }
      }
      if (!machine.fits.count(profile))
        throw io::InputError({suite.machine_path, 0, 0}, base + ".fit",
                             "is missing: add 'fit: {suite: " + suite.id + "}', then calibrate again");
      edits.push_back({base + ".fit", fit_text(suite.id, fit, resamples, ranges), true});
    }
    if (!a.dry_run && !a.check) {
      const std::string text = io::read_whole_file(suite.machine_path);
      io::write_file_atomically(suite.machine_path, io::splice_scalars(suite.machine_path, text, edits));
      std::cout << "  written to " << suite.machine_path << "\n";
    }
  }
  if (!found) throw io::InputError({a.cases, 0, 0}, "suites", "no suite named '" + a.suite + "'");
  if (a.check && mismatches > 0) {
    std::cout << mismatches << " fitted value(s) differ from the machine file: run `t3sim calibrate` and commit.\n";
    return 1;
  }
  return 0;
}

}  // namespace t3sim::cli
