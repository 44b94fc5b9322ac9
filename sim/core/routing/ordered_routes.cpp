#include "sim/core/routing/ordered_routes.hpp"

namespace t3sim::core {

OrderedRoutes::OrderedRoutes(const Torus& torus, Coord order, TieRule tie, HopOrder hop_order)
    : torus_(torus), order_(order), tie_(tie), hop_order_(hop_order) {}

Direction OrderedRoutes::direction(int a_coord, int b_coord, int dim) const {
  const int plus = torus_.plus_steps(a_coord, b_coord, dim);
  const int minus = torus_.dims()[dim] - plus;
  if (plus < minus) return Direction::Plus;
  if (minus < plus) return Direction::Minus;
  switch (tie_) {
    case TieRule::Plus:
      return Direction::Plus;
    case TieRule::Minus:
      return Direction::Minus;
    case TieRule::Balanced:
      break;
  }
  return a_coord % 2 == 0 ? Direction::Plus : Direction::Minus;
}

std::vector<Hop> OrderedRoutes::route(int src_node, int dst_node) const {
  std::vector<Hop> hops;
  for_each_hop(src_node, dst_node, [&hops](const Hop& h) { hops.push_back(h); });
  return hops;
}

int OrderedRoutes::hop_count(int src_node, int dst_node) const {
  const Coord a = torus_.coord(src_node);
  const Coord b = torus_.coord(dst_node);
  int n = 0;
  for (int d = 0; d < 3; ++d) n += torus_.ring_distance(a[d], b[d], d);
  return n;
}

}  // namespace t3sim::core
