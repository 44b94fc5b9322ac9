#include "sim/core/run/cost_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace t3sim::core {

void sort_records(std::vector<OpRecord>& records) {
  auto before = [](const OpRecord& a, const OpRecord& b) {
    return std::tie(a.pe, a.start, a.iteration, a.step) < std::tie(b.pe, b.start, b.iteration, b.step);
  };
  // The interpreter hands them over per PE in program order: usually sorted already.
  if (std::is_sorted(records.begin(), records.end(), before)) return;
  std::stable_sort(records.begin(), records.end(), before);
}

void sort_transfers(std::vector<Transfer>& transfers) {
  std::stable_sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.start, a.src, a.dst, a.end) < std::tie(b.start, b.src, b.dst, b.end);
  });
}

CostModel::CostModel(const MachineSpec& machine, const SoftwareProfile& profile)
    : CostModel(machine, profile, JobPlacement::contiguous(machine, machine.pe_count())) {}

CostModel::CostModel(const MachineSpec& machine, const SoftwareProfile& profile, JobPlacement placement)
    : machine_(machine), profile_(profile), routing_(make_routing(machine)), placement_(std::move(placement)) {}

int CostModel::hops(int src_pe, int dst_pe) const {
  try {
    return routing_->hop_count(placement_.node_of(src_pe), placement_.node_of(dst_pe));
  } catch (const UnroutablePair& e) {
    throw with_pes(e, src_pe, dst_pe);
  }
}

double CostModel::latency(int src_pe, int dst_pe) const { return latency_of_hops(hops(src_pe, dst_pe)); }

double CostModel::latency_of_hops(int h) const {
  return (h + 1) * machine_.network.router_delay + h * machine_.network.wire_delay;
}

double CostModel::bottleneck(int src_pe, int dst_pe) const {
  const auto& net = machine_.network;
  double bw = std::min(net.nic_injection_bandwidth, net.nic_ejection_bandwidth);
  const int a = placement_.node_of(src_pe), b = placement_.node_of(dst_pe);
  if (a == b) return bw;
  if (routing_->single_route()) return std::min(bw, net.link_bandwidth);
  std::vector<LinkId> links;
  std::vector<double> weights;
  routing_->append_links(a, b, links, weights);
  double most = 0;
  for (double w : weights) most = std::max(most, w);
  return std::min(bw, net.link_bandwidth / most);
}

double CostModel::local_copy_time(double bytes) const {
  return profile_.call_overhead + profile_.local_overhead + bytes / profile_.copy_bandwidth;
}

namespace {
// What a get's data is: a message layer's rendezvous pull, or a SHMEM get's.
FlowKind data_kind(const Op& op) { return op.message_data ? FlowKind::MessageData : FlowKind::GetData; }
}  // namespace

double CostModel::uncontended_time(const Op& op) const {
  const auto& p = profile_;
  switch (op.kind) {
    case OpKind::Get:
    case OpKind::Atomic:  // the remote memory does the swap or add; the old value comes back as a get's data
      if (op.peer == op.pe) return local_copy_time(op.bytes);
      return p.call_overhead + latency(op.pe, op.peer) + machine_.network.request_bytes / bottleneck(op.pe, op.peer) +
             latency(op.peer, op.pe) +
             op.bytes / std::min({bottleneck(op.peer, op.pe), flow_cap(p, data_kind(op)),
                                  node_cap(machine_.node, data_kind(op))});
    case OpKind::Put:
      if (op.peer == op.pe) return local_copy_time(op.bytes);
      if (!op.complete) return p.call_overhead;
      return p.call_overhead + latency(op.pe, op.peer) +
             op.bytes / std::min({bottleneck(op.pe, op.peer), flow_cap(p, FlowKind::Put),
                                  node_cap(machine_.node, FlowKind::Put)}) +
             latency(op.peer, op.pe);
    case OpKind::Overhead:
      return p.message_overhead;
    case OpKind::MpiSend:
      return p.mpi_send_overhead;
    case OpKind::MpiRecv:
      return p.mpi_recv_overhead;
    case OpKind::MpiCollective:
      return p.mpi_collective_overhead;
    case OpKind::Compute:
      return op.seconds + op.flops / (machine_.node.clock_hz * machine_.node.flops_per_cycle);
    case OpKind::Quiet:
    case OpKind::Barrier:
    case OpKind::Wait:
    case OpKind::Write:  // file calls: io_layer.hpp (buffers and queues make them depend on the past)
    case OpKind::Read:
    case OpKind::Close:
      break;
  }
  throw std::logic_error("uncontended_time: no closed form for a lone " + std::string(op_kind_name(op.kind)));
}

}  // namespace t3sim::core
