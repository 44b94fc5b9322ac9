// Minimal adaptive routing as a fluid: each flow spread over a few minimal routes, its split moved
// towards routes where it would run faster, as the T3E's routers send each packet the least busy
// productive way (Scott and Thorson, HOT Interconnects IV, 1996).
//
// The model. A pair's flows of one kind are one solver entry (core/flow_solver.hpp) spread over at
// most kMaxRoutes minimal routes with fractions summing to 1; its weight on a link is the sum of the
// fractions of its routes that cross it (as oblivious routing, but with fractions that follow load).
// - Injection: a new entry starts on its widest route, a link offering what its users leave or the
//   fastest user's rate if more (max-min lets a newcomer take capacity from faster users), divided
//   among the entries routed over it since the last solve (their rates are not known yet). On an idle
//   torus that is the dimension-order route (minimal_paths.hpp breaks ties that way).
// - Re-balancing, when the flows have settled: once the set of flows has not changed for
//   kSettleQuiet of simulated time (and at most once per kSettleInterval), every entry's split is
//   computed again from scratch by progressive filling over routes (refill): all entries grow
//   together in steps of c/kFillSteps per flow (c: the slowest link), each step of each entry on its
//   widest minimal route by the capacity the steps so far have left, until its interfaces or every
//   route it could take are full; an entry keeps its kMaxRoutes routes with the most of it. This is
//   a greedy approximation of the max-min fair split over all minimal routes (the split no other can
//   better for its slowest flows, hence no slower there than oblivious routing's even split), not a
//   guarantee of it: a greedy step can take a route that a slower entry needed. It depends only on the
//   flows present, not on the moves made before. The solver then gives the exact max-min rates of
//   those splits, and up to MachineSpec::adaptive_moves rounds of moves polish them towards the fixed
//   point below.
// - A move (rebalance): an entry held by a link (its solver bottleneck is a torus link, not its
//   node's interface, its PE's rate or its cap) looks for a minimal route with slack on every link:
//   spare capacity, per flow of the entry, or a user faster than the entry (by how much), shared
//   with the entries that moved onto that link earlier in the round. If the widest route by slack has
//   more than kGain x the entry's rate on every link, the entry moves load there, taken only from its
//   routes that cross a link holding it (saturated, no user faster): 1/(m + 2) of the entry after its
//   m-th move since the last refill (the method of successive averages), at most half the slack
//   (it takes at most half of what the route offered it) and at least 2 kMinFraction;
//   routes left with less than kMinFraction are dropped; the round's moves are solved together.
//
// The fixed point aimed at: no entry held by a link while a minimal route has slack above kGain (1%)
// of its rate on every link, so that no entry can raise its own max-min rate by moving load to another
// minimal route (the condition of max-min fair multipath routing). The rounds after a refill move
// towards it, at most adaptive_moves per entry (Stats::unconverged counts the re-balancings that ended
// with a move still promising); a move smaller than 2 kMinFraction is not made, so kMinFraction is
// kGain / 4 (a move promised kGain moves half of it). Between re-balancings new flows take their widest
// route at injection and nothing moves: when flows come and go faster than kSettleQuiet (an
// all-to-all), the routes are mostly those chosen at injection. Why re-balance when the flows settle
// rather than move after every solve (as before, 4 moves per entry in its life): moves made while
// flows start a router delay apart, or while flag puts join their data's entry, used the budget on
// transients and left the 532-PE mcurie tornado's slowest PE at 48 MB/s against oblivious routing's 60;
// re-balancing at quiet instants gives it 60.3, and costs an all-to-all far less, as few instants are
// quiet (measured figures in docs/results.md, Adaptive routing, and docs/performance.md, Adaptive routing's cost).
// Deterministic: entries in id order, ties broken in a fixed order.
#pragma once
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/routing/minimal_paths.hpp"

