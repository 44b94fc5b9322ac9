// The uncontended closed form of each SHMEM operation: what the engine must give when nothing else
// shares the path (engine tests pin this to 1e-9), and what `t3sim calibrate` fits against.
//
//   latency(a->b)   = (hops + 1) * router_delay + hops * wire_delay     (source router to destination router)
//   bottleneck(a->b)= min(nic_injection, link_bandwidth / w if hops > 0, nic_ejection), w the largest
//                     fraction of the flow on one link (1 on a single route; routing.hpp)
//   hops follow the machine's routing (the shortest working detour when failed links force one)
//   local get       = call_overhead + local_overhead + bytes / copy_bandwidth
//   remote get      = call_overhead
//                     + latency(pe->peer) + request_bytes / bottleneck(pe->peer)        (the request)
//                     + latency(peer->pe) + bytes / min(bottleneck(peer->pe), get_bandwidth)  (the data;
//                       a message layer's rendezvous pull: also min with mpi_bandwidth, flow_cap)
//   put, complete   = call_overhead + latency(pe->peer)
//                     + bytes / min(bottleneck(pe->peer), put_bandwidth) + latency(peer->pe)  (the ack)
//   put to self     = call_overhead + local_overhead + bytes / copy_bandwidth
//   overhead        = message_overhead; mpi send / receive = mpi_send_overhead / mpi_recv_overhead;
//   mpi collective  = mpi_collective_overhead
#pragma once
#include <memory>
#include <vector>

#include "sim/core/machine/job_placement.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/program/workload.hpp"
#include "sim/core/run/results.hpp"
#include "sim/core/run/transport.hpp"

namespace t3sim::core {

class CostModel {
 public:
  // PEs are job PEs placed by `placement`; without one, job PE p is machine PE p (contiguous).
  CostModel(const MachineSpec& machine, const SoftwareProfile& profile);
  CostModel(const MachineSpec& machine, const SoftwareProfile& profile, JobPlacement placement);

  int hops(int src_pe, int dst_pe) const;
  double latency(int src_pe, int dst_pe) const;
  // The latency of a path of `hops` hops (latency() of a pair that far apart).
  double latency_of_hops(int hops) const;
  double bottleneck(int src_pe, int dst_pe) const;
  // A get or put of `bytes` to the PE's own memory: a copy (the one place this cost is written).
  double local_copy_time(double bytes) const;
  // Time of one operation alone on the machine (Get, Put with complete=true, Compute).
  double uncontended_time(const Op& op) const;

  const MachineSpec& machine() const { return machine_; }
  const SoftwareProfile& profile() const { return profile_; }
  const JobPlacement& placement() const { return placement_; }

 private:
  const MachineSpec& machine_;
  const SoftwareProfile& profile_;
  std::shared_ptr<const Routing> routing_;
  JobPlacement placement_;
};

}  // namespace t3sim::core
