// The fast transport: t3sim's incremental max-min solver (core/flow_solver.hpp) on SimGrid's clock.
// Every flow joins the solver entry of its path (core/network_resources.hpp) and its kind's rate cap.
// The flows of one entry always share one rate, so progress is kept per entry, lazily: `progress`
// is the bytes every flow of the entry has moved since the entry was made, brought up to date only
// when its rate changes; a flow that starts at progress p with b bytes ends when progress reaches
// p + b. Only the entry's earliest end is an event, moved (re-scheduled, the old one ignored) only
// when the entry's rate changes: the work per event follows what changes, not how many flows wait.
// Delays and completions share one clock order (time, then sequence) that arms a single SimGrid
// timer at its head: SimGrid advances the clock, and every event due at an instant runs before the
// solver runs once for that instant (SimGrid 3.32 has no hook at the end of an instant, and its
// timers of equal date run in no defined order, so the queues are our own).
// Under minimal_adaptive routing a pair's flows of one kind are one entry whose routes follow the
// load (core/adaptive_splits.hpp): new flows take their widest route; once no flow has come or gone
// for AdaptiveSplits::kSettleQuiet (at most once per kSettleInterval) every split is filled again and
// polished by rounds of moves, each round solved at that same instant.
// Port fairness (network.port_fairness > 0, single-route routings): each flow enters the solver with
// its share (core/flow/port_shares.hpp); when a flow's start or end changes how many input ports feed
// a link, the live entries crossing it are given their new shares (FlowSolver::set_share), re-solved
// with the rest at that instant.
// VC holding time (network.vc_hold_cycles > 0, single-route routings): after each solve, the entries
// whose load moved (rates solved, flows come or gone) are given to the holding time
// (core/flow/vc_holding.hpp), which re-settles the classes they move; each link whose capacity is
// unsettled moves half way in ratio to the form's, and the machine is solved again, until no capacity
// moves by more than 0.1% or 8 rounds (a link still moving goes on at the next instant).
// Settle time (network.settle_time, multipath routings only): a solve re-solves at once just the
// flows sharing a resource with the changed ones (FlowSolver::solve_local, feasible everywhere) and
// the exact max-min allocation of the whole machine at most settle_time later, and before every
// re-balancing: under balanced multipath loads one change moves rates across every coupled flow, and
// solving that ripple at every event cost 8x the run (docs/performance.md, "Settle time"). 0: exact always.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/flow/adaptive_splits.hpp"
#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/flow/port_shares.hpp"
#include "sim/core/flow/vc_holding.hpp"
#include "sim/core/packet/dateline_table.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/network_resources.hpp"
#include "sim/core/run/transport.hpp"
#include "sim/core/support/callback_slots.hpp"
#include "sim/core/support/event_calendar.hpp"
#include "sim/core/support/indexed_heap.hpp"

namespace simgrid::kernel::timer {
class Timer;
}

namespace t3sim::engine {

class SolverTransport : public core::Transport {
 public:
  SolverTransport(const core::CostModel& cost, core::NetworkResources& resources);
  double now() const override;
  void after(double delay, Callback then) override;
  void flow(int src, int dst, double bytes, core::FlowKind kind, Callback then) override;
  void disk_io(int disk, double bytes, bool write, Callback then) override;

  const core::FlowSolver& solver() const { return solver_; }
  uint64_t instants() const { return instants_; }  // instants with a solve
  // Bytes each resource carried (data flows; NetworkResources numbering), under adaptive routing,
  // where the links a transfer used depend on the load; empty under the other routings.
  const std::vector<double>& carried() const { return carried_; }
  // The adaptive routing's work (null under a routing fixed in advance).
  const core::AdaptiveSplits* adaptive() const { return adaptive_.get(); }
  // Port fairness's work: resources whose feeding ports changed, entries given a new share.
  struct PortStats {
    uint64_t port_changes = 0;
    uint64_t reshared = 0;
  };
  const PortStats& port_stats() const { return port_stats_; }
  bool port_fair() const { return ports_ != nullptr; }

