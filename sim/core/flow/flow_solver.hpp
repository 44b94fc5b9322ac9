// Max-min fair bandwidth sharing, solved incrementally: t3sim's own solver for the fast transport.
//
// The model is SimGrid 3.32's CM02 network model as t3sim configures it (zero-latency links, no
// cross-traffic, no TCP window bound): every flow has sharing penalty 1, every resource (a link, a
// node interface) is shared max-min fairly, and a flow may carry its own rate cap (SimGrid: a FATPIPE
// link on its route or a variable bound). The allocation is the unique max-min fair one: no flow's
// rate can grow without lowering the rate of a flow that is no faster. Units: bytes and bytes/s.
//
// Weights. A flow may draw on each resource of its path with a weight w > 0 (its consumption
// coefficient, SimGrid's lmm "expand" weight): at rate x it loads that resource with w x. A flow spread
// over several routes in fixed proportions (oblivious multipath routing, routing.hpp) is one flow whose
// weight on each link is the fraction of its bytes that crosses it. Max-min fairness is in the rates:
// the allocation is the unique one where every flow is at its cap or crosses a saturated resource on
// which no user is faster (the same condition as unweighted; progressive filling raises every rate
// together and a resource saturates when sum of w x reaches its capacity). Without weights every w is 1.
//
// Shares. A flow may also carry a share s > 0 (1 by default): where flows meet at a saturated
// resource their rates are in proportion to their shares, not equal (weighted max-min; SimGrid's
// sharing penalty is 1 / s). Solved as the unweighted problem in x / s: the solver keeps each entry's
// weights multiplied by s and its cap divided by s, and reports rates times s. The flow model uses it
// for routers that arbitrate between input ports rather than between flows (network.port_fairness).
//
// Entries. Flows with the same path, weights, cap and share always get the same rate, so they are one
// entry with a multiplicity; add_flow returns the entry the new flow joined. An entry whose
// multiplicity falls to 0 is freed and its id may be handed out again (lowest free id first).
//
// Incremental solve. The allocation is characterised by local conditions (see flow_solver.cpp):
// every resource is within capacity, and every entry is either at its cap or crosses a saturated
// resource on which no entry is faster. A change (flows added or removed) can break these only on
// the resources of the changed entries. solve() re-solves the entries crossing those resources with
// the rates of all others held fixed, checks the conditions of every entry that shares a resource
// with them, and widens the re-solved set by the resources of any entry that fails, until all hold.
// Since the conditions hold everywhere, the result is the unique max-min allocation: what a full
// solve gives (tests/unit/flow_solver_test.cpp checks this to 1e-12 relative per flow on random
// systems, near-ties included; tests/engine/flow_solver_simgrid_test.cpp checks the rates against
// SimGrid's own solver within its maxmin/precision 1e-5, observed 8e-15).
//
// Tolerance: kRelativeTolerance (1e-13). A resource is saturated when its load is within that
// fraction of its capacity; fair shares within that fraction are one level (frozen together, at
// bitwise equal rates); a rate is the fastest when no user of the resource is faster by more than
// that fraction. It sits ten times below the 1e-12 agreement promised above, so that a level merged
// in one solve and split in another still agrees (measured worst 7e-13 on near-tie capacities).
// Order: sets are sorted by id before a fill, so the same calls give bitwise the same rates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace t3sim::core {

using ResourceId = int;
using EntryId = int;

class FlowSolver {
 public:
  static constexpr double kRelativeTolerance = 1e-13;
  static constexpr double kNoCap = std::numeric_limits<double>::infinity();

  // A shared capacity (bytes/s, > 0 and finite). Resources are never removed.
  ResourceId add_resource(double capacity);
  int resource_count() const { return static_cast<int>(capacity_.size()); }
  // As of the last solve (below the capacity given when r is crowded: set_crowding).
  double capacity(ResourceId r) const { return capacity_.at(static_cast<std::size_t>(r)); }
  // Crowding: r's capacity falls with the streams crossing it, to C / (1 + loss x (n - 1)) for n >= 1
  // (a lone stream keeps all of C). The flow model's stand-in for what packets lose where flows merge
  // (arbitration, virtual channels, head-of-line blocking: network.contention_loss). A stream is the
  // users of one crowd key (set_crowd_key: the transport gives the flow's destination, as flows to one
  // destination follow one route on from where they meet and queue as one), weighing the largest
  // weight among them; an entry without a key is a stream per flow (multiplicity x weight). Applied at
  // each solve to the resources whose users changed, which that solve re-solves anyway, so the
  // allocation stays the exact max-min one on the capacities of the moment. loss >= 0 and finite; 0
  // (the default): a fixed capacity.
  void set_crowding(ResourceId r, double loss);
  // r's capacity is `capacity` from now on (> 0 and finite; before crowding): its users are re-solved at
  // the next solve. For capacities that follow the load (core/flow/vc_holding.hpp).
  void set_capacity(ResourceId r, double capacity);
  // Entry e's crowd key (>= 0; a small id, as a node's: keys index a table). Kept until e is freed.
  void set_crowd_key(EntryId e, int key);

