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
#include <array>
#include <functional>
#include <vector>

#include "sim/core/topology/torus.hpp"

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
  // Appends the links of one shortest working route from src to dst whose least score (score(link); below 0 counts as
  // 0) is the largest, in route order: the widest route, for adaptive routing. Ties go to the route that corrects the
  // lower dimension first (on equal scores: x, then y, then z, the dimension-order route), and between the two ways
  // round a ring at distance k/2 to +. Returns the hop count; -1 (nothing appended) when failures cut dst off.
  int widest_route(int src, int dst, const std::function<double(LinkId)>& score, std::vector<LinkId>& route) const;
  // The same with the scores given by link id (score[link]): no call per link, for the many searches of
  // adaptive routing's refill.
  int widest_route(int src, int dst, const double* score, std::vector<LinkId>& route) const;
  bool failed(LinkId l) const { return !failed_.empty() && failed_[static_cast<size_t>(l)]; }

 private:
  // The minimal routes of one way round each ring: the lattice of hop counts (i, j, k), i fastest, and
  // the working link leaving each point along each dimension (-1: none or failed).
  struct Lattice {
    Coord extent{};
    std::array<size_t, 3> stride{};
    size_t points = 0;
    std::vector<std::array<LinkId, 3>> out;
    Coord step(size_t p) const {
      const int i = static_cast<int>(p);
      return {i % extent[0], (i / static_cast<int>(stride[1])) % extent[1], i / static_cast<int>(stride[2])};
    }
    // The working link into point p along dimension d (-1: none).
    LinkId in(size_t p, int d) const {
      if (step(p)[d] == 0) return -1;
      return out[p - stride[static_cast<size_t>(d)]][static_cast<size_t>(d)];
    }
  };
  // Ring distances from a to b and the ways round each ring that are shortest (both at k/2).
  void directions(const Coord& a, const Coord& b, Coord& dist, std::vector<Direction> (&choices)[3]) const;
  void build_lattice(const Coord& a, const Coord& dist, const Direction (&dir)[3], Lattice& lat) const;
  // widest_route over the minimal routes (src != dst); -1 (nothing appended) when failures block them all.
  template <class Score>
  int widest_minimal(int src, int dst, const Score& score, std::vector<LinkId>& route) const;
  // Breadth-first levels and shortest-route counts from start over working links (backward: against
  // their direction).
  void search(int start, bool forward, std::vector<int>& level, std::vector<double>& sigma) const;
  // visit(u, v, link) for every working link on a shortest route of `length` hops.
  template <class Visit>
  void for_each_detour_link(const std::vector<int>& from_src, const std::vector<int>& to_dst, int length,
                            Visit&& visit) const;
  int widest_detour(int src, int dst, const std::function<double(LinkId)>& score, std::vector<LinkId>& route) const;
  // Hops of a minimal route on the torus, failures aside: the sum of the ring distances.
  int torus_distance(int src, int dst) const;
  // The lattice count over the minimal routes; false when failures block them all.
  bool split_minimal(int src, int dst, std::vector<LinkId>& links, std::vector<double>& weights) const;
  // The breadth-first count over the whole torus; the hop count, -1 when cut off.
  int split_detour(int src, int dst, std::vector<LinkId>* links, std::vector<double>* weights) const;

  Torus torus_;
  std::vector<bool> failed_;  // by link id; empty when none failed
  // Scratch reused from call to call (adaptive routing asks for a widest route per new flow): a
  // MinimalPaths is used by one simulation, on one thread.
  mutable std::array<std::vector<int>, 3> lattice_terms_;
  mutable Lattice widest_lattice_;
  mutable std::vector<double> widest_best_;
  mutable std::vector<signed char> widest_via_;
};

}  // namespace t3sim::core
