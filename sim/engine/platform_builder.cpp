#include "sim/engine/platform_builder.hpp"

#include <cmath>

namespace t3sim::engine {

PlatformBuilder::PlatformBuilder(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                                 const core::JobPlacement& placement, core::NetworkResources& resources)
    : profile_(profile), resources_(resources) {
  const int job_pes = placement.size();
  zone_ = sg4::create_full_zone("t3sim");
  const double speed = machine.node.clock_hz * machine.node.flops_per_cycle;
  for (int pe = 0; pe < job_pes; ++pe) hosts_.push_back(zone_->create_host("pe" + std::to_string(pe), speed));
  for (int pe = 0; pe < job_pes; ++pe)
    get_servers_.push_back(zone_->create_host("pe" + std::to_string(pe) + ".get", speed));
}

sg4::Link* PlatformBuilder::link(const std::string& name, double bandwidth, bool fatpipe) {
  auto it = links_.find(name);
  if (it != links_.end()) return it->second;
  // SHARED (max-min fair sharing among the flows crossing the link) unless a per-flow cap.
  sg4::Link* l = zone_->create_link(name, bandwidth)->set_latency(0);
  if (fatpipe) l->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  links_.emplace(name, l);
  return l;
}

sg4::Host* PlatformBuilder::flow_source(int src_pe, core::FlowKind kind) const {
  if (kind == core::FlowKind::GetData) return get_servers_.at(static_cast<size_t>(src_pe));
  return host(src_pe);
}

sg4::Host* PlatformBuilder::flow_destination(int dst_pe, core::FlowKind kind) const {
  if (kind == core::FlowKind::GetRequest) return get_servers_.at(static_cast<size_t>(dst_pe));
  return host(dst_pe);
}

void PlatformBuilder::add_pair(int src_pe, int dst_pe, core::FlowKind kind) {
  if (src_pe == dst_pe || !pairs_.insert({src_pe, dst_pe, static_cast<int>(kind)}).second) return;
  std::vector<sg4::LinkInRoute> route;
  const double cap = core::flow_cap(profile_, kind);
  if (std::isfinite(cap)) {
    const char* what = kind == core::FlowKind::Put ? "cap.put.pe" : "cap.get.pe";
    route.emplace_back(link(what + std::to_string(src_pe), cap, true));
  }
  for (core::ResourceId r : resources_.path(src_pe, dst_pe))
    route.emplace_back(link(resources_.name(r), resources_.capacity(r)));
  zone_->add_route(flow_source(src_pe, kind)->get_netpoint(), flow_destination(dst_pe, kind)->get_netpoint(), nullptr,
                   nullptr, route, false);
}

void PlatformBuilder::seal() { zone_->seal(); }

}  // namespace t3sim::engine
