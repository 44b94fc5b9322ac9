#include "sim/core/run/network_resources.hpp"

#include <algorithm>
#include <cassert>

namespace t3sim::core {

NetworkResources::NetworkResources(const MachineSpec& machine, const SoftwareProfile& profile,
                                   const JobPlacement& placement)
    : NetworkResources(machine, placement) {
  profile_ = &profile;
  pes_ = placement.size();
  mpi_pes_ = profile.mpi_bandwidth > 0 ? pes_ : 0;
  // A node's port and a PE's registers join the solver only where they can bind. Every transfer of a
  // node crosses its injection or its ejection interface, so a port of at least both together never
  // binds; get data crosses its initiator's receive rate, so registers at least as fast never bind.
  // Left out, they change no answer, and the solver does not couple every flow of a node through one
  // more resource (on mcurie's values, which bind neither, that coupling made a 512-PE all-to-all 1.7x
  // slower).
  const NodeParams& node = machine.node;
  const double interfaces = machine.network.nic_injection_bandwidth + machine.network.nic_ejection_bandwidth;
  memory_nodes_ = node.memory_bandwidth > 0 && node.memory_bandwidth < interfaces ? nodes_ : 0;
  eregister_pes_ = eregister_rate(node) < flow_cap(profile, FlowKind::GetData) ? pes_ : 0;
  disks_ = machine.disk_count();
}

NetworkResources::NetworkResources(const MachineSpec& machine, const JobPlacement& placement)
    : machine_(machine),
      profile_(nullptr),
      placement_(placement),
      routing_(make_routing(machine)),
      nodes_(machine.torus().node_count()),
      link_bound_(machine.torus().link_id_bound()),
      pes_(0),
      mpi_pes_(0),
      memory_nodes_(0),
      eregister_pes_(0),
      disks_(0) {}

double NetworkResources::capacity(ResourceId r) const {
  const NetworkParams& net = machine_.network;
  if (r < nodes_) return net.nic_injection_bandwidth;
  if (r < 2 * nodes_) return net.nic_ejection_bandwidth;
  if (r < issue_of(0)) return net.link_bandwidth;
  if (r < receive_of(0)) return flow_cap(*profile_, FlowKind::Put);
  if (r < mpi_of(0)) return flow_cap(*profile_, FlowKind::GetData);
  if (r < memory_of(0)) return profile_->mpi_bandwidth;
  if (r < eregisters_of(0)) return machine_.node.memory_bandwidth;
  if (r < disk_of(0)) return eregister_rate(machine_.node);
  const IoParams& io = machine_.io;
  switch ((r - disk_of(0)) % 3) {
    case 0:
      return std::max(io.disk_read_bandwidth, io.disk_write_bandwidth);
    case 1:
      return io.disk_read_bandwidth;
    default:
      return io.disk_write_bandwidth;
  }
}

std::string NetworkResources::name(ResourceId r) const {
  if (r < nodes_) return "inject.n" + std::to_string(r);
  if (r < 2 * nodes_) return "eject.n" + std::to_string(r - nodes_);
  if (r < issue_of(0)) return Torus::link_name(r - 2 * nodes_);
  if (r < receive_of(0)) return "issue.pe" + std::to_string(r - issue_of(0));
  if (r < mpi_of(0)) return "receive.pe" + std::to_string(r - receive_of(0));
  if (r < memory_of(0)) return "mpi.pe" + std::to_string(r - mpi_of(0));
  if (r < eregisters_of(0)) return "memory.n" + std::to_string(r - memory_of(0));
  if (r < disk_of(0)) return "eregisters.pe" + std::to_string(r - eregisters_of(0));
  const int k = r - disk_of(0);
  static const char* const kWay[] = {"", ".read", ".write"};
  return "disk" + std::to_string(k / 3) + kWay[k % 3];
}

const std::vector<ResourceId>& NetworkResources::disk_path(int disk, bool write) {
  path_.assign({disk_of(disk), disk_of(disk) + (write ? 2 : 1)});
  weights_.assign({1.0, 1.0});
  return path_;
}

const std::vector<ResourceId>& NetworkResources::path(int src_pe, int dst_pe) {
  const int a = placement_.node_of(src_pe);
  const int b = placement_.node_of(dst_pe);
  path_.clear();
  weights_.clear();
  links_.clear();
  path_.push_back(a);
  weights_.push_back(1.0);
  try {
    routing_->append_links(a, b, links_, weights_);
  } catch (const UnroutablePair& e) {
    throw with_pes(e, src_pe, dst_pe);
  }
  for (LinkId l : links_) path_.push_back(2 * nodes_ + l);  // link id -> resource id
  path_.push_back(nodes_ + b);
  weights_.push_back(1.0);
  return path_;
}

void NetworkResources::add_pe_rates(int src_pe, int dst_pe, FlowKind kind) {
  assert(profile_ != nullptr);
  auto add = [this](ResourceId r) {
    path_.push_back(r);
    weights_.push_back(1.0);
  };
  if (kind == FlowKind::Put) add(issue_of(src_pe));
  if (kind == FlowKind::GetData || kind == FlowKind::MessageData) add(receive_of(dst_pe));
  if (kind == FlowKind::MessageData && mpi_pes_ > 0) add(mpi_of(dst_pe));
  // Only data: a get request or an acknowledgement is a word of control; file I/O has its own paths.
  if (kind != FlowKind::Put && kind != FlowKind::GetData && kind != FlowKind::MessageData) return;
  if (memory_nodes_ > 0) {  // the source reads its memory, the destination writes its own
    const int a = placement_.node_of(src_pe), b = placement_.node_of(dst_pe);
    add(memory_of(a));
    if (b != a) add(memory_of(b));
  }
  // A load's register is the loader's: the get's initiator, which is where its data goes. A put frees
  // its registers once its data has left, which takes no round trip.
  if (eregister_pes_ > 0 && (kind == FlowKind::GetData || kind == FlowKind::MessageData)) add(eregisters_of(dst_pe));
}

const std::vector<ResourceId>& NetworkResources::path(int src_pe, int dst_pe, FlowKind kind) {
  path(src_pe, dst_pe);
  add_pe_rates(src_pe, dst_pe, kind);
  return path_;
}

const std::vector<ResourceId>& NetworkResources::endpoints(int src_pe, int dst_pe, FlowKind kind) {
  path_.clear();
  weights_.clear();
  path_.push_back(placement_.node_of(src_pe));
  weights_.push_back(1.0);
  path_.push_back(nodes_ + placement_.node_of(dst_pe));
  weights_.push_back(1.0);
  add_pe_rates(src_pe, dst_pe, kind);
  return path_;
}

void NetworkResources::arbitration_hops(const std::vector<ResourceId>& path,
                                        std::vector<std::pair<ResourceId, int>>& hops) const {
  constexpr int kInjection = 6;
  hops.clear();
  int port = kInjection;
  for (ResourceId r : path) {
    if (r >= 2 * nodes_ && r < 2 * nodes_ + link_bound_) {
      hops.emplace_back(r, port);
      port = (r - 2 * nodes_) % 6;  // the next router's input port: this link's direction
    } else if (r >= nodes_ && r < 2 * nodes_) {
      hops.emplace_back(r, port);  // the ejection: one per path, after its links
    }
  }
}

}  // namespace t3sim::core
