// The T3D's and T3E's virtual-channel assignment (network.dateline: cray_balanced): a path along a ring
// that does not cross the ring's dateline takes a half of the escape VCs fixed for its route, chosen
// once (the machine's routing tables) so that uniform traffic loads the two halves of every link as
// evenly as it can. Scott and Thorson (PCRCW 1994) call this virtual channel balance and assigned the
// T3D's by simulated annealing over its routes; the T3E's paper (Hot Interconnects IV, 1996) speaks of
// "optimized virtual channel assignments". Their tables are not published, so this balance is worked
// out here by the objective described in DatelineTable's constructor (docs/research/t3e-vc-assignment.md:
// the sources, and what is assumed).
//
// The packet routing reads the half of a route once per ring (where cray_half says Draw), the flow
// model's VC holding time the same half, so both count the same classes.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/machine/machine_spec.hpp"

namespace t3sim::core {

class DatelineTable {
 public:
  // For every ring of the torus `dims` and both ways along it: the half of each segment from one
  // coordinate to another that does not cross the wrap. Segments are weighted as uniform traffic gives
  // them under `tie_rule` (a segment of k/2 hops goes the tie rule's way, both ways at half weight
  // when balanced). Per ring size and way, the halves minimise the sum over links of the squared loads
  // of each half (the crossing segments' halves fixed by the dateline), found by a greedy assignment,
  // longest segments first, then single flips while one lowers the sum; ties go to the lower half.
  // Deterministic: the same dims and tie rule give the same table.
  DatelineTable(const Coord& dims, TieRule tie_rule);
  DatelineTable() = default;

  // The half (0 lower, 1 upper) of the segment from `from` to `to` on ring `dim`, going - if `minus`.
  // Only meaningful for a segment that does not cross the wrap.
  int half(int dim, int from, int to, bool minus) const {
    const Ring& r = rings_[static_cast<size_t>(ring_of_[dim])];
    return r.halves[static_cast<size_t>((minus ? r.k * r.k : 0) + from * r.k + to)];
  }

  // What the balance reached on ring `dim` going + (- when `minus`): the largest load of one half of one
  // link, and the same with every free segment split evenly between the halves (a lower bound no
  // assignment of whole segments beats), in segments of uniform traffic.
  double largest_load(int dim, bool minus) const;
  double split_load(int dim, bool minus) const;

 private:
  struct Ring {
    int k = 1;
    std::vector<uint8_t> halves;  // by way x k x k + from x k + to
    double largest[2] = {0, 0}, split[2] = {0, 0};
  };
  static Ring balance(int k, TieRule tie_rule);
  std::vector<Ring> rings_;
  int ring_of_[3] = {0, 0, 0};
};

}  // namespace t3sim::core
