// The shortest routes between two nodes of a torus that avoid failed links, and the fraction of them
// that crosses each link: the link weights of a flow spread evenly over its minimal routes.
//
// Without failures on the way these are the torus's minimal routes: in each dimension the shorter way
// round the ring (both ways at distance exactly k/2), the hops of the dimensions interleaved in every
// order. Their number is a multinomial, too many to list (34,650 from (0,0,0) to (4,4,4)), so they are
// counted, not listed: on the lattice of hop counts done per dimension, f(p) routes reach point p from
// the source and b(p) go on from p to the destination; a link from p to q lies on f(p) b(q) of the
// f(destination) routes (the edge-betweenness count of Brandes, 2001). With a tie at k/2 the routes
// going either way are counted together. When failed links leave no minimal route, the same count runs
// over a breadth-first search of the torus without them: the shortest detours, longer than the torus
// distance.
#pragma once
#include <vector>

#include "sim/core/torus.hpp"

namespace t3sim::core {

class MinimalPaths {
 public:
  // failed: directed link ids (any order, duplicates allowed).
  MinimalPaths(const Torus& torus, const std::vector<LinkId>& failed);

  // Appends every link on a shortest route from src to dst that avoids the failed links, in increasing
  // id order, and the fraction of those routes that cross it (weights sum to the hop count). Returns the
  // hop count; -1 (nothing appended) when failures cut dst off from src.
  int split(int src, int dst, std::vector<LinkId>& links, std::vector<double>& weights) const;
  // The hop count alone (-1: cut off).
  int hops(int src, int dst) const;
  bool failed(LinkId l) const { return !failed_.empty() && failed_[static_cast<size_t>(l)]; }

 private:
  // Hops of a minimal route on the torus, failures aside: the sum of the ring distances.
  int torus_distance(int src, int dst) const;
  // The lattice count over the minimal routes; false when failures block them all.
  bool split_minimal(int src, int dst, std::vector<LinkId>& links, std::vector<double>& weights) const;
  // The breadth-first count over the whole torus; the hop count, -1 when cut off.
  int split_detour(int src, int dst, std::vector<LinkId>* links, std::vector<double>* weights) const;

  Torus torus_;
  std::vector<bool> failed_;  // by link id; empty when none failed
};

}  // namespace t3sim::core
