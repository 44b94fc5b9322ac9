// The reference transport: SimGrid's own comms and its own max-min solver (CM02 as simulation.cpp
// configures it), the oracle the fast transport is checked against. Delays are SimGrid kernel timers;
// each flow is a host-to-host comm over the platform's routes (platform_builder.hpp, the same paths
// as the solver's), with its kind's rate cap as a FATPIPE link at the head of the route (SimGrid
// 3.32 ignores Comm::set_rate on host-to-host comms). Comms are started from maestro and report
// through Activity::on_completion; with `actor_per_flow` (Paje traces: SimGrid's tracer needs an
// actor behind every comm) each comm is issued by a short-lived actor instead, same times.
#pragma once
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/run/transport.hpp"
#include "sim/engine/platform_builder.hpp"

namespace t3sim::engine {

class SimGridTransport : public core::Transport {
 public:
  SimGridTransport(const PlatformBuilder& platform, bool actor_per_flow);
  ~SimGridTransport() override;
  SimGridTransport(const SimGridTransport&) = delete;
  SimGridTransport& operator=(const SimGridTransport&) = delete;

  double now() const override;
  void after(double delay, Callback then) override;
  void flow(int src, int dst, double bytes, core::FlowKind kind, Callback then) override;
  // An s4u::Io on the disk (platform_builder.hpp), under SimGrid's own disk model.
  void disk_io(int disk, double bytes, bool write, Callback then) override;

 private:
  void on_completion(const simgrid::s4u::Activity& activity);

  const PlatformBuilder& platform_;
  const bool actor_per_flow_;
  struct Pending {
    simgrid::s4u::ActivityPtr activity;
    Callback then;
  };
  std::unordered_map<const simgrid::s4u::Activity*, Pending> pending_;
  std::vector<simgrid::s4u::ActivityPtr> finished_;  // released outside the completion signal
};

}  // namespace t3sim::engine
