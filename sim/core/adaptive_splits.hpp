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
// - Rebalancing: after each solve, every entry whose rate changed and that a link holds (its solver
//   bottleneck is a torus link, not its node's interface, its PE's rate or its cap) looks for a
//   minimal route with slack on every link: spare capacity, per flow of the entry, or a user faster
//   than the entry (by how much). If the widest route by slack has more than kGain x the entry's rate
//   on every link, the entry could raise its rate by moving load there: 1/(m + 2) of the entry moves
//   after its m-th move (the method of successive averages, which damps two entries chasing one free
//   route), routes left with less than kMinFraction are dropped, and the instant is solved again.
//
// The fixed point aimed at: no entry held by a link while a minimal route has slack above kGain (1%)
// of its rate on every link, so that no entry can raise its own max-min rate by moving load to another
// minimal route (the condition of max-min fair multipath routing). The rounds move towards it but are
// bounded (kRounds per instant; Stats::unconverged counts the instants that ended with a move still
// promising), and across instants the iteration goes on as rates change. Measured on 12 random flow
// sets (40 flows on 4x4x2, 600 on 8x8x8; no move budget): 300 rounds raise the slowest entry from
// 33-50 to 35-99 and the total rate by 17-36%, but 23-568 entries still move in the last round; the
// pair of TwoFlowsOfAPairSpreadOverFourDisjointRoutes reaches it exactly. Cost: a split flow crosses more
// links, which couples the solver's system (a solve re-solves more entries), and each move is a
// solve; so an entry moves at most MachineSpec::adaptive_moves times (torus.adaptive_moves, default
// 4; 0: the route chosen at injection is kept), one round per instant. Measured costs in the README
// (Routing). Deterministic: entries in id order, ties broken in a fixed order.
#pragma once
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "sim/core/flow_solver.hpp"
#include "sim/core/minimal_paths.hpp"

namespace t3sim::core {

class AdaptiveSplits {
 public:
  static constexpr int kMaxRoutes = 4;          // routes per entry: bounds the solver's coupling
  static constexpr double kMinFraction = 0.01;  // a route with less of its entry is dropped
  static constexpr double kGain = 0.01;         // a move must promise this much more rate (relative)
  static constexpr int kRounds = 1;             // move-and-solve rounds per instant at most

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
  // One round over `candidates` (after a solve): moves a share of each entry that can gain, calling
  // before_move(e) just before e's routes change. Returns the number of entries moved (0: the fixed
  // point holds for them).
  int rebalance(FlowSolver& solver, const std::vector<EntryId>& candidates,
                const std::function<void(EntryId)>& before_move = {});

  struct Stats {
    uint64_t examined = 0;     // entries examined
    uint64_t moves = 0;        // shares moved
    uint64_t unconverged = 0;  // instants whose rounds ran out with a move still promising
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
  std::vector<LinkId> route_;  // scratch
  std::vector<std::pair<ResourceId, double>> compose_scratch_;
  std::vector<ResourceId> path_;
  std::vector<double> weights_;
  Stats stats_;
};

}  // namespace t3sim::core
