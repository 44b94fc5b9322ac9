// The shared capacities of a job's network, numbered densely for the flow solver: the injection and
// the ejection interface of every node (shared by its PEs), then every directed torus link. A flow
// from PE a to PE b crosses the injection of a's node, its route's links and the ejection of b's
// node; both the solver transport and the SimGrid platform take their paths from here.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/core/flow_solver.hpp"
#include "sim/core/job_placement.hpp"
#include "sim/core/machine_spec.hpp"
#include "sim/core/routing.hpp"

namespace t3sim::core {

class NetworkResources {
 public:
  // Routes by the machine's own routing (dimension order today).
  NetworkResources(const MachineSpec& machine, const JobPlacement& placement);

  int count() const { return 2 * nodes_ + link_bound_; }
  // bytes/s
  double capacity(ResourceId r) const;
  // "inject.n3", "eject.n3", or the link's name ("n12.y-").
  std::string name(ResourceId r) const;
  // The resources a flow from job PE src to job PE dst crosses (src != dst). Computed at each call
  // (a route is a few dozen operations; a cache of every pair cost more memory than it saved time);
  // the reference stays valid until the next call.
  const std::vector<ResourceId>& path(int src_pe, int dst_pe);
  // Every resource that exists (links of rings of size 1 do not), in id order.
  std::vector<ResourceId> existing() const;

 private:
  const MachineSpec& machine_;
  const JobPlacement& placement_;
  std::unique_ptr<Routing> routing_;
  int nodes_;
  int link_bound_;
  std::vector<ResourceId> path_;
};

}  // namespace t3sim::core
