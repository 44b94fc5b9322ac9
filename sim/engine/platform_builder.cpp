#include "sim/engine/platform_builder.hpp"

namespace t3sim::engine {

PlatformBuilder::PlatformBuilder(const core::MachineSpec& machine, const core::JobPlacement& placement)
    : machine_(machine), router_(machine.router()), placement_(placement) {
  const int job_pes = placement.size();
  zone_ = sg4::create_full_zone("t3sim");
  const double speed = machine.node.clock_hz * machine.node.flops_per_cycle;
  for (int pe = 0; pe < job_pes; ++pe) hosts_.push_back(zone_->create_host("pe" + std::to_string(pe), speed));
}

sg4::Link* PlatformBuilder::link(const std::string& name, double bandwidth) {
  auto it = links_.find(name);
  if (it != links_.end()) return it->second;
  // SHARED: max-min fair sharing among the flows crossing the link; latency stays 0 (see header).
  sg4::Link* l = zone_->create_link(name, bandwidth)->set_latency(0);  // sealed with the zone
  links_.emplace(name, l);
  return l;
}

void PlatformBuilder::add_pair(int src_pe, int dst_pe) {
  if (src_pe == dst_pe || !pairs_.insert({src_pe, dst_pe}).second) return;
  const int src_node = placement_.node_of(src_pe);
  const int dst_node = placement_.node_of(dst_pe);
  std::vector<sg4::LinkInRoute> route;
  route.emplace_back(link("inject.n" + std::to_string(src_node), machine_.network.nic_injection_bandwidth));
  for (const core::Hop& h : router_.route(src_node, dst_node))
    route.emplace_back(link(core::Torus::link_name(h.link), machine_.network.link_bandwidth));
  route.emplace_back(link("eject.n" + std::to_string(dst_node), machine_.network.nic_ejection_bandwidth));
  zone_->add_route(host(src_pe)->get_netpoint(), host(dst_pe)->get_netpoint(), nullptr, nullptr, route, false);
}

void PlatformBuilder::seal() { zone_->seal(); }

}  // namespace t3sim::engine
