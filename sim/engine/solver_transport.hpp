// The fast transport: t3sim's incremental max-min solver (core/flow_solver.hpp) on SimGrid's clock.
// Every flow is an entry of the solver over its path's resources (core/network_resources.hpp), with
// its kind's rate cap. A flow's remaining bytes are advanced lazily, only when its rate changes; its
// completion is an event at now + remaining / rate, moved (re-scheduled, the old one ignored) only
// when the rate changes. Delays and completions share one calendar (core/event_calendar.hpp) that
// arms a single SimGrid timer at its head: SimGrid advances the clock, and every event due at an
// instant runs before the solver runs once for that instant (SimGrid 3.32 has no hook at the end of
// an instant, and its timers of equal date run in no defined order, so the calendar is our own).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/cost_model.hpp"
#include "sim/core/event_calendar.hpp"
#include "sim/core/flow_solver.hpp"
#include "sim/core/network_resources.hpp"
#include "sim/core/transport.hpp"

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

  const core::FlowSolver& solver() const { return solver_; }
  uint64_t instants() const { return instants_; }  // instants with a solve

 private:
  struct Flow {
    core::EntryId entry = -1;
    int slot = 0;          // index in entry_flows_[entry]
    double remaining = 0;  // bytes left at `since`
    double rate = 0;       // bytes/s since `since`
    double since = 0;
    uint64_t version = 0;    // bumped when its completion moves (never reset: ids are reused)
    bool scheduled = false;  // has a completion event (or waits at rate 0)
    Callback then;
  };

  void arm();
  void on_timer();
  void solve(double now);
  void schedule_completion(int id, double now);
  void complete(int id);

  const core::CostModel& cost_;
  core::NetworkResources& resources_;
  core::FlowSolver solver_;
  core::EventCalendar calendar_;
  std::vector<Flow> flows_;
  std::vector<int> free_flows_;
  std::vector<std::vector<int>> entry_flows_;  // per solver entry: its flows
  std::vector<int> new_flows_;                 // started since the last solve
  bool in_timer_ = false;
  bool dirty_ = false;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  double timer_date_ = -1;
  uint64_t instants_ = 0;
};

}  // namespace t3sim::engine
