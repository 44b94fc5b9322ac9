#include "sim/core/run/transport.hpp"

#include <algorithm>
#include <cmath>

namespace t3sim::core {

double flow_cap(const SoftwareProfile& profile, FlowKind kind) {
  switch (kind) {
    case FlowKind::Put:
      return profile.put_bandwidth;
    case FlowKind::GetData:
      return profile.get_bandwidth;
    case FlowKind::MessageData:
      return profile.mpi_bandwidth > 0 ? std::min(profile.get_bandwidth, profile.mpi_bandwidth) : profile.get_bandwidth;
    case FlowKind::GetRequest:
    case FlowKind::IoData:
    case FlowKind::Ack:
      break;
  }
  return INFINITY;
}

double node_cap(const NodeParams& node, FlowKind kind) {
  double cap = INFINITY;
  if (kind != FlowKind::Put && kind != FlowKind::GetData && kind != FlowKind::MessageData) return cap;
  if (node.memory_bandwidth > 0) cap = node.memory_bandwidth;
  if (node.eregisters > 0 && kind != FlowKind::Put)
    cap = std::min(cap, node.eregisters * kERegisterBytes / node.remote_round_trip);
  return cap;
}

}  // namespace t3sim::core
