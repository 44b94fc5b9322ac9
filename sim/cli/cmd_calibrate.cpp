#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include <cmath>
#include <iostream>
#include <set>

#include "sim/calib/profile_fitter.hpp"
#include "sim/calib/validation_run.hpp"
#include "sim/cli/commands.hpp"
#include "sim/core/machine_params.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/cases_loader.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/machine_loader.hpp"
#include "sim/io/workload_loader.hpp"
#include "sim/io/yaml_splice.hpp"

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

}  // namespace

int cmd_calibrate(const CalibrateArgs& a) {
  const auto suites = io::load_suites(a.cases);
  bool found = false;
  int mismatches = 0;
  for (const auto& suite : suites) {
    if (!a.suite.empty() && suite.id != a.suite) continue;
    found = true;
    const core::MachineSpec machine = io::load_machine(suite.machine_path);
    std::map<std::string, std::vector<core::MeasuredCase>> by_profile;
    for (const auto& c : io::load_suite_cases(suite)) {
      const bool metric_fitted =
          suite.fit_metrics.empty() ||
          std::find(suite.fit_metrics.begin(), suite.fit_metrics.end(), c.metric) != suite.fit_metrics.end();
      if ((a.profile.empty() || c.run.profile == a.profile) && c.bytes >= suite.fit_min_bytes && metric_fitted)
        by_profile[c.run.profile].push_back(c);
    }
    std::vector<io::ScalarEdit> edits;
    std::cout << fmt::format("suite {}: fitting {} ({})\n", suite.id, suite.machine_path,
                             fmt::join(suite.fit_params, ", "));
    for (const auto& [profile, fit_cases] : by_profile) {
      const core::SoftwareProfile* current = machine.find_profile(profile);
      if (!current)
        throw io::InputError({suite.machine_path, 0, 0}, "software.profiles." + profile,
                             "profile named by " + suite.data_path + " is missing");
      std::map<core::RunKey, core::Workload> workloads;
      for (const auto& key : calib::runs_needed(fit_cases))
        workloads[key] = io::load_workload(suite.workload_path, key.variables).workload;
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
      edits.push_back({base + ".fit.suite", suite.id});
      edits.push_back({base + ".fit.points", std::to_string(fit.points)});
      edits.push_back({base + ".fit.rms_rel_error", fmt::format("{:.4f}", fit.rms_rel_error)});
      edits.push_back({base + ".fit.max_rel_error", fmt::format("{:.4f}", fit.max_rel_error)});
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
