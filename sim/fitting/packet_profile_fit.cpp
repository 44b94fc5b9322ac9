#include "sim/fitting/packet_profile_fit.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/calib/bounded_minimiser.hpp"
#include "sim/child/child_run.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/core/support/units.hpp"

namespace t3sim::fitting {

std::vector<calib::CaseResult> evaluate_under_packets(const calib::SuiteSpec& suite,
                                                      std::vector<calib::MeasuredCase> cases,
                                                      const std::string& profile,
                                                      const std::vector<std::pair<std::string, double>>& values) {
  calib::SuiteSpec under_packets = suite;
  under_packets.driver = "packet";
  std::vector<std::pair<std::string, std::string>> params;
  for (const auto& [key, v] : values) {  // exact text: a trial is the value the optimiser chose
    const std::string path = "software.profiles." + profile + "." + key;
    const auto q = core::param_quantity(path);
    if (!q) throw std::logic_error("no profile parameter '" + key + "' (the loader checks packet_fit_params)");
    params.emplace_back(path, core::format_quantity_exact(v, *q));
  }
  for (auto& c : cases) c.run.params.insert(c.run.params.end(), params.begin(), params.end());
  return calib::compare(cases, child::run_cases_in_children(under_packets, cases));
}

PacketProfileFit fit_profile_under_packets(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases,
                                           const std::string& profile, const std::map<std::string, double>& start) {
  const std::vector<std::string>& keys = suite.packet_fit_params;
  if (cases.size() < keys.size())
    throw std::runtime_error("suite " + suite.id + ": " + std::to_string(cases.size()) + " cases cannot fit " +
                             std::to_string(keys.size()) + " parameters under the packet driver");
  auto values_at = [&](const std::vector<double>& factors) {
    std::vector<std::pair<std::string, double>> values;
    for (size_t i = 0; i < keys.size(); ++i) values.emplace_back(keys[i], start.at(keys[i]) * factors[i]);
    return values;
  };
  int evaluations = 0;
  auto objective = [&](const std::vector<double>& factors) {
    ++evaluations;
    double sum = 0;
    for (const auto& r : evaluate_under_packets(suite, cases, profile, values_at(factors))) {
      const double l = std::log1p(r.rel_error);
      sum += l * l;
    }
    return sum;
  };
  const std::vector<double> x(keys.size(), 1.0), lo(keys.size(), kLowestFactor), hi(keys.size(), kHighestFactor);
  // 1e-4 of a factor: half a nanosecond of a 5 us overhead, below what one router cycle (13 ns) moves.
  const calib::BoundedMinimum best = calib::minimise_in_box(objective, x, lo, hi, 8, 8, 1e-4);

  PacketProfileFit out;
  out.fit.params = values_at(best.x);
  out.results = evaluate_under_packets(suite, cases, profile, out.fit.params);
  for (const auto& r : out.results) out.fit.rel_errors.push_back(r.rel_error);
  calib::summarise_residuals(out.fit);
  out.fit.evaluations = evaluations;
  return out;
}

}  // namespace t3sim::fitting
