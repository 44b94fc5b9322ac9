#include "sim/calib/validation_run.hpp"

#include <cmath>
#include <stdexcept>

namespace t3sim::calib {

double predicted_duration(const core::RunResult& run, const std::string& label, double bytes) {
  for (const auto& r : run.records)
    if (r.label == label && r.bytes == bytes) return r.duration();
  throw std::runtime_error("run of '" + run.workload + "' has no record '" + label + "' of " +
                           std::to_string(static_cast<long long>(bytes)) + " bytes");
}

std::vector<CaseResult> compare(const std::vector<core::MeasuredCase>& cases,
                                const std::map<std::string, core::RunResult>& runs) {
  std::vector<CaseResult> out;
  for (const auto& c : cases) {
    auto it = runs.find(c.profile);
    if (it == runs.end()) throw std::runtime_error("no run for profile '" + c.profile + "' (case " + c.id + ")");
    CaseResult r;
    r.measured = c;
    r.predicted_s = predicted_duration(it->second, c.record, c.bytes);
    r.rel_error = (r.predicted_s - c.measured_s) / c.measured_s;
    r.within_tolerance = std::fabs(r.rel_error) <= c.tolerance;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace t3sim::calib