  // One more flow over `path` (distinct resource ids, may be empty), each of its bytes/s <= cap.
  // A flow with an empty path runs at its cap (infinite without one).
  EntryId add_flow(const std::vector<ResourceId>& path, double cap = kNoCap);
  // The same with a weight per resource of the path (> 0 and finite; empty: every weight 1).
  EntryId add_flow(const std::vector<ResourceId>& path, const std::vector<double>& weights, double cap);
  // The same with a share (> 0 and finite; see Shares above).
  EntryId add_flow(const std::vector<ResourceId>& path, const std::vector<double>& weights, double cap, double share);
  // One flow of entry e fewer (its flow completed or was cancelled).
  void remove_flow(EntryId e);
  // One more flow in the live entry e, whatever its path is now (adaptive routing keeps a pair's
  // flows in one entry while it moves the entry's routes).
  void join(EntryId e);
  // Entry e's flows take `path` with `weights` from now on (same rules as add_flow): its old and new
  // resources are re-solved at the next solve, as a removal and an addition would be. The entry keeps
  // its id, multiplicity and cap, and is not merged with another entry of the same path.
  void reroute(EntryId e, const std::vector<ResourceId>& path, const std::vector<double>& weights);
  // The same with a new share: its rate moves at the next solve; entries made later with the same path,
  // weights, cap and share join it.
  void reroute(EntryId e, const std::vector<ResourceId>& path, const std::vector<double>& weights, double share);
  // Entry e keeps its path and weights and takes `share` (> 0 and finite): reroute with the same path,
  // without leaving and joining its resources' user lists.
  void set_share(EntryId e, double share);

  // Brings every rate up to date with the flows added and removed since the last solve. Returns the
  // entries that exist now and whose rate differs from the one before (new entries included), in id
  // order; valid until the next call.
  const std::vector<EntryId>& solve();
  // The first round of solve() only: the entries crossing the changed resources are re-solved with
  // every other rate held, which keeps every resource within capacity, and the entries it leaves
  // failing the max-min condition (elsewhere in the system, where the change would ripple on) keep
  // their rates until the next solve(), which starts from their resources as well as its own
  // changes and ends, as always, at the exact max-min allocation. Used by the fast transport's
  // settle time (solver_transport.hpp) where one change moves rates across the whole machine.
  const std::vector<EntryId>& solve_local();
  // Local solves have left entries failing (an exact solve() is owed).
  bool deferred() const { return !deferred_resources_.empty(); }

  // Per-flow rate of entry e (bytes/s) as of the last solve.
  double rate(EntryId e) const {
    const Entry& en = entries_.at(static_cast<std::size_t>(e));
    return en.rate * en.share;
  }
  double share(EntryId e) const { return entries_.at(static_cast<std::size_t>(e)).share; }
  // The entries crossing resource r (any order).
  const std::vector<EntryId>& users(ResourceId r) const { return users_.at(static_cast<std::size_t>(r)); }
  int multiplicity(EntryId e) const { return entries_.at(static_cast<std::size_t>(e)).count; }
  bool alive(EntryId e) const { return multiplicity(e) > 0; }
  const std::vector<ResourceId>& path(EntryId e) const { return entries_.at(static_cast<std::size_t>(e)).path; }
  // The weight of entry e on the i-th resource of its path.
  double weight(EntryId e, std::size_t i) const {
    const Entry& en = entries_.at(static_cast<std::size_t>(e));
    return en.given_weight.empty() ? 1.0 : en.given_weight[i];
  }
  double cap(EntryId e) const { return entries_.at(static_cast<std::size_t>(e)).given_cap; }
  int entry_bound() const { return static_cast<int>(entries_.size()); }  // ids are below this
  // As of the last solve: the load on r (sum of multiplicity x weight x rate, bytes/s), the fastest
  // per-flow rate / share among its users, and the resource that holds entry e at its rate (-1: its cap).
  double load(ResourceId r) const { return committed(r).load; }
  // In the solve's units, rate / share (equal to rates where every share is 1, as under multipath routing).
  double fastest(ResourceId r) const { return committed(r).fastest; }
  int bottleneck(EntryId e) const { return bottleneck_.at(static_cast<std::size_t>(e)); }
  int flow_count() const { return flows_; }

