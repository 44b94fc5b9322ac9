// The shared capacities of a job's network, numbered densely for the flow solver: the injection and
// the ejection interface of every node (shared by its PEs), every directed torus link, then each job
// PE's issue rate (the remote stores it can issue: puts), receive rate (the remote loads it can
// sink: get data returning) and MPI rate (rendezvous data its MPI library pulls), each shared by all
// that PE's transfers in flight; when the machine models them (node.memory_bandwidth, node.eregisters)
// and they can bind, each node's memory port and each PE's E-register rate (8 x eregisters /
// remote_round_trip: Little's law on the registers its gets hold; a port of at least the node's two
// interfaces together, or registers at least as fast as the PE's get rate, are left out); then, on a machine with I/O
// nodes, three per disk as SimGrid's disk model has them: both ways together (max of the two bandwidths), reads,
// writes. A flow from PE a to PE b crosses the injection of a's node, its route's links and the ejection of b's node,
// plus the issue rate of a (a put) or the receive rate of b (get data; rendezvous data also b's MPI rate, when the
// profile sets one); a data flow (not a get request) also crosses the memory ports of a's and b's nodes (once when they
// are one node), and get or rendezvous data the E-register rate of b, whose load it is; both the solver transport and
// the SimGrid platform take their paths from here.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/routing/routing.hpp"
#include "sim/core/run/transport.hpp"

namespace t3sim::core {

class NetworkResources {
 public:
  // Routes by the machine's own routing (dimension order today); the PEs' rates are the profile's
  // (flow_cap: put_bandwidth, get_bandwidth).
  NetworkResources(const MachineSpec& machine, const SoftwareProfile& profile, const JobPlacement& placement);
  // The network alone (interfaces and links, no PE rates): for reports of link loads.
  NetworkResources(const MachineSpec& machine, const JobPlacement& placement);

  int count() const { return disk_of(disks_); }
  // bytes/s
  double capacity(ResourceId r) const;
  // "inject.n3", "eject.n3", the link's name ("n12.y-"), "issue.pe5", "receive.pe5", "mpi.pe5", "memory.n3",
  // "eregisters.pe5", "disk2", "disk2.read" or "disk2.write".
  std::string name(ResourceId r) const;
  // The network resources a flow from job PE src to job PE dst crosses (src != dst): interfaces and
  // links, no PE rate. Computed at each call (a route is a few dozen operations; a cache of every
  // pair cost more memory than it saved time); the reference stays valid until the next call.
  // Throws UnroutablePair (routing.hpp).
  const std::vector<ResourceId>& path(int src_pe, int dst_pe);
  // The same with the PE rates a flow of `kind` draws on: the source's issue rate for a put, the
  // destination's (the initiator's) receive rate for get data (and its MPI rate for rendezvous
  // data, if the profile has one), none for a get request. Only with a profile.
  const std::vector<ResourceId>& path(int src_pe, int dst_pe, FlowKind kind);
  // The resources a disk request draws on: the disk both ways, and its read or write bandwidth.
  const std::vector<ResourceId>& disk_path(int disk, bool write);
  // The resources of that flow other than torus links (interfaces and PE rates), for a routing that
  // picks the links itself (minimal_adaptive); the reference stays valid until the next call.
  const std::vector<ResourceId>& endpoints(int src_pe, int dst_pe, FlowKind kind);
  int node_of(int pe) const { return placement_.node_of(pe); }
  // Torus link l is resource link_resource(l), for l < link_bound().
  ResourceId link_resource(LinkId l) const { return 2 * nodes_ + l; }
  int link_bound() const { return link_bound_; }
  // The fraction of the flow on each resource of the last path (same order; 1 but on the links of a
  // multipath routing).
  const std::vector<double>& weights() const { return weights_; }
  // Whether every pair uses one route (all weights 1).
  bool single_route() const { return routing_->single_route(); }
  const Routing& routing() const { return *routing_; }
  // Where a flow over `path` (from path(): injection, links in route order, ejection, PE rates) meets
  // a router's arbitration: each torus link and the ejection, with the input port it arrives through
  // (the direction of the link before, Torus::link_id's 0-5, or 6 for the node's injection); for
  // network.port_fairness (core/flow/port_shares.hpp).
  void arbitration_hops(const std::vector<ResourceId>& path, std::vector<std::pair<ResourceId, int>>& hops) const;
  // Whether r is a PE's issue, receive or MPI rate or a disk: not part of the network.
  bool is_pe_rate(ResourceId r) const { return r >= 2 * nodes_ + link_bound_; }

 private:
  ResourceId issue_of(int pe) const { return 2 * nodes_ + link_bound_ + pe; }
  ResourceId receive_of(int pe) const { return issue_of(pes_) + pe; }
  ResourceId mpi_of(int pe) const { return receive_of(pes_) + pe; }
  ResourceId memory_of(int node) const { return mpi_of(0) + mpi_pes_ + node; }
  ResourceId eregisters_of(int pe) const { return memory_of(0) + memory_nodes_ + pe; }
  ResourceId disk_of(int disk) const { return eregisters_of(0) + eregister_pes_ + 3 * disk; }
  // Appends the PE rates a flow of `kind` draws on to path_ (weight 1 each).
  void add_pe_rates(int src_pe, int dst_pe, FlowKind kind);

  const MachineSpec& machine_;
  const SoftwareProfile* profile_;  // null: the network alone
  const JobPlacement& placement_;
  std::unique_ptr<Routing> routing_;
  int nodes_;
  int link_bound_;
  int pes_;
  int mpi_pes_;        // pes_ when the profile sets an MPI rate, else 0 (no MPI rate resources)
  int memory_nodes_;   // nodes_ when the machine has node.memory_bandwidth, else 0
  int eregister_pes_;  // pes_ when the machine has node.eregisters, else 0
  int disks_;          // the machine's disks (with a profile)
  std::vector<ResourceId> path_;
  std::vector<double> weights_;
  std::vector<LinkId> links_;  // scratch of path()
};

}  // namespace t3sim::core
