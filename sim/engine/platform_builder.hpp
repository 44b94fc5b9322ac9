// Builds the SimGrid platform of a job from t3sim's own routes (core::Router), not SimGrid's torus zone:
// one host per PE, one injection and one ejection link per node (shared by the node's PEs), one link
// per directed torus link, all with zero latency (latency is added by t3sim's code, which keeps
// max-min sharing fair between short and long routes). Routes are added only for the PE pairs the
// workload uses, so memory grows with the pairs used, not with PEs^2.
#pragma once
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/job_placement.hpp"
#include "sim/core/machine_spec.hpp"

namespace t3sim::engine {

namespace sg4 = simgrid::s4u;

class PlatformBuilder {
 public:
  // Call after the engine's network model is configured and before any other zone exists.
  PlatformBuilder(const core::MachineSpec& machine, const core::JobPlacement& placement);
  // Records that data flows from src_pe to dst_pe (src != dst). Call before seal().
  void add_pair(int src_pe, int dst_pe);
  void seal();
  sg4::Host* host(int pe) const { return hosts_.at(static_cast<size_t>(pe)); }

 private:
  sg4::Link* link(const std::string& name, double bandwidth);

  const core::MachineSpec& machine_;
  core::Router router_;
  const core::JobPlacement& placement_;
  sg4::NetZone* zone_;
  std::vector<sg4::Host*> hosts_;
  std::map<std::string, sg4::Link*> links_;
  std::set<std::pair<int, int>> pairs_;
};

}  // namespace t3sim::engine