  // The rates a solve from scratch gives for every entry (index: entry id; 0 for free ids; shares applied), without
  // changing the solver: the check the incremental solve is tested against.
  std::vector<double> full_solve() const;

  // Work counters since construction, for `t3sim bench` and the tests.
  struct Stats {
    uint64_t solves = 0;            // solve() calls that had changes to handle
    uint64_t entries_solved = 0;    // entries re-solved, summed over the rounds of every solve
    uint64_t rounds = 0;            // re-solve rounds (1 per solve when no check fails)
    uint64_t rate_changes = 0;      // entries reported as changed
    uint64_t fill_users = 0;        // users visited to set up fills (capacity left by outside entries)
    uint64_t check_users = 0;       // users visited to check conditions (loads and fastest users)
    uint64_t checks = 0;            // conditions checked in full
    uint64_t local_solves = 0;      // of the solves, solve_local() calls
    uint64_t deferred_entries = 0;  // entries local solves left failing (counted each time)
  };
  const Stats& stats() const { return stats_; }

 private:
  // What the solve reads of an entry for each user it visits (rate, count, cap, share, path, weights)
  // sits in the entry's first cache line; the rest (slots, the key as given) after it.
  struct alignas(64) Entry {
    double rate = 0;  // divided by share (the rate the solve works in)
    int count = 0;
    int crowd_key = -1;   // set_crowd_key; -1: none (a stream per flow)
    double cap = kNoCap;  // divided by share
    double share = 1;
    std::vector<ResourceId> path;
    std::vector<double> weight;  // weight[i] on path[i], times share; empty when every one is 1
    std::vector<int> slot;       // slot[i]: index of this entry in users_[path[i]]
    // As given (weights empty when all 1): a new share scales these as add_flow does, so that the
    // entry and a later flow of the same path, weights, cap and share hold bitwise the same key.
    std::vector<double> given_weight;
    double given_cap = kNoCap;
    std::size_t hash = 0;  // path_hash(path, given_cap)
  };
  static double weight_of(const Entry& en, std::size_t i) { return en.weight.empty() ? 1.0 : en.weight[i]; }
  static std::vector<double> as_given(const std::vector<double>& weights);  // Entry::given_weight's form
  // Entries by the hash of (path, cap as given); a hash's few entries are compared in full, weights and
  // share included (no key copies). A new share leaves the hash as it is, so set_share need not re-index.
  static std::size_t path_hash(const std::vector<ResourceId>& path, double given_cap);
  EntryId find_entry(const std::vector<ResourceId>& path, const std::vector<double>& weights, double cap, double share,
                     std::size_t hash) const;

  // The weights as stored (times share; empty when all are 1), after checking path, weights and share; throws.
  const std::vector<double>& checked_weights(const std::vector<ResourceId>& path, const std::vector<double>& weights,
                                             double share = 1) const;
  mutable std::vector<double> scaled_;  // checked_weights: weights times a share
  // out = each of `given` (1 each when empty) times `share`, for a path of n resources.
  static void scale_weights(const std::vector<double>& given, std::size_t n, double share, std::vector<double>& out);
  // e's resources are re-solved at the next solve; `users_changed` false (a new share only): their
  // streams are as they were, so crowded capacities need not be counted again.
  void mark_dirty(EntryId e, bool users_changed = true);
  // r's users are re-solved at the next solve (its capacity or users changed).
  void mark_resource_dirty(ResourceId r);
  void unindex(EntryId e);  // drops e from by_path_
  void attach(EntryId e);
  void detach(EntryId e);
  // Progressive filling of `set` on the capacities the entries outside it leave (their rates read
  // from `rates`); writes the set's rates into `rates`.
  // `incremental`: the set is re-solved with the others at their committed rates; else it is every
  // entry (a full solve).
  void fill(const std::vector<EntryId>& set, std::vector<double>& rates, bool incremental) const;
  // The max-min condition of e under `rates`: at its cap, or the fastest on a saturated resource.
  // Records in bottleneck_[e] what holds e (a resource, or -1 for its cap).
  bool satisfied(EntryId e, const std::vector<double>& rates);

