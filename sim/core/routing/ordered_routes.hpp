// Deterministic minimal routes on a Torus: dimension order (the T3D's: correct one dimension fully,
// then the next) or direction order (the T3E's escape routes: every + hop first, in dimension order,
// then every - hop; Dally & Towles, Principles and Practices of Interconnection Networks, 2004,
// section 14.6). Which dimension goes first, and which way a packet turns when both ways round a ring
// are equally short (distance exactly k/2 on an even ring), are machine fields.
#pragma once
#include <vector>

#include "sim/core/support/enum_names.hpp"
#include "sim/core/topology/torus.hpp"

namespace t3sim::core {

// At distance exactly k/2: go in the + direction, or in the - direction, or balanced: + from an even
// coordinate along that dimension and - from an odd one, so that the k/2 shift of a ring sends half
// its packets each way (on a ring of k = 4m every link of both directions then carries m of them).
enum class TieRule { Plus, Minus, Balanced };
// As a machine's torus.tie_rule names them.
constexpr NameTable<TieRule, 3> kTieRuleNames = {
    {TieRule::Plus, "plus"}, {TieRule::Minus, "minus"}, {TieRule::Balanced, "balanced"}};
constexpr const auto& name_table(TieRule) { return kTieRuleNames; }

// Dimension: order[0] fully, then order[1], then order[2]. Direction: the + hops of order[0], order[1],
// order[2], then their - hops (so +x +y +z -x -y -z for the order x, y, z).
enum class HopOrder { Dimension, Direction };

struct Hop {
  LinkId link;
  int from_node;
  int to_node;
};

class OrderedRoutes {
 public:
  // order: a permutation of {0,1,2}; the route corrects order[0] first, then order[1], then order[2].
  OrderedRoutes(const Torus& torus, Coord order, TieRule tie, HopOrder hop_order = HopOrder::Dimension);

  // Hops from src to dst node (empty when src == dst). Length = sum of ring distances.
  std::vector<Hop> route(int src_node, int dst_node) const;
  // Calls visit(hop) for each hop of route(src_node, dst_node), in order, without building a vector.
  template <class Visit>
  void for_each_hop(int src_node, int dst_node, Visit&& visit) const {
    Coord at = torus_.coord(src_node);
    const Coord dst = torus_.coord(dst_node);
    // Each dimension's direction is fixed at the source (the T3E's three direction bits).
    Direction dirs[3];
    for (int dim = 0; dim < 3; ++dim)
      if (at[dim] != dst[dim]) dirs[dim] = direction(at[dim], dst[dim], dim);
    int node = src_node;
    const int passes = hop_order_ == HopOrder::Direction ? 2 : 1;
    for (int pass = 0; pass < passes; ++pass) {
      for (int dim : order_) {
        if (at[dim] == dst[dim]) continue;
        const Direction dir = dirs[dim];
        if (hop_order_ == HopOrder::Direction && dir != (pass == 0 ? Direction::Plus : Direction::Minus)) continue;
        const int k = torus_.dims()[dim];
        const int step = dir == Direction::Plus ? 1 : k - 1;
        while (at[dim] != dst[dim]) {
          at[dim] = (at[dim] + step) % k;
          const int next = torus_.node_id(at);
          visit(Hop{Torus::link_id(node, dim, dir), node, next});
          node = next;
        }
      }
    }
  }
  int hop_count(int src_node, int dst_node) const;
  // Direction taken along dim from coordinate a to b (only meaningful when a != b).
  Direction direction(int a_coord, int b_coord, int dim) const;

  const Torus& torus() const { return torus_; }
  const Coord& order() const { return order_; }
  TieRule tie_rule() const { return tie_; }
  HopOrder hop_order() const { return hop_order_; }

 private:
  Torus torus_;
  Coord order_;
  TieRule tie_;
  HopOrder hop_order_;
};

}  // namespace t3sim::core
