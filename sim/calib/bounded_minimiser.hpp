// The minimum of an objective over a box, for fits whose every evaluation is a set of simulations: a
// deterministic global search (NLopt's DIRECT-L) over the whole box, then a local polish from its best
// point (BOBYQA, or COBYLA for one parameter, which BOBYQA does not take). Global first because such an
// objective moves by steps (a changed value reorders the ends of flows) and a local search alone can
// stop in a dip. Same inputs, same evaluations, same answer.
#pragma once
#include <functional>
#include <vector>

namespace t3sim::calib {

struct BoundedMinimum {
  std::vector<double> x;
  double value = 0;
  int evaluations = 0;
};

// `x` the start (inside the box), `global_evaluations` and `local_evaluations` per parameter, the
// polish stops when no parameter moves by more than `x_tolerance` (absolute).
BoundedMinimum minimise_in_box(const std::function<double(const std::vector<double>&)>& objective,
                               std::vector<double> x, const std::vector<double>& lower,
                               const std::vector<double>& upper, int global_evaluations, int local_evaluations,
                               double x_tolerance);

}  // namespace t3sim::calib
