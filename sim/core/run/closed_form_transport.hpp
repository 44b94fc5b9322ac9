// The transport of a machine where no two flows slow each other down: a flow of `bytes` takes
// bytes / min(bottleneck of its path, its kind's cap) (core/cost_model.hpp). With the PE interpreter
// over it, a workload replays in microseconds with the engine's semantics: `t3sim calibrate` fits
// against it, and the engine must give its times wherever nothing is shared (engine tests, 1e-9).
#pragma once
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/transport.hpp"
#include "sim/core/support/event_calendar.hpp"

namespace t3sim::core {

class ClosedFormTransport : public Transport {
 public:
  explicit ClosedFormTransport(const CostModel& cost) : cost_(cost) {}
  double now() const override { return now_; }
  void after(double delay, Callback then) override { calendar_.schedule_after(now_, delay, std::move(then)); }
  void after(double delay, Task then) override { calendar_.schedule_after(now_, delay, then); }
  void flow(int src, int dst, double bytes, FlowKind kind, Callback then) override;
  void flow(int src, int dst, double bytes, FlowKind kind, Task then) override;
  // bytes / the disk's write (read) bandwidth: alone on it.
  void disk_io(int disk, double bytes, bool write, Callback then) override;
  // Runs every event until none is left; returns the time of the last.
  double run();

 private:
  double flow_time(int src, int dst, double bytes, FlowKind kind) const;

  const CostModel& cost_;
  EventCalendar calendar_;
  double now_ = 0;
};

}  // namespace t3sim::core
