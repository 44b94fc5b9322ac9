#include "sim/engine/platform_builder.hpp"

#include <cmath>

namespace t3sim::engine {

PlatformBuilder::PlatformBuilder(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                                 const core::JobPlacement& placement, PlatformOptions options)
    : machine_(machine),
      profile_(profile),
      router_(machine.router()),
      placement_(placement),
      caps_as_links_(options.rate_caps_as_links),
      latency_on_links_(options.latency_on_links) {
  const int job_pes = placement.size();
  zone_ = sg4::create_full_zone("t3sim");
  const double speed = machine.node.clock_hz * machine.node.flops_per_cycle;
  for (int pe = 0; pe < job_pes; ++pe) hosts_.push_back(zone_->create_host("pe" + std::to_string(pe), speed));
  if (caps_as_links_)
    for (int pe = 0; pe < job_pes; ++pe)
      get_servers_.push_back(zone_->create_host("pe" + std::to_string(pe) + ".get", speed));
}

sg4::Link* PlatformBuilder::link(const std::string& name, double bandwidth, double latency, bool fatpipe) {
  auto it = links_.find(name);
  if (it != links_.end()) return it->second;
  // SHARED: max-min fair sharing among the flows crossing the link; latency only in the reference style.
  sg4::Link* l = zone_->create_link(name, bandwidth)->set_latency(latency_on_links_ ? latency : 0);
  if (fatpipe) l->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  links_.emplace(name, l);
  return l;
}

sg4::Host* PlatformBuilder::flow_source(int src_pe, FlowKind kind) const {
  if (caps_as_links_ && kind == FlowKind::GetData) return get_servers_.at(static_cast<size_t>(src_pe));
  return host(src_pe);
}

sg4::Host* PlatformBuilder::flow_destination(int dst_pe, FlowKind kind) const {
  if (caps_as_links_ && kind == FlowKind::GetRequest) return get_servers_.at(static_cast<size_t>(dst_pe));
  return host(dst_pe);
}

void PlatformBuilder::add_pair(int src_pe, int dst_pe, FlowKind kind) {
  if (!caps_as_links_) kind = FlowKind::Put;  // one route per host pair, whatever it carries
  if (src_pe == dst_pe || !pairs_.insert({src_pe, dst_pe, static_cast<int>(kind)}).second) return;
  const int src_node = placement_.node_of(src_pe);
  const int dst_node = placement_.node_of(dst_pe);
  std::vector<sg4::LinkInRoute> route;
  if (caps_as_links_ && kind == FlowKind::Put && std::isfinite(profile_.put_bandwidth))
    route.emplace_back(link("cap.put.pe" + std::to_string(src_pe), profile_.put_bandwidth, 0, true));
  if (caps_as_links_ && kind == FlowKind::GetData && std::isfinite(profile_.get_bandwidth))
    route.emplace_back(link("cap.get.pe" + std::to_string(src_pe), profile_.get_bandwidth, 0, true));
  const core::NetworkParams& net = machine_.network;
  route.emplace_back(link("inject.n" + std::to_string(src_node), net.nic_injection_bandwidth, net.router_delay));
  for (const core::Hop& h : router_.route(src_node, dst_node))
    route.emplace_back(link(core::Torus::link_name(h.link), net.link_bandwidth, net.router_delay + net.wire_delay));
  route.emplace_back(link("eject.n" + std::to_string(dst_node), net.nic_ejection_bandwidth, 0));
  zone_->add_route(flow_source(src_pe, kind)->get_netpoint(), flow_destination(dst_pe, kind)->get_netpoint(), nullptr,
                   nullptr, route, false);
}

void PlatformBuilder::seal() { zone_->seal(); }

}  // namespace t3sim::engine
