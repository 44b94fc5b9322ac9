#include "sim/engine/solver_transport.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <cmath>

namespace t3sim::engine {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::timer::Timer;

SolverTransport::SolverTransport(const core::CostModel& cost, core::NetworkResources& resources)
    : cost_(cost), resources_(resources) {
  for (core::ResourceId r = 0; r < resources.count(); ++r) solver_.add_resource(resources.capacity(r));
}

double SolverTransport::now() const { return sg4::Engine::get_clock(); }

void SolverTransport::after(double delay, Callback then) {
  calendar_.schedule(now() + delay, std::move(then));
  if (!in_timer_) arm();
}

void SolverTransport::flow(int src, int dst, double bytes, core::FlowKind kind, Callback then) {
  int id;
  if (!free_flows_.empty()) {
    id = free_flows_.back();
    free_flows_.pop_back();
  } else {
    id = static_cast<int>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[static_cast<size_t>(id)];
  f.entry = solver_.add_flow(resources_.path(src, dst), core::flow_cap(cost_.profile(), kind));
  if (entry_flows_.size() <= static_cast<size_t>(f.entry)) entry_flows_.resize(static_cast<size_t>(f.entry) + 1);
  auto& members = entry_flows_[static_cast<size_t>(f.entry)];
  f.slot = static_cast<int>(members.size());
  members.push_back(id);
  f.remaining = bytes;
  f.rate = 0;
  f.since = now();
  f.scheduled = false;
  f.then = std::move(then);
  new_flows_.push_back(id);
  dirty_ = true;
  if (!in_timer_) {  // a flow started outside any event: solve at this instant
    calendar_.schedule(now(), [] {});
    arm();
  }
}

void SolverTransport::arm() {
  if (calendar_.empty()) return;
  const double date = calendar_.next_time();
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
    while (!calendar_.empty() && calendar_.next_time() <= t) calendar_.pop()();
    if (!dirty_) break;
    solve(t);  // may schedule completions at t itself (flows of no bytes)
  }
  in_timer_ = false;
  arm();
}

void SolverTransport::solve(double now) {
  dirty_ = false;
  ++instants_;
  for (core::EntryId e : solver_.solve()) {
    const double rate = solver_.rate(e);
    for (int id : entry_flows_[static_cast<size_t>(e)]) {
      Flow& f = flows_[static_cast<size_t>(id)];
      f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
      f.since = now;
      f.rate = rate;
      schedule_completion(id, now);
    }
  }
  for (int id : new_flows_) {
    Flow& f = flows_[static_cast<size_t>(id)];
    if (f.scheduled || f.entry < 0) continue;  // scheduled above, or already complete
    f.rate = solver_.rate(f.entry);
    f.since = now;
    schedule_completion(id, now);
  }
  new_flows_.clear();
}

void SolverTransport::schedule_completion(int id, double now) {
  Flow& f = flows_[static_cast<size_t>(id)];
  const uint64_t version = ++f.version;
  f.scheduled = true;
  if (!(f.rate > 0)) return;  // no progress until its rate changes
  calendar_.schedule(now + f.remaining / f.rate, [this, id, version] {
    if (flows_[static_cast<size_t>(id)].version == version) complete(id);
  });
}

void SolverTransport::complete(int id) {
  Flow& f = flows_[static_cast<size_t>(id)];
  auto& members = entry_flows_[static_cast<size_t>(f.entry)];
  const int moved = members.back();
  members[static_cast<size_t>(f.slot)] = moved;
  flows_[static_cast<size_t>(moved)].slot = f.slot;
  members.pop_back();
  solver_.remove_flow(f.entry);
  dirty_ = true;
  f.entry = -1;
  ++f.version;  // any other completion event of it is stale
  Callback then = std::move(f.then);
  free_flows_.push_back(id);
  then();
}

}  // namespace t3sim::engine
