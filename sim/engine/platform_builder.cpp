#include "sim/engine/platform_builder.hpp"

#include "sim/core/run/file_io.hpp"

namespace t3sim::engine {

PlatformBuilder::PlatformBuilder(const core::MachineSpec& machine, const core::JobPlacement& placement,
                                 core::NetworkResources& resources, int first_server)
    : resources_(resources) {
  const int job_pes = placement.size();
  zone_ = sg4::create_full_zone("t3sim");
  const double speed = machine.node.clock_hz * machine.node.flops_per_cycle;
  for (int pe = 0; pe < job_pes; ++pe) hosts_.push_back(zone_->create_host("pe" + std::to_string(pe), speed));
  for (int pe = 0; pe < job_pes; ++pe)
    get_servers_.push_back(zone_->create_host("pe" + std::to_string(pe) + ".get", speed));
  for (int pe = 0; pe < job_pes; ++pe)
    message_servers_.push_back(zone_->create_host("pe" + std::to_string(pe) + ".mpi", speed));
  const core::IoParams& io = machine.io;
  for (int k = 0; k < (first_server >= 0 ? machine.disk_count() : 0); ++k) {
    sg4::Host* server = host(first_server + core::io_node_of_disk(machine, k));
    disks_.push_back(
        server->create_disk("disk" + std::to_string(k), io.disk_read_bandwidth, io.disk_write_bandwidth)->seal());
  }
}

sg4::Link* PlatformBuilder::link(const std::string& name, double bandwidth) {
  auto it = links_.find(name);
  if (it != links_.end()) return it->second;
  // SHARED (max-min fair sharing among the flows crossing it): interfaces, torus links and the PEs'
  // issue and receive rates alike.
  sg4::Link* l = zone_->create_link(name, bandwidth)->set_latency(0);
  links_.emplace(name, l);
  return l;
}

sg4::Host* PlatformBuilder::flow_source(int src_pe, core::FlowKind kind) const {
  if (kind == core::FlowKind::GetData) return get_servers_.at(static_cast<size_t>(src_pe));
  if (kind == core::FlowKind::MessageData) return message_servers_.at(static_cast<size_t>(src_pe));
  return host(src_pe);
}

sg4::Host* PlatformBuilder::flow_destination(int dst_pe, core::FlowKind kind) const {
  if (kind == core::FlowKind::GetRequest) return get_servers_.at(static_cast<size_t>(dst_pe));
  return host(dst_pe);
}

void PlatformBuilder::add_pair(int src_pe, int dst_pe, core::FlowKind kind) {
  if (src_pe == dst_pe || !pairs_.insert({src_pe, dst_pe, static_cast<int>(kind)}).second) return;
  std::vector<sg4::LinkInRoute> route;
  for (core::ResourceId r : resources_.path(src_pe, dst_pe, kind))
    route.emplace_back(link(resources_.name(r), resources_.capacity(r)));
  zone_->add_route(flow_source(src_pe, kind)->get_netpoint(), flow_destination(dst_pe, kind)->get_netpoint(), nullptr,
                   nullptr, route, false);
}

void PlatformBuilder::seal() { zone_->seal(); }

}  // namespace t3sim::engine