namespace t3sim::core {

class AdaptiveSplits {
 public:
  static constexpr int kMaxRoutes = 4;             // routes per entry: bounds the solver's coupling
  static constexpr double kMinFraction = 0.0025;   // a route with less of its entry is dropped (kGain / 4)
  static constexpr double kGain = 0.01;            // a move must promise this much more rate (relative)
  static constexpr double kHeldTolerance = 1e-9;   // a link holds an entry: saturated and none faster, to this
  static constexpr int kFillSteps = 256;           // refill: per-flow step, c / kFillSteps
  static constexpr int kFillRoutes = 16;           // refill: routes an entry may grow on (the most used kept)
  static constexpr double kSettleQuiet = 10e-6;    // s: re-balance when no flow came or went for this long
  static constexpr double kSettleInterval = 1e-3;  // s: and at most once per this much simulated time

  // paths: the torus's minimal routes; link l is the solver's resource link_offset + l, l < link_bound;
  // max_moves: moves per entry at most (MachineSpec::adaptive_moves).
  AdaptiveSplits(const MinimalPaths& paths, ResourceId link_offset, int link_bound, int max_moves);

  // One more flow for `key` (a pair and kind: the caller's name for it) from src_node to dst_node over
  // `base` (its resources other than torus links, weight 1): joins the key's live entry, or starts a
  // new entry on the widest route. Returns -1 (nothing added) when failures cut dst_node off.
  EntryId add_flow(FlowSolver& solver, uint64_t key, int src_node, int dst_node, const std::vector<ResourceId>& base);
  // The solver has solved: the flows started since have rates.
  void solved();
  // The entry's last flow ended (the solver freed it): forget its routes.
  void forget(EntryId e);
  // Every live entry's split computed again by progressive filling (see above; the solver has
  // solved), calling before_move(e) just before e's routes change. Returns the entries rerouted (the
  // caller solves). Every entry may move adaptive_moves times again.
  int refill(FlowSolver& solver, const std::function<void(EntryId)>& before_move = {});
  // One round over `candidates` (after a solve): moves a share of each entry that can gain, calling
  // before_move(e) just before e's routes change. Returns the number of entries moved (0: the fixed
  // point holds for them).
  int rebalance(FlowSolver& solver, const std::vector<EntryId>& candidates,
                const std::function<void(EntryId)>& before_move = {});
  int max_moves() const { return max_moves_; }

  struct Stats {
    uint64_t examined = 0;     // entries examined
    uint64_t moves = 0;        // shares moved
    uint64_t refills = 0;      // re-balancings (refills)
    uint64_t unconverged = 0;  // re-balancings whose rounds ran out with a move still promising
  };
  const Stats& stats() const { return stats_; }
  Stats& stats() { return stats_; }
  // The routes of a live entry, for tests: each route's links in order and its fraction.
  struct Route {
    std::vector<LinkId> links;
    double fraction = 0;
  };
  const std::vector<Route>& routes(EntryId e) const { return state_.at(static_cast<size_t>(e)).routes; }

 private:
  struct EntryState {
    uint64_t key = 0;
    int src_node = -1;
    int dst_node = -1;
    std::vector<ResourceId> base;
    std::vector<Route> routes;
    int moves = 0;
  };
  // The entry's resources and weights from its base and routes (sorted by resource id).
  void compose(const EntryState& s, std::vector<ResourceId>& path, std::vector<double>& weights);
  static void normalise(std::vector<Route>& routes);  // fractions scaled to sum to 1
  // What link l leaves entry e to grow into, per flow (see the model above).
  double slack(const FlowSolver& solver, EntryId e, LinkId l) const;
  bool held_by_link(const FlowSolver& solver, EntryId e) const;

  int pending(LinkId l) const;  // new entries routed over l since the last solve
  void add_pending(const std::vector<LinkId>& route);

  const MinimalPaths& paths_;
  std::vector<int> pending_;  // by link
  std::vector<LinkId> pending_links_;
  ResourceId link_offset_;
  int link_bound_;
  int max_moves_;
  std::vector<EntryState> state_;  // by entry id
  std::unordered_map<uint64_t, EntryId> by_key_;
  std::vector<LinkId> route_;     // scratch
  std::vector<char> held_;        // scratch, by route: it crosses a link that holds the entry
  std::vector<double> residual_;  // refill: capacity left, by resource
  std::vector<std::pair<ResourceId, double>> compose_scratch_;
  std::vector<ResourceId> path_;
  std::vector<double> weights_;
  Stats stats_;
};

}  // namespace t3sim::core
