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
// The holding times depend on the rates, which depend on the capacities: the transport tells it each
// entry's load as the solver moves it, re-settles, and re-solves with the capacities this gives,
// damped, a few rounds an instant (engine/solver_transport.hpp). Everything is kept between calls and
// re-worked only where loads moved: a class's holding time is re-solved when its own load or the wait
// of a class its bytes go on to moved, and that moves the classes upstream of it in turn.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"

namespace t3sim::core {

class VcHolding {
 public:
  struct Params {
    double hold_cycles = 16.1;  // T0: router cycles one VC holds a packet at zero load
    double vcs_per_class = 1;   // V: virtual channels of one class of a link
    // R: whole packets one VC's buffer holds. A packet keeps its room downstream for its holding time, so
    // by Little's law a VC passes at most R packets per holding time (R = 1: the form as first built).
    double packets_per_vc = 1;
    double packet_flits = 10;           // the ejection's service time (cycles a packet)
    double packet_bytes_per_s = 4.8e9;  // P: payload bytes of a packet x router clock
    double link_bandwidth = 480e6;      // bytes/s of payload a link carries
    // A class's wait is passed upstream only when it moved by more than this fraction of the class's
    // holding time (the fixed point's tolerance).
    double tolerance = 1e-4;
  };
  // One torus hop of a flow: the link (Torus link id), the input port it arrives through at the
  // router that sends it on that link (0-5 a link's direction, 6 the node's injection), the
  // fraction of its packets on the upper half of the escape channels (dateline), and whether each
  // packet keeps the half it had on the hop before (a half drawn once for the ring: a packet's bytes
  // never cross between the halves mid-ring, which would close a cycle of waits the router has not).
  struct Hop {
    int link;
    int port;
    double upper;
    bool keeps_half = false;
  };
  VcHolding(int link_bound, int nodes, const Params& params);

  // Entry e's route: its hops in order, the input port it reaches its destination's router by, the
  // destination node, and its virtual network (0 requests, 1 replies). Kept until set again; setting
  // it drops the entry's load.
  void set_route(EntryId e, const std::vector<Hop>& hops, int eject_port, int eject_node, int network);
  // Entry e carries `bytes_per_s` (all its flows; 0 once it has none): its classes' loads move by
  // the difference from what it carried before.
  void set_load(EntryId e, double bytes_per_s);
  // Entry e has ended: its load goes and its route is forgotten (the id may come back as another
  // kind of entry, a disk's, that has none).
  void forget(EntryId e);

  // Re-settles the holding times where loads moved since the last call; returns the links whose
  // capacity changed (in the order first met).
  const std::vector<int>& settle();
  // A torus link's capacity (bytes/s; the link bandwidth where nothing binds) as of the last settle().
  double capacity(int link) const { return capacity_[static_cast<size_t>(link)]; }
  // As of the last settle(): a class's holding time in cycles (class = link x 4 + network x 2 + half).
  double hold(int cls) const { return hold_[static_cast<size_t>(cls)]; }
  // Class re-solves since construction (the work the incremental settle did).
  uint64_t resolves() const { return resolves_; }

 private:
  // What an entry's load falls on, worked out once from its route: classes (by input port), links,
  // and the class-to-next-class pairs its bytes wait at, each with the fraction of its bytes.
  struct Share {
    int index;  // class, link or pair slot
    int port;   // classes only
    double fraction;
  };
  struct Route {
    std::vector<Share> classes, pairs;
    std::vector<int> links;
    double load = 0;
  };
  // Class-to-next-class: the bytes/s of a class that wait for the next class (or an ejection).
  struct Slot {
    int from, to;
    double bytes = 0;
    int users = 0;
  };
  int cls(int link, int network, int half) const { return link * 4 + network * 2 + half; }
  int eject_cls(int node) const { return link_bound_ * 4 + node; }
  bool ejection(int c) const { return c >= link_bound_ * 4; }
  int slot(int from, int to);  // the pair's slot, made on first use
  void pairs_of(const std::vector<Hop>& hops, int network, int eject, std::vector<Share>& out);
  double wait(int c) const;  // W of class c (or an ejection) at its current holding time
  void mark(int c);
  void mark_link(int l);

  int link_bound_;
  Params p_;
  std::vector<Route> routes_;  // by entry id
  // By class (links x 4, then one ejection a node):
  std::vector<double> bytes_;                // bytes/s
  std::vector<std::array<double, 7>> port_;  // bytes/s by input port
  std::vector<int> users_;                   // entries loading it
  std::vector<double> hold_, wait_;
  std::vector<std::vector<int>> out_, in_;  // slots from it and into it
  std::vector<char> queued_;
  std::vector<int> queue_;
  std::vector<Slot> slots_;
  // By link:
  std::vector<double> link_bytes_;
  std::vector<int> link_users_;
  std::vector<double> capacity_;
  std::vector<char> link_marked_;
  std::vector<int> marked_links_;
  std::vector<int> changed_links_;
  uint64_t resolves_ = 0;
};

}  // namespace t3sim::core