  std::vector<double> capacity_;       // as of the last solve
  std::vector<double> base_capacity_;  // as given to add_resource
  std::vector<double> crowding_;       // per resource: capacity lost per further stream (0: none)
  bool any_crowding_ = false;
  void apply_crowding(ResourceId r);  // capacity_[r] from its users now
  std::vector<uint64_t> key_stamp_;   // apply_crowding: == key_epoch_: the key's stream counted
  std::vector<double> key_weight_;    // its weight so far
  uint64_t key_epoch_ = 0;
  std::vector<std::vector<EntryId>> users_;       // per resource: the entries crossing it
  std::vector<std::vector<double>> user_weight_;  // per resource: each user's weight on it (users_'s order)
  std::vector<Entry> entries_;
  std::vector<EntryId> free_ids_;  // kept sorted descending: the lowest is reused first
  std::unordered_multimap<std::size_t, EntryId> by_path_;
  int flows_ = 0;

  // Solve state. trial_[e] is e's rate during a solve (equal to entries_[e].rate outside one).
  // Marks are epoch stamps (64-bit: they never wrap), so no clearing pass is needed.
  // Per resource, what a fill reads and writes for every resource of its set's paths, in one cache
  // line of its own, apart from what checks read (callgrind's cache model counts a fifth fewer
  // first-level misses this way; on the 2-core VM the wall time did not move: docs/performance.md).
  struct alignas(64) FillState {
    uint64_t fill_stamp = 0;  // remaining / active set up for the current fill
    uint64_t heap_stamp = 0;  // a candidate bottleneck of the current fill
    double remaining = 0;     // capacity left for the set's unfrozen entries
    double active = 0;        // multiplicity x weight of the set's unfrozen entries
    double cap_sum = 0;       // what the set's users could take at most (caps, capacity left)
    double set_load = 0;      // the set's users' committed load
    double set_fastest = 0;   // the largest rate given to a user in the set
    int unfrozen_users = 0;   // the set's unfrozen entries crossing it
    int outside = 0;          // users outside the set
  };
  mutable std::vector<FillState> fill_state_;
  // The rest of a resource's solve state.
  struct Scratch {
    bool dirty = false;        // its users changed since the last solve
    bool recount = false;      // its users or their multiplicities changed: crowding counted again
    bool deferred = false;     // in deferred_resources_
    uint64_t s_stamp = 0;      // in the re-solved set S of the current solve
    uint64_t check_stamp = 0;  // load / fastest computed for the current check round
    double trial_load = 0;     // check: sum of count x trial rate
    double trial_fastest = 0;  // check: the largest trial rate of its users
  };
  mutable std::vector<Scratch> scratch_;
  // Per resource, its users' committed figures, kept apart (16 bytes) since fills and checks read them
  // for resources they touch nothing else of.
  struct Committed {
    static constexpr double kStale = -1;  // load: its users, their counts, shares or rates changed since
    double load = kStale;                 // sum of count x weight x rate
    double fastest = 0;                   // the largest rate of its users
  };
  mutable std::vector<Committed> committed_;
  mutable std::vector<uint64_t> frozen_;  // fill: == fill epoch: in the set, not frozen yet
  mutable uint64_t fill_epoch_ = 0;
  mutable uint64_t check_epoch_ = 0;
  mutable std::vector<ResourceId> fill_resources_;      // the fill's candidate bottlenecks
  mutable std::vector<ResourceId> fill_all_resources_;  // every resource of the set's paths
  // The committed load and fastest user of r, recomputed when a user's rate or count changed.
  const Committed& committed(ResourceId r) const;
  mutable std::vector<EntryId> fill_capped_;
  std::vector<double> trial_;
  std::vector<int> bottleneck_;  // per entry: the resource that held it at the last check (-1: its cap)
  // Per resource: the entries it holds (bottleneck_ == r), the only outside entries a change of its
  // users can unsettle; dependent_slot_[e] is e's index in its list.
  std::vector<std::vector<EntryId>> dependents_;
  std::vector<int> dependent_slot_;
  void set_bottleneck(EntryId e, int r);
  mutable std::vector<int> froze_by_;  // fill: the resource whose saturation froze the entry (-1: cap)
  using ShareItem = std::pair<double, ResourceId>;
  mutable std::vector<ShareItem> fill_heap_;
  std::vector<ResourceId> dirty_resources_;
  std::vector<ResourceId> deferred_resources_;  // resources of entries local solves left failing
  const std::vector<EntryId>& solve_rounds(bool local);
  std::vector<EntryId> dirty_new_;  // entries created since the last solve (reported as changed)
  std::vector<uint64_t> entry_mark_;
  uint64_t s_epoch_ = 0;
  uint64_t f_epoch_ = 0;
  std::vector<ResourceId> solve_resources_;
  std::vector<EntryId> solve_entries_;
  std::vector<EntryId> solve_candidates_;  // F, then the outside entries to check
  std::vector<EntryId> changed_;
  mutable Stats stats_;  // counted in const fills too
};

}  // namespace t3sim::core