 private:
  struct Waiting {  // a flow of an entry, by the progress at which it ends
    double target;
    uint64_t seq;
    int flow;
    bool operator>(const Waiting& o) const { return target != o.target ? target > o.target : seq > o.seq; }
  };
  struct EntryState {
    double progress = 0;  // bytes moved by each of its flows since the entry was made, at `since`
    double since = 0;
    double rate = 0;             // bytes/s per flow since `since`
    std::vector<Waiting> flows;  // min-heap by target
    bool data = true;            // carries data (not get requests): counted in carried()
  };
  // One more flow of `bytes` on entry e (`data`: counted in carried()), `then` when it is delivered.
  void join(core::EntryId e, double bytes, bool data, Callback then);
  void arm();
  void on_timer();
  bool run_next(double t);  // runs the earliest due event of either queue; false when none is due
  double next_time() const;
  void solve(double now);
  void apply(const std::vector<core::EntryId>& changed, double now);  // new rates: progress and ends
  // Brings e's progress to `now`, its `flows` flows having moved at its rate since; adds the bytes to
  // carried_ over its path (adaptive routing only: the links a flow used are known only here).
  void advance(core::EntryId e, double now, int flows);
  // Adaptive routing's re-balancing at this instant: every split filled again, then rounds of moves.
  void rebalance(double now);
  void schedule(core::EntryId e, double now);
  void complete(core::EntryId e, double now);
  // Port fairness: the entries crossing `port_changed_` take their shares as the ports are counted now.
  void reshare();

  const core::CostModel& cost_;
  core::NetworkResources& resources_;
  core::FlowSolver solver_;
  std::unique_ptr<core::AdaptiveSplits> adaptive_;
  std::vector<double> carried_;
  std::vector<core::EntryId> candidates_;  // entries whose rate changed in the last solve
  std::vector<core::EntryId> live_;        // rebalance(): the live entries
  bool settle_due_ = false;                // the next solve re-balances
  bool crowded_ = false;              // network.contention_loss > 0: links crowded, flows keyed by destination node
  double settle_time_ = 0;            // s: local solves, an exact one at most this long after (0: exact)
  bool reconcile_due_ = false;        // the next solve is exact
  bool reconcile_scheduled_ = false;  // an exact solve is scheduled
  uint64_t settle_generation_ = 0;    // the latest re-balancing scheduled (earlier ones are void)
  double last_settle_ = -1e300;       // s: the last re-balancing
  core::EventCalendar calendar_;
  core::IndexedHeap completions_;            // each entry's earliest end, moved in place when its rate changes
  std::vector<EntryState> entries_;          // by solver entry id
  core::CallbackSlots callbacks_;            // by flow id: what to call when the flow is delivered
  std::vector<int> done_;                    // complete(): the flows ending together
  std::vector<core::EntryId> joined_;        // entries that gained a flow since the last solve
  std::unique_ptr<core::PortShares> ports_;  // network.port_fairness > 0
  std::vector<core::PortShares::Hop> hops_;  // scratch: where a flow is arbitrated
  // By entry id, for reshare(): its path's hops, kept because reshare() reads them for every entry a port
  // change touches (recomputed from the path there, the 512-PE window-1 all-to-all ran 5% longer). Only
  // flow()'s entries are read: a disk's path crosses no link or ejection, so reshare() never meets one.
  std::vector<std::vector<core::PortShares::Hop>> entry_hops_;
  std::vector<core::ResourceId> port_changed_;  // resources whose feeding ports moved
  std::vector<uint64_t> reshare_stamp_;         // by entry id: == reshare_epoch_: looked at
  uint64_t reshare_epoch_ = 0;
  PortStats port_stats_;
  // network.vc_hold_cycles > 0: link capacities from the VC holding times (core/flow/vc_holding.hpp),
  // re-set and re-solved a few damped rounds each instant.
  std::unique_ptr<core::VcHolding> holding_;
  core::DatelineTable dateline_table_;       // cray_balanced: each ring segment's half (as the packet routing's)
  std::vector<double> link_cap_;             // by link id: the capacity given the solver now
  std::vector<core::EntryId> hold_touched_;  // entries whose load may have moved since the last settle
  std::vector<int> unsettled_;               // links whose capacity is still moving toward the form's
  std::vector<char> unsettled_mark_;         // by link id: in unsettled_
  // Entry e's route as VcHolding sees it: its links' dateline halves and input ports (a new entry).
  void hold_routes(core::EntryId e, int dst, core::FlowKind kind, const std::vector<core::ResourceId>& path);
  // Rounds of: link capacities from the holding times at the current rates (damped), solve.
  void settle_holding(double now);
  bool in_timer_ = false;
  bool dirty_ = false;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double timer_date_ = -1;
  uint64_t instants_ = 0;
};

}  // namespace t3sim::engine
