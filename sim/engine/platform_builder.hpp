// Builds the SimGrid platform of a job for the reference transport from t3sim's own paths
// (core/network_resources.hpp, the same the fast transport's solver uses), not SimGrid's torus zone:
// one host per PE, one SimGrid link per network resource crossed (injection and ejection interfaces,
// directed torus links), all with zero latency (latency is added by the PE interpreter, which keeps
// CM02's max-min sharing unweighted between short and long routes). Routes are added only for the
// PE pairs the workload uses, so memory grows with the pairs used, not with PEs^2.
//
// Per-flow rate caps are links: SimGrid 3.32 ignores Comm::set_rate on host-to-host comms, but bounds
// every flow by the slowest link of its route. Each PE gets a FATPIPE link of put_bandwidth at the
// head of its put routes, and a second host (its "get server", same node) whose routes start with a
// FATPIPE link of get_bandwidth: a get's data flows from the owner's get server. FATPIPE caps each
// flow without summing them, which is exactly a per-flow bound; the max-min allocation is unchanged.
#pragma once
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/machine/job_placement.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/run/network_resources.hpp"
#include "sim/core/run/transport.hpp"

namespace t3sim::engine {

namespace sg4 = simgrid::s4u;

class PlatformBuilder {
 public:
  // Call after the engine's network model is configured and before any other zone exists.
  // The links are `resources`' (made with the run's profile, so the PEs' rates are links too).
  // With I/O nodes, the placement's endpoints from `first_server` on are the I/O nodes: their hosts get
  // the disks.
  PlatformBuilder(const core::MachineSpec& machine, const core::JobPlacement& placement,
                  core::NetworkResources& resources, int first_server = -1);
  // Records that data of `kind` flows from src_pe to dst_pe (src != dst). Call before seal().
  void add_pair(int src_pe, int dst_pe, core::FlowKind kind);
  void seal();
  sg4::Host* host(int pe) const { return hosts_.at(static_cast<size_t>(pe)); }
  // Disk k of the machine (I/O node k / disks_per_node, whose host is an endpoint after the PEs).
  sg4::Disk* disk(int k) const { return disks_.at(static_cast<size_t>(k)); }
  // The hosts a flow of `kind` from src_pe to dst_pe runs between.
  sg4::Host* flow_source(int src_pe, core::FlowKind kind) const;
  sg4::Host* flow_destination(int dst_pe, core::FlowKind kind) const;

 private:
  sg4::Link* link(const std::string& name, double bandwidth);

  core::NetworkResources& resources_;
  sg4::NetZone* zone_;
  std::vector<sg4::Host*> hosts_;
  std::vector<sg4::Host*> get_servers_;      // sources of get data (its route ends at the receive rate)
  std::vector<sg4::Host*> message_servers_;  // sources of rendezvous data (receive and MPI rates)
  std::vector<sg4::Disk*> disks_;
  std::map<std::string, sg4::Link*> links_;
  std::set<std::tuple<int, int, int>> pairs_;
};

}  // namespace t3sim::engine
