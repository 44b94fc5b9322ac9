// Input-port fairness for the flow model (network.port_fairness). A router's switch serves its input
// ports in turn (round-robin, as the packet driver's iSLIP does), not its flows: at a saturated output,
// each input port that brings traffic gets an equal part, however many flows it carries, and a port's
// flows split its part as they arrived. The fluid form (explored in docs/research/contention-forms.md):
// each flow's share is the product, over the arbitrated resources of its path (the torus links and the
// ejection into the destination node), of (1 / the input ports feeding that resource now)^fairness, and
// flows meeting at a saturated resource get rates in proportion to their shares (FlowSolver's shares).
// A heuristic: on a tree of backlogged merges into one node (a hot spot) where each source carries one
// flow, fairness 1 gives each flow the part round-robin arbitration at every merge gives it; flows
// sharing an injection port each keep share 1 to their first merge, and merges at unsaturated links or
// after a flow's bottleneck shrink its share too (docs/model.md). Ports are counted by the live flows
// arriving through them, so a resource's count changes only when a port's first flow starts or its
// last ends.
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"

namespace t3sim::core {

class PortShares {
 public:
  // Input ports of a router: 6 torus directions and the node's injection.
  static constexpr int kPorts = 7;
  // A resource a flow is arbitrated at, and the input port it arrives there through.
  using Hop = std::pair<ResourceId, int>;

  // `resources`: the solver's resource count; `fairness` in [0, 1] (0: every share is 1, max-min).
  PortShares(int resources, double fairness);

  // One flow over `hops` starts (add) or ends (remove); appends to `changed` the resources whose count
  // of feeding ports moved (their users' shares move with it).
  void add(const std::vector<Hop>& hops, std::vector<ResourceId>& changed);
  void remove(const std::vector<Hop>& hops, std::vector<ResourceId>& changed);
  // The share of a flow over `hops` as the ports are counted now (1 with no hops).
  double share(const std::vector<Hop>& hops) const;
  // Input ports feeding resource r now.
  int ports(ResourceId r) const { return ports_.at(static_cast<std::size_t>(r)); }

 private:
  double fairness_;
  std::vector<std::array<int32_t, kPorts>> flows_;  // per resource and input port: live flows arriving
  std::vector<uint8_t> ports_;                      // per resource: ports with at least one
  std::vector<double> factor_;                      // factor_[k] = k^-fairness
};

}  // namespace t3sim::core
