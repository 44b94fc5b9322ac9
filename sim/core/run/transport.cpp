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

double eregister_rate(const NodeParams& node) {
  return node.eregisters > 0 ? node.eregisters * kERegisterBytes / node.remote_round_trip : INFINITY;
}

double node_cap(const NodeParams& node, FlowKind kind) {
  if (kind != FlowKind::Put && kind != FlowKind::GetData && kind != FlowKind::MessageData) return INFINITY;
  const double port = node.memory_bandwidth > 0 ? node.memory_bandwidth : INFINITY;
  return kind == FlowKind::Put ? port : std::min(port, eregister_rate(node));
}

}  // namespace t3sim::core
