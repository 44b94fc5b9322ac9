#include "sim/core/network_resources.hpp"

#include <cassert>

namespace t3sim::core {

void DimensionOrderRouting::append_links(int src_node, int dst_node, std::vector<LinkId>& out) const {
  router_.for_each_hop(src_node, dst_node, [&out](const Hop& h) { out.push_back(h.link); });
}

NetworkResources::NetworkResources(const MachineSpec& machine, const SoftwareProfile& profile,
                                   const JobPlacement& placement)
    : NetworkResources(machine, placement) {
  profile_ = &profile;
  pes_ = placement.size();
  mpi_pes_ = profile.mpi_bandwidth > 0 ? pes_ : 0;
}

NetworkResources::NetworkResources(const MachineSpec& machine, const JobPlacement& placement)
    : machine_(machine),
      profile_(nullptr),
      placement_(placement),
      routing_(std::make_unique<DimensionOrderRouting>(machine.router())),
      nodes_(machine.torus().node_count()),
      link_bound_(machine.torus().link_id_bound()),
      pes_(0),
      mpi_pes_(0) {}

double NetworkResources::capacity(ResourceId r) const {
  const NetworkParams& net = machine_.network;
  if (r < nodes_) return net.nic_injection_bandwidth;
  if (r < 2 * nodes_) return net.nic_ejection_bandwidth;
  if (r < issue_of(0)) return net.link_bandwidth;
  if (r < receive_of(0)) return flow_cap(*profile_, FlowKind::Put);
  if (r < mpi_of(0)) return flow_cap(*profile_, FlowKind::GetData);
  return profile_->mpi_bandwidth;
}

std::string NetworkResources::name(ResourceId r) const {
  if (r < nodes_) return "inject.n" + std::to_string(r);
  if (r < 2 * nodes_) return "eject.n" + std::to_string(r - nodes_);
  if (r < issue_of(0)) return Torus::link_name(r - 2 * nodes_);
  if (r < receive_of(0)) return "issue.pe" + std::to_string(r - issue_of(0));
  if (r < mpi_of(0)) return "receive.pe" + std::to_string(r - receive_of(0));
  return "mpi.pe" + std::to_string(r - mpi_of(0));
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

const std::vector<ResourceId>& NetworkResources::path(int src_pe, int dst_pe, FlowKind kind) {
  assert(profile_ != nullptr);
  path(src_pe, dst_pe);
  if (kind == FlowKind::Put) path_.push_back(issue_of(src_pe));
  if (kind == FlowKind::GetData || kind == FlowKind::MessageData) path_.push_back(receive_of(dst_pe));
  if (kind == FlowKind::MessageData && mpi_pes_ > 0) path_.push_back(mpi_of(dst_pe));
  return path_;
}

}  // namespace t3sim::core
