// Builds the SimGrid platform of a job from t3sim's own routes (core::Router), not SimGrid's torus zone:
// one host per PE, one injection and one ejection link per node (shared by the node's PEs), one link
// per directed torus link, all with zero latency (latency is added by t3sim's code, which keeps
// max-min sharing fair between short and long routes). Routes are added only for the PE pairs the
// workload uses, so memory grows with the pairs used, not with PEs^2.
//
// With `latency_on_links` (the reference driver), links carry the path latency instead: router_delay
// on the injection link, router_delay + wire_delay on each torus link, none on the ejection link, so a
// route's latency is (hops + 1) x router_delay + hops x wire_delay as in core::CostModel.
//
// With `rate_caps_as_links` (the event-driven driver), the per-transfer rate caps of the software
// profile become links: SimGrid 3.32 ignores Comm::set_rate on host-to-host comms, but bounds every
// flow by the slowest link of its route. Each PE gets a FATPIPE link of put_bandwidth at the head of
// its put routes, and a second host (its "get server", same node) whose routes start with a FATPIPE
// link of get_bandwidth: a get's data flows from the owner's get server. FATPIPE caps each flow
// without summing them, which is exactly a per-flow bound; the max-min allocation is unchanged.
#pragma once
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/job_placement.hpp"
#include "sim/core/machine_spec.hpp"

namespace t3sim::engine {

namespace sg4 = simgrid::s4u;

// What a flow carries, which picks its route's rate cap when caps are links.
enum class FlowKind { Put, GetRequest, GetData };

struct PlatformOptions {
  bool rate_caps_as_links = false;
  bool latency_on_links = false;
};

class PlatformBuilder {
 public:
  // Call after the engine's network model is configured and before any other zone exists.
  PlatformBuilder(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                  const core::JobPlacement& placement, PlatformOptions options);
  // Records that data flows from src_pe to dst_pe (src != dst). Call before seal().
  void add_pair(int src_pe, int dst_pe, FlowKind kind = FlowKind::Put);
  void seal();
  sg4::Host* host(int pe) const { return hosts_.at(static_cast<size_t>(pe)); }
  // The hosts a flow of `kind` from src_pe to dst_pe runs between.
  sg4::Host* flow_source(int src_pe, FlowKind kind) const;
  sg4::Host* flow_destination(int dst_pe, FlowKind kind) const;

 private:
  sg4::Link* link(const std::string& name, double bandwidth, double latency, bool fatpipe = false);

  const core::MachineSpec& machine_;
  const core::SoftwareProfile& profile_;
  core::Router router_;
  const core::JobPlacement& placement_;
  const bool caps_as_links_;
  const bool latency_on_links_;
  sg4::NetZone* zone_;
  std::vector<sg4::Host*> hosts_;
  std::vector<sg4::Host*> get_servers_;  // only with rate caps as links
  std::map<std::string, sg4::Link*> links_;
  std::set<std::tuple<int, int, int>> pairs_;
};

}  // namespace t3sim::engine
