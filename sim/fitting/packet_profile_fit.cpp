#include "sim/fitting/packet_profile_fit.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/calib/bounded_minimiser.hpp"
#include "sim/child/child_run.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/support/units.hpp"

namespace t3sim::fitting {
namespace {

core::Quantity quantity_of(const std::string& key) {
  for (const auto& d : core::profile_params())
    if (d.key == key) return d.quantity;
  throw std::logic_error("no profile parameter '" + key + "' (the loader checks packet_fit_params)");
}

}  // namespace

std::vector<calib::CaseResult> evaluate_under_packets(const calib::SuiteSpec& suite,
                                                      std::vector<calib::MeasuredCase> cases,
                                                      const std::string& profile,
                                                      const std::vector<std::pair<std::string, double>>& values) {
  calib::SuiteSpec under_packets = suite;
  under_packets.driver = "packet";
  for (auto& c : cases)
    for (const auto& [key, v] : values)  // exact text: a trial is the value the optimiser chose
      c.run.params.emplace_back("software.profiles." + profile + "." + key,
                                core::format_quantity_exact(v, quantity_of(key)));
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

  PacketProfileFit fit;
  fit.params = values_at(best.x);
  fit.results = evaluate_under_packets(suite, cases, profile, fit.params);
  fit.evaluations = evaluations;
  double ss = 0;
  for (const auto& r : fit.results) {
    ss += r.rel_error * r.rel_error;
    fit.max_rel_error = std::max(fit.max_rel_error, std::fabs(r.rel_error));
  }
  fit.points = static_cast<int>(fit.results.size());
  fit.rms_rel_error = fit.points > 0 ? std::sqrt(ss / fit.points) : 0;
  return fit;
}

}  // namespace t3sim::fitting
