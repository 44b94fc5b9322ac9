// Placement of PEs onto torus nodes. The T3D has 2 PEs per node sharing one network interface;
// the T3E has 1. PEs fill nodes in node-id order: PE p sits on node p / pes_per_node.
#pragma once

namespace t3sim::core {

class PeToNode {
 public:
  PeToNode(int pes_per_node, int node_count) : pes_per_node_(pes_per_node), node_count_(node_count) {}
  int node_of(int pe) const { return pe / pes_per_node_; }
  // Index of the PE within its node, in [0, pes_per_node).
  int slot_of(int pe) const { return pe % pes_per_node_; }
  int pe_count() const { return pes_per_node_ * node_count_; }
  int pes_per_node() const { return pes_per_node_; }

 private:
  int pes_per_node_;
  int node_count_;
};

}  // namespace t3sim::core
