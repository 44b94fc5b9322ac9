// What each virtual channel of a packet run did (run --vc-report), recorded over a window of cycles:
// the measurements the flow model's VC holding time (core/flow/vc_holding.hpp) predicts, so the two
// views of one machine can be set side by side class by class (docs/research/contention-forms.md).
//
// Per output VC of every router (a torus link's, or the ejection's): the packets granted it in the
// window; each one's wait for it, from the cycle its input VC asked (the cycle after its head was
// routed) to the grant, by the input port it came through; and how long the grant held it: from the
// grant to the cycle the VC could be granted to a next packet, which under credit flow control is when
// the buffer downstream has room again: the packet's tail leaving the next router plus the credit's
// way back (the ejection: the tail crossing the switch, as a node always sinks). Per node, its
// injection VCs the same way, from the cycle a packet is made on one to its tail leaving the first
// router plus the credit's way back to the node. A packet's grants are kept in route order, since its
// head may be granted routers ahead of the router its tail leaves (cut-through, wormhole).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/run/results.hpp"

namespace t3sim::core {

class VcRecorder {
 public:
  // nodes x ports x vcs output VCs, nodes x vcs injection VCs; grants in [from, to) cycles count;
  // max_hops: the most torus hops a route may take (a packet's grants are its hops + 2).
  VcRecorder(int nodes, int ports, int vcs, int max_hops, uint64_t from, uint64_t to);

  // Packet `packet` (a slot id, reused once delivered) is made on node's injection VC vc.
  void made(int packet, int node, int vc, uint64_t now);
  // Input VC `input` (global index) asks for an output VC from cycle `now` on.
  void asks(int input, uint64_t now) { asked_[static_cast<size_t>(input)] = now; }
  // Input VC `input`, which the packet came in through input port `in_port`, is granted output VC
  // `output` (global index: (node x ports + port) x vcs + vc).
  void granted(int packet, int input, int in_port, int output, uint64_t now);
  // The packet's tail leaves a router: what it held upstream (`upstream`: that router's output VC, or
  // -1 when it came from the node's injection VC) is free again at `free_at`; `eject`: the ejection
  // output VC it left by (-1: it went on over a link), free again the next cycle.
  void tail_left(int packet, int upstream, int eject, uint64_t now, uint64_t free_at);

  // The VCs with any activity in the window: by node, its output VCs (port, vc), then its injection VCs.
  std::vector<VcActivity> activities() const;

 private:
  bool in_window(uint64_t cycle) const { return cycle >= from_ && cycle < to_; }
  void held(VcActivity& a, uint64_t granted, uint64_t free_at);
  struct PacketTrace {
    int injection = -1;   // node x vcs + vc
    uint16_t grants = 0;  // grants_ entries made (0: the injection's)
    uint16_t tails = 0;   // routers its tail has left
  };
  int ports_, vcs_;
  int max_grants_;
  uint64_t from_, to_;
  std::vector<VcActivity> outputs_, injections_;
  std::vector<uint64_t> asked_;  // by input VC
  std::vector<PacketTrace> packets_;
  std::vector<uint64_t> grants_;  // by packet x max_grants_: the cycle of each grant in route order
};

}  // namespace t3sim::core
