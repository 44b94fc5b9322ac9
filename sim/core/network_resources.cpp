#include "sim/core/network_resources.hpp"

namespace t3sim::core {

void DimensionOrderRouting::append_links(int src_node, int dst_node, std::vector<LinkId>& out) const {
  router_.for_each_hop(src_node, dst_node, [&out](const Hop& h) { out.push_back(h.link); });
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
  path_.clear();
  path_.push_back(a);
  const size_t first_link = path_.size();
  routing_->append_links(a, b, path_);
  for (size_t i = first_link; i < path_.size(); ++i) path_[i] += 2 * nodes_;  // link id -> resource id
  path_.push_back(nodes_ + b);
  return path_;
}

std::vector<ResourceId> NetworkResources::existing() const {
  std::vector<ResourceId> out;
  const Torus torus = machine_.torus();
  for (ResourceId r = 0; r < count(); ++r)
    if (r < 2 * nodes_ || torus.has_links(Torus::link_dim(r - 2 * nodes_))) out.push_back(r);
  return out;
}

}  // namespace t3sim::core
