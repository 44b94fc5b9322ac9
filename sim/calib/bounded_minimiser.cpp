#include "sim/calib/bounded_minimiser.hpp"

#include <nlopt.hpp>

#include <stdexcept>

namespace t3sim::calib {
namespace {

struct Call {
  const std::function<double(const std::vector<double>&)>* f;
  int evaluations = 0;
};

double call(const std::vector<double>& x, std::vector<double>& /*grad*/, void* data) {
  auto* c = static_cast<Call*>(data);
  ++c->evaluations;
  return (*c->f)(x);
}

}  // namespace

BoundedMinimum minimise_in_box(const std::function<double(const std::vector<double>&)>& objective,
                               std::vector<double> x, const std::vector<double>& lower,
                               const std::vector<double>& upper, int global_evaluations, int local_evaluations,
                               double x_tolerance) {
  if (x.empty() || lower.size() != x.size() || upper.size() != x.size())
    throw std::invalid_argument("minimise_in_box: a start, lower and upper bound per parameter");
  const unsigned n = static_cast<unsigned>(x.size());
  Call c{&objective, 0};
  double best = 0;
  nlopt::opt global(nlopt::GN_DIRECT_L, n);
  global.set_lower_bounds(lower);
  global.set_upper_bounds(upper);
  global.set_min_objective(call, &c);
  global.set_maxeval(global_evaluations * static_cast<int>(n));
  global.optimize(x, best);
  nlopt::opt local(n == 1 ? nlopt::LN_COBYLA : nlopt::LN_BOBYQA, n);
  local.set_lower_bounds(lower);
  local.set_upper_bounds(upper);
  local.set_min_objective(call, &c);
  local.set_xtol_abs(x_tolerance);
  local.set_maxeval(local_evaluations * static_cast<int>(n));
  local.optimize(x, best);
  return {x, best, c.evaluations};
}

}  // namespace t3sim::calib
