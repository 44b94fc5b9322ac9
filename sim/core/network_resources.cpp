#include "sim/core/network_resources.hpp"

namespace t3sim::core {

std::vector<LinkId> DimensionOrderRouting::links(int src_node, int dst_node) const {
  std::vector<LinkId> out;
  for (const Hop& h : router_.route(src_node, dst_node)) out.push_back(h.link);
  return out;
}

NetworkResources::NetworkResources(const MachineSpec& machine, const JobPlacement& placement)
    : machine_(machine),
      placement_(placement),
      routing_(std::make_unique<DimensionOrderRouting>(machine.router())),
      nodes_(machine.torus().node_count()),
      link_bound_(machine.torus().link_id_bound()) {}

double NetworkResources::capacity(ResourceId r) const {
  const NetworkParams& net = machine_.network;
  if (r < nodes_) return net.nic_injection_bandwidth;
  if (r < 2 * nodes_) return net.nic_ejection_bandwidth;
  return net.link_bandwidth;
}

std::string NetworkResources::name(ResourceId r) const {
  if (r < nodes_) return "inject.n" + std::to_string(r);
  if (r < 2 * nodes_) return "eject.n" + std::to_string(r - nodes_);
  return Torus::link_name(r - 2 * nodes_);
}

const std::vector<ResourceId>& NetworkResources::path(int src_pe, int dst_pe) {
  const int a = placement_.node_of(src_pe);
  const int b = placement_.node_of(dst_pe);
  const long long key = static_cast<long long>(a) * nodes_ + b;
  auto it = paths_.find(key);
  if (it != paths_.end()) return it->second;
  std::vector<ResourceId> p;
  p.push_back(a);
  for (LinkId l : routing_->links(a, b)) p.push_back(2 * nodes_ + l);
  p.push_back(nodes_ + b);
  return paths_.emplace(key, std::move(p)).first->second;
}

std::vector<ResourceId> NetworkResources::existing() const {
  std::vector<ResourceId> out;
  const Torus torus = machine_.torus();
  for (ResourceId r = 0; r < count(); ++r)
    if (r < 2 * nodes_ || torus.has_links(Torus::link_dim(r - 2 * nodes_))) out.push_back(r);
  return out;
}

}  // namespace t3sim::core
