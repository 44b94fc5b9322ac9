// The flow model's virtual-channel holding time (issue 32, third form): what a torus link can carry
// when each of its virtual channels holds one packet at a time and a packet holds its channel until
// it has the next one of its route.
//
// The physics (docs/model.md, VC holding time). Each class of a link (its virtual network, and the
// half of the escape channels the dateline puts a hop on) is one virtual channel of one packet's room:
// cut-through grants it only with room for a whole packet, so it passes one packet per holding time
// h_c (router cycles; V channels a class pass V packets). At zero load h_c = T0 (network.vc_hold_cycles: the packet's
// flits plus the credit's round trip and the allocation pipeline; the packet driver's lone VC passes one packet per
// 16.1 cycles). Under load the packet also waits at the far router for the next channel of its
// route, and holds this one meanwhile:
//     h_c = T0 + sum over the flows f in c of (f's bytes in c / c's bytes) x W(next class of f),
// the wait for a class x of holding time h_x and utilisation rho_x = (bytes/s in x) x h_x / P
// (P: payload bytes x router clock, the bytes/s of one packet a cycle) by Kingman's formula for a
// server of regular service fed by the router's input ports (a class of V channels taken as one
// server of service h_x / V),
//     W_x = rho_x / (1 - rho_x) x Ca2_x / 2 x h_x,   Ca2_x = 1 - sum over ports of (port's share of x)^2,
// bounded by a round-robin turn behind every other port that feeds it, h_x x (1 / sum share^2 - 1/2):
// a lone stream (Ca2 = 0) never waits, a saturated class makes each port wait a turn of the others.
// The ejection into a node is a class with h = the packet's flits (a node always sinks).
// A link then carries at most min(its bandwidth, min over its classes c of (P / h_c) x (link bytes /
// c's bytes)): the binding class saturates first, the others' traffic keeps its proportion.
//
// The holding times depend on the rates, which depend on the capacities: the transport re-solves
// with the capacities this gives, damped, a few rounds an instant (engine/solver_transport.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"

namespace t3sim::core {

class VcHolding {
 public:
  struct Params {
    double hold_cycles = 16.1;          // T0: router cycles one VC holds a packet at zero load
    double vcs_per_class = 1;           // V: virtual channels of one class of a link
    double packet_flits = 10;           // the ejection's service time (cycles a packet)
    double packet_bytes_per_s = 4.8e9;  // P: payload bytes of a packet x router clock
    double link_bandwidth = 480e6;      // bytes/s of payload a link carries
    int iterations = 30;                // rounds of the holding times' fixed point per update
  };
  // One torus hop of a flow: the link (Torus link id), the input port it arrives through at the
  // router that sends it on that link (0-5 a link's direction, 6 the node's injection), and the
  // fraction of its packets on the upper half of the escape channels (dateline).
  struct Hop {
    int link;
    int port;
    double upper;
  };
  VcHolding(int link_bound, int nodes, const Params& params);

  // Entry e's route: its hops in order, the input port it reaches its destination's router by, the
  // destination node, and its virtual network (0 requests, 1 replies). Kept until set again.
  void set_route(EntryId e, std::vector<Hop> hops, int eject_port, int eject_node, int network);

  // Each torus link's capacity (bytes/s, by Torus link id; the link bandwidth where nothing binds)
  // under the solver's current rates.
  const std::vector<double>& capacities(const FlowSolver& solver);
  // The links whose capacity the last capacities() may have moved (ascending): the others keep the
  // link bandwidth.
  const std::vector<int>& changed_links() const { return changed_links_; }
  // As of the last capacities(): a class's holding time in cycles (class = link x 4 + network x 2 + half).
  double hold(int cls) const { return hold_[static_cast<size_t>(cls)]; }

 private:
  struct Route {
    std::vector<Hop> hops;
    int eject_port = 6;
    int eject_node = -1;
    int network = 0;
  };
  int cls(int link, int network, int half) const { return link * 4 + network * 2 + half; }
  int eject_cls(int node) const { return link_bound_ * 4 + node; }
  double wait(int c) const;  // W of class c (or an ejection) at the current holding times
  // Where a flow's bytes (b bytes/s over route r) wait next: (class, the next class or the ejection,
  // bytes/s) for each consecutive pair of its hops, both halves of a hop that draws one, so each
  // round of the fixed point reads one flat list.
  void add_pairs(const Route& r, double b);

  int link_bound_;
  Params p_;
  std::vector<Route> routes_;                // by entry id
  std::vector<double> bytes_;                // by class and ejection: bytes/s
  std::vector<std::array<double, 7>> port_;  // by class and ejection: bytes/s by input port
  std::vector<double> ca2_;
  struct Pair {
    int from, to;  // a class and the next class (or ejection) its bytes wait for
    double bytes;  // bytes/s
  };
  std::vector<Pair> pairs_;
  std::vector<double> hold_, wait_, acc_;
  std::vector<double> link_bytes_;
  std::vector<double> capacity_;
  std::vector<int> used_;           // classes with traffic this update
  std::vector<int> links_;          // links with traffic this update
  std::vector<int> changed_links_;  // links with traffic now or at the last update
};

}  // namespace t3sim::core
