#include "sim/engine/solver_transport.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/packet/dateline_half.hpp"

namespace t3sim::engine {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::timer::Timer;

SolverTransport::SolverTransport(const core::CostModel& cost, core::NetworkResources& resources)
    : cost_(cost), resources_(resources) {
  for (core::ResourceId r = 0; r < resources.count(); ++r) solver_.add_resource(resources.capacity(r));
  if (const double loss = cost.machine().network.contention_loss; loss > 0) {
    crowded_ = true;
    for (core::LinkId l = 0; l < resources.link_bound(); ++l) solver_.set_crowding(resources.link_resource(l), loss);
  }
  if (const core::MinimalPaths* paths = resources.routing().adaptive_paths()) {
    adaptive_ = std::make_unique<core::AdaptiveSplits>(*paths, resources.link_resource(0), resources.link_bound(),
                                                       cost.machine().adaptive_moves);
    carried_.assign(static_cast<size_t>(resources.count()), 0.0);
  }
  if (!resources.routing().single_route()) settle_time_ = cost.machine().network.settle_time;
  if (const double fairness = cost.machine().network.port_fairness; fairness > 0) {
    if (!resources.routing().single_route())
      throw std::invalid_argument("network.port_fairness needs a single-route routing");
    ports_ = std::make_unique<core::PortShares>(resources.count(), fairness);
  }
  if (const double hold = cost.machine().network.vc_hold_cycles; hold > 0) {
    if (!resources.routing().single_route())
      throw std::invalid_argument("network.vc_hold_cycles needs a single-route routing");
    const core::NetworkParams& n = cost.machine().network;
    core::VcHolding::Params p;
    p.hold_cycles = hold;
    // The escape channels of a virtual network, split in two by a dateline (minimal_adaptive's extra
    // channel never applies: it is refused above).
    const double halves = n.dateline == core::Dateline::None ? 1 : 2;
    p.vcs_per_class = std::max(1.0, std::floor(n.virtual_channels / n.virtual_networks / halves));
    p.packet_flits = n.packet_flits;
    p.packets_per_vc = std::max(1.0, std::floor(n.vc_buffer_flits / n.packet_flits));
    const double clock = n.router_clock > 0 ? n.router_clock : n.link_bandwidth / n.flit_bytes;
    p.packet_bytes_per_s = (n.packet_flits - n.header_flits) * n.flit_bytes * clock;
    p.link_bandwidth = n.link_bandwidth;
    holding_ = std::make_unique<core::VcHolding>(resources.link_bound(), cost.machine().torus().node_count(), p);
    if (n.dateline == core::Dateline::CrayBalanced)
      dateline_table_ = core::DatelineTable(cost.machine().dims, cost.machine().tie_rule);
    for (core::LinkId l = 0; l < resources.link_bound(); ++l)
      link_cap_.push_back(resources.capacity(resources.link_resource(l)));
    unsettled_mark_.assign(link_cap_.size(), 0);
  }
}

namespace {

// The fraction of a hop's packets on the upper half of the escape channels, as the packet driver's
// routing puts them (core/packet/dateline_half.hpp): a ring segment from `from` to `goal` (ring `dim` of
// k, + or - way), the hop leaving `cur`; a packet that draws a half takes each with probability 1/2, one
// under cray_balanced its route's (`table`).
double upper_half(core::Dateline dateline, const core::DatelineTable& table, int dim, int k, int from, int cur,
                  int goal, bool minus) {
  if (dateline == core::Dateline::None) return 0;
  const core::DatelineHalf rule = core::cray_rules(dateline)
                                      ? core::cray_half(k, from, cur, goal, minus)
                                      : core::booksim_half(dateline == core::Dateline::Balanced, k, from, goal, minus);
  if (rule != core::DatelineHalf::Draw) return rule == core::DatelineHalf::Upper ? 1 : 0;
  return dateline == core::Dateline::CrayBalanced ? table.half(dim, from, goal, minus) : 0.5;
}

}  // namespace

void SolverTransport::hold_routes(core::EntryId e, int dst, core::FlowKind kind,
                                  const std::vector<core::ResourceId>& path) {
  const core::Torus torus = cost_.machine().torus();
  const core::Coord& dims = torus.dims();
  const core::Dateline dateline = cost_.machine().network.dateline;
  const core::Coord to = torus.coord(resources_.node_of(dst));
  resources_.arbitration_hops(path, hops_);
  std::vector<core::VcHolding::Hop> hops;
  int from[3] = {-1, -1, -1};
  int eject_port = 6;
  for (const auto& [r, port] : hops_) {
    const int l = r - resources_.link_resource(0);
    if (l < 0 || l >= resources_.link_bound()) {
      eject_port = port;
      continue;
    }
    const int node = core::Torus::link_node(l), dim = core::Torus::link_dim(l);
    const bool minus = core::Torus::link_dir(l) == core::Direction::Minus;
    const int cur = torus.coord(node)[static_cast<size_t>(dim)];
    if (from[dim] < 0) from[dim] = cur;
    const int k = dims[static_cast<size_t>(dim)], goal = to[static_cast<size_t>(dim)];
    const double upper = upper_half(dateline, dateline_table_, dim, k, from[dim], cur, goal, minus);
    // A drawn half is drawn once a ring: the hop after a drawn one on the same ring keeps its half.
    const bool keeps =
        upper == 0.5 && !hops.empty() && core::Torus::link_dim(hops.back().link) == dim && hops.back().upper == 0.5;
    hops.push_back({l, port, upper, keeps});
  }
  // (Set when the entry is made: a get request and an acknowledgement between the same nodes cross the
  // same resources and so share an entry, which keeps the first one's network; both are a header.)
  const int network = cost_.machine().network.virtual_networks >= 2 && core::travels_as_reply(kind) ? 1 : 0;
  holding_->set_route(e, hops, eject_port, resources_.node_of(dst), network);
}

void SolverTransport::settle_holding(double now) {
  // (Undamped, or 2-4 rounds at 1%, the 64-PE window-1 all-to-all's per-PE median moved by up to 11%:
  // the capacities had not settled.) A link left unsettled after the last round goes on moving at
  // the next instant's.
  constexpr int kRounds = 8;
  constexpr double kTolerance = 1e-3;
  for (int round = 0; round < kRounds; ++round) {
    for (const core::EntryId e : hold_touched_)
      holding_->set_load(e, solver_.alive(e) ? solver_.rate(e) * solver_.multiplicity(e) : 0);
    hold_touched_.clear();
    for (const int link : holding_->settle()) {
      if (unsettled_mark_[static_cast<size_t>(link)]) continue;
      unsettled_mark_[static_cast<size_t>(link)] = 1;
      unsettled_.push_back(link);
    }
    bool moved = false;
    size_t kept = 0;
    for (const int link : unsettled_) {
      const size_t l = static_cast<size_t>(link);
      const core::ResourceId r = resources_.link_resource(static_cast<core::LinkId>(l));
      const double goal = std::min(resources_.capacity(r), holding_->capacity(link));
      const double next = std::sqrt(link_cap_[l] * goal);  // damped: half way, in ratio
      if (std::abs(next - link_cap_[l]) <= kTolerance * link_cap_[l]) {
        unsettled_mark_[l] = 0;
        continue;
      }
      link_cap_[l] = next;
      solver_.set_capacity(r, next);
      moved = true;
      unsettled_[kept++] = link;
    }
    unsettled_.resize(kept);
    if (!moved) return;
    apply(solver_.solve(), now);
  }
}

double SolverTransport::now() const { return sg4::Engine::get_clock(); }

void SolverTransport::advance(core::EntryId e, double now, int flows) {
  EntryState& s = entries_[static_cast<size_t>(e)];
  const double moved = s.rate * (now - s.since);
  s.progress += moved;
  s.since = now;
  if (carried_.empty() || !s.data || !(moved > 0) || flows <= 0) return;
  const std::vector<core::ResourceId>& path = solver_.path(e);
  for (size_t i = 0; i < path.size(); ++i)
    carried_[static_cast<size_t>(path[i])] += moved * flows * solver_.weight(e, i);
}

void SolverTransport::after(double delay, Callback then) {
  calendar_.schedule(now() + delay, std::move(then));
  if (!in_timer_) arm();
}

void SolverTransport::flow(int src, int dst, double bytes, core::FlowKind kind, Callback then) {
  core::EntryId e;
  if (adaptive_) {
    // A pair's flows of one kind share an entry (PE ids < 2^20: at most 65536 nodes of 8 PEs).
    const uint64_t key =
        (static_cast<uint64_t>(src) << 32 | static_cast<uint64_t>(dst) << 4) | static_cast<uint64_t>(kind);
    e = adaptive_->add_flow(solver_, key, resources_.node_of(src), resources_.node_of(dst),
                            resources_.endpoints(src, dst, kind));
    if (e < 0) throw std::logic_error("minimal_adaptive: no route left between the PEs (checked before the run)");
  } else if (ports_) {
    const std::vector<core::ResourceId>& path = resources_.path(src, dst, kind);
    resources_.arbitration_hops(path, hops_);
    ports_->add(hops_, port_changed_);
    reshare();  // before the new flow's entry is found: an entry of its path takes the same share
    e = solver_.add_flow(path, resources_.weights(), INFINITY, ports_->share(hops_));
    if (entry_hops_.size() <= static_cast<size_t>(e)) entry_hops_.resize(static_cast<size_t>(e) + 1);
    if (solver_.multiplicity(e) == 1) entry_hops_[static_cast<size_t>(e)] = hops_;
  } else {
    const std::vector<core::ResourceId>& path = resources_.path(src, dst, kind);
    e = solver_.add_flow(path, resources_.weights(), INFINITY);
  }
  if (holding_) {
    if (solver_.multiplicity(e) == 1) hold_routes(e, dst, kind, solver_.path(e));
    hold_touched_.push_back(e);  // one more flow on the entry
  }
  // Flows to one node are one stream where they cross a crowded link (FlowSolver::set_crowding).
  if (crowded_) solver_.set_crowd_key(e, resources_.node_of(dst));
  join(e, bytes, kind != core::FlowKind::GetRequest, std::move(then));
}

void SolverTransport::disk_io(int disk, double bytes, bool write, Callback then) {
  // A disk's requests share it as flows share a link: one more entry of the same solver.
  const std::vector<core::ResourceId>& path = resources_.disk_path(disk, write);
  join(solver_.add_flow(path, resources_.weights(), INFINITY), bytes, false, std::move(then));
}

void SolverTransport::join(core::EntryId e, double bytes, bool data, Callback then) {
  const int id = callbacks_.put(std::move(then));
  const double t = now();
  if (entries_.size() <= static_cast<size_t>(e)) entries_.resize(static_cast<size_t>(e) + 1);
  EntryState& s = entries_[static_cast<size_t>(e)];
  if (solver_.multiplicity(e) == 1) {  // a new entry (or a freed id reused): progress starts again
    s.progress = 0;
    s.rate = 0;
    s.since = t;
    s.flows.clear();
    s.data = data;
  }
  advance(e, t, solver_.multiplicity(e) - 1);  // the flows it had until now
  s.flows.push_back({s.progress + bytes, calendar_.take_sequence(), id});
  std::push_heap(s.flows.begin(), s.flows.end(), std::greater<>());
  joined_.push_back(e);
  dirty_ = true;
  if (!in_timer_) {  // a flow started outside any event: solve at this instant
    calendar_.schedule(t, [] {});
    arm();
  }
}

double SolverTransport::next_time() const {
  double t = calendar_.empty() ? INFINITY : calendar_.next_time();
  if (!completions_.empty()) t = std::min(t, completions_.top_time());
  return t;
}

void SolverTransport::arm() {
  const double date = next_time();
  if (!std::isfinite(date)) return;
  if (timer_ != nullptr) {
    if (timer_date_ <= date) return;  // an earlier wake-up is set: it re-arms when it fires
    timer_->remove();
  }
  timer_date_ = date;
  timer_ = Timer::set(date, [this] {
    timer_ = nullptr;
    on_timer();
  });
}

void SolverTransport::on_timer() {
  in_timer_ = true;
  const double t = now();
  for (;;) {
    while (run_next(t)) {
    }
    if (!dirty_) break;
    solve(t);  // may schedule completions at t itself (flows of no bytes)
  }
  in_timer_ = false;
  arm();
}

bool SolverTransport::run_next(double t) {
  const bool has_event = !calendar_.empty() && calendar_.next_time() <= t;
  const bool has_completion = !completions_.empty() && completions_.top_time() <= t;
  if (has_completion &&
      (!has_event || calendar_.next_time() > completions_.top_time() ||
       (calendar_.next_time() == completions_.top_time() && calendar_.next_sequence() > completions_.top_sequence()))) {
    complete(completions_.top(), t);
    return true;
  }
  if (!has_event) return false;
  calendar_.pop()();
  return true;
}

void SolverTransport::solve(double now) {
  dirty_ = false;
  ++instants_;
  const bool exact = !(settle_time_ > 0) || reconcile_due_ || settle_due_;
  reconcile_due_ = false;
  apply(exact ? solver_.solve() : solver_.solve_local(), now);
  if (holding_) settle_holding(now);
  if (solver_.deferred() && !reconcile_scheduled_) {
    // What the local solve left for later is solved exactly at most settle_time_ after it.
    reconcile_scheduled_ = true;
    calendar_.schedule(now + settle_time_, [this] {
      reconcile_scheduled_ = false;
      if (!solver_.deferred()) return;
      reconcile_due_ = true;
      dirty_ = true;
    });
  }
  for (core::EntryId e : joined_)  // a new flow may end first even where the rate did not change
    if (solver_.alive(e)) schedule(e, now);
  joined_.clear();
  if (adaptive_) {
    adaptive_->solved();
    if (settle_due_) {
      settle_due_ = false;
      rebalance(now);
    } else if (!candidates_.empty() && adaptive_->max_moves() > 0) {
      // Re-balance once no flow has come or gone for kSettleQuiet (a later change re-arms it), and
      // not within kSettleInterval of the last re-balancing.
      const uint64_t generation = ++settle_generation_;
      const double at =
          std::max(now + core::AdaptiveSplits::kSettleQuiet, last_settle_ + core::AdaptiveSplits::kSettleInterval);
      calendar_.schedule(at, [this, generation] {
        if (generation != settle_generation_) return;
        settle_due_ = true;
        dirty_ = true;
      });
    }
  }
}

void SolverTransport::apply(const std::vector<core::EntryId>& changed, double now) {
  if (adaptive_) candidates_ = changed;  // valid only until the next solve
  if (holding_) hold_touched_.insert(hold_touched_.end(), changed.begin(), changed.end());
  for (core::EntryId e : changed) {
    advance(e, now, solver_.multiplicity(e));
    entries_[static_cast<size_t>(e)].rate = solver_.rate(e);
    schedule(e, now);
  }
}

void SolverTransport::rebalance(double now) {
  last_settle_ = now;
  const auto before_move = [&](core::EntryId e) { advance(e, now, solver_.multiplicity(e)); };
  if (adaptive_->refill(solver_, before_move) > 0) {
    apply(solver_.solve(), now);  // the new splits' rates, at this same instant
    adaptive_->solved();
  }
  live_.clear();
  for (core::EntryId e = 0; e < solver_.entry_bound(); ++e)
    if (solver_.alive(e)) live_.push_back(e);
  for (int round = 0; round < adaptive_->max_moves(); ++round) {
    if (adaptive_->rebalance(solver_, live_, before_move) == 0) return;
    apply(solver_.solve(), now);  // moved shares change rates at this same instant
    adaptive_->solved();
  }
  ++adaptive_->stats().unconverged;
}

void SolverTransport::schedule(core::EntryId e, double now) {
  const EntryState& s = entries_[static_cast<size_t>(e)];
  if (s.flows.empty() || !(s.rate > 0)) {  // no progress until its rate changes
    completions_.erase(e);
    return;
  }
  const double left = std::max(0.0, s.flows.front().target - s.progress);
  completions_.set(e, now + left / s.rate, calendar_.take_sequence());
}

void SolverTransport::complete(core::EntryId e, double now) {
  advance(e, now, solver_.multiplicity(e));
  EntryState& s = entries_[static_cast<size_t>(e)];
  // Its earliest flow ends now, by definition: progress is its target (no rounding drift), and every
  // flow of the entry that ends at the same progress ends with it.
  s.progress = std::max(s.progress, s.flows.front().target);
  std::vector<int>& done = done_;  // complete() does not re-enter: callbacks only start flows
  done.clear();
  if (ports_) resources_.arbitration_hops(solver_.path(e), hops_);  // its path's ports (none for a disk's)
  while (!s.flows.empty() && s.flows.front().target <= s.progress) {
    done.push_back(s.flows.front().flow);
    std::pop_heap(s.flows.begin(), s.flows.end(), std::greater<>());
    s.flows.pop_back();
    if (ports_) ports_->remove(hops_, port_changed_);
    solver_.remove_flow(e);
  }
  if (ports_) reshare();
  if (adaptive_ && !solver_.alive(e)) adaptive_->forget(e);
  if (holding_) {
    if (solver_.alive(e))
      hold_touched_.push_back(e);
    else
      holding_->forget(e);
  }
  dirty_ = true;
  schedule(e, now);  // the next flow at the current rate, until the solve (or none)
  for (int id : done) callbacks_.take(id)();
}

void SolverTransport::reshare() {
  if (port_changed_.empty()) return;
  port_stats_.port_changes += port_changed_.size();
  const uint64_t stamp = ++reshare_epoch_;
  if (reshare_stamp_.size() < static_cast<size_t>(solver_.entry_bound()))
    reshare_stamp_.resize(static_cast<size_t>(solver_.entry_bound()), 0);
  for (core::ResourceId r : port_changed_)
    for (core::EntryId e : solver_.users(r)) {  // each entry once, in the order first met
      if (reshare_stamp_[static_cast<size_t>(e)] == stamp) continue;
      reshare_stamp_[static_cast<size_t>(e)] = stamp;
      const double share = ports_->share(entry_hops_[static_cast<size_t>(e)]);
      if (share == solver_.share(e)) continue;
      solver_.set_share(e, share);
      ++port_stats_.reshared;
      dirty_ = true;
    }
  port_changed_.clear();
}

}  // namespace t3sim::engine
