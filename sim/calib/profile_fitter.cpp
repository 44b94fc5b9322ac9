#include "sim/calib/profile_fitter.hpp"

#include <nlopt.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/calib/validation_run.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"

namespace t3sim::calib {
namespace {

struct Problem {
  const core::MachineSpec* machine;
  core::SoftwareProfile profile;
  const std::map<calib::RunKey, core::Workload>* workloads;
  const std::vector<calib::MeasuredCase>* cases;
  std::vector<const core::ParamDecl<core::SoftwareProfile>*> free;
  int evaluations = 0;

  void apply(const std::vector<double>& log_x) {
    for (size_t i = 0; i < free.size(); ++i) free[i]->set(profile, std::exp(log_x[i]));
  }
  std::vector<double> rel_errors() const {
    const core::CostModel cost(*machine, profile);
    std::map<calib::RunKey, core::RunResult> runs;
    for (const auto& [key, workload] : *workloads) runs[key] = core::replay_uncontended(cost, workload);
    std::vector<double> errs;
    for (const auto& c : *cases) errs.push_back(predicted_value(c, runs.at(c.run)) / c.measured - 1.0);
    return errs;
  }
};

double objective(const std::vector<double>& x, std::vector<double>& /*grad*/, void* data) {
  auto* p = static_cast<Problem*>(data);
  ++p->evaluations;
  p->apply(x);
  double sum = 0;
  for (double e : p->rel_errors()) {
    const double l = std::log1p(e);
    sum += l * l;
  }
  return sum;
}

}  // namespace

FitResult fit_profile(const core::MachineSpec& machine, const std::string& profile,
                      const std::map<calib::RunKey, core::Workload>& workloads,
                      const std::vector<calib::MeasuredCase>& cases, const std::vector<std::string>& free_params) {
  const core::SoftwareProfile* base = machine.find_profile(profile);
  if (!base) throw std::runtime_error("machine '" + machine.name + "' has no profile '" + profile + "'");
  Problem prob{&machine, *base, &workloads, &cases, {}, 0};
  std::vector<double> x, lo, hi;
  for (const auto& d : core::profile_params()) {
    if (!d.fit || std::find(free_params.begin(), free_params.end(), d.key) == free_params.end()) continue;
    prob.free.push_back(&d);
    x.push_back(std::log(d.fit->start));
    lo.push_back(std::log(d.fit->lower));
    hi.push_back(std::log(d.fit->upper));
  }
  if (cases.size() < prob.free.size())
    throw std::runtime_error("profile '" + profile + "': " + std::to_string(cases.size()) + " cases cannot fit " +
                             std::to_string(prob.free.size()) + " parameters");
  nlopt::opt opt(nlopt::LN_BOBYQA, static_cast<unsigned>(x.size()));
  opt.set_lower_bounds(lo);
  opt.set_upper_bounds(hi);
  opt.set_min_objective(objective, &prob);
  opt.set_xtol_rel(1e-12);
  opt.set_ftol_abs(1e-18);
  opt.set_maxeval(20000);
  double best = 0;
  opt.optimize(x, best);
  prob.apply(x);

  FitResult r;
  for (size_t i = 0; i < prob.free.size(); ++i) r.params.emplace_back(prob.free[i]->key, std::exp(x[i]));
  r.rel_errors = prob.rel_errors();
  summarise_residuals(r);
  r.evaluations = prob.evaluations;
  return r;
}

void summarise_residuals(FitResult& r) {
  r.points = static_cast<int>(r.rel_errors.size());
  r.max_rel_error = 0;
  double ss = 0;
  for (double e : r.rel_errors) {
    ss += e * e;
    r.max_rel_error = std::max(r.max_rel_error, std::fabs(e));
  }
  r.rms_rel_error = r.points > 0 ? std::sqrt(ss / static_cast<double>(r.points)) : 0;
}

}  // namespace t3sim::calib
