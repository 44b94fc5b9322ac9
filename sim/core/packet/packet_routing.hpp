// Where a packet goes next in the packet network: the output port of a router and the virtual channels
// it may take there. The escape route follows the machine's order (dimension order in
// torus.dimension_order, or direction order: every + hop before every - hop) in the minimal direction
// of each ring (a tie at k/2 by torus.tie_rule; balanced: a coin flip per packet, as BookSim's dor);
// network.dateline picks the half of the packet's virtual network's escape VCs along each ring. Under
// minimal_adaptive, `productive` also lists every port that brings the packet closer: the router may
// put it on the adaptive VC of one of them instead (packet_network.hpp).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "sim/core/packet/packet_config.hpp"

namespace t3sim::core {

// Router ports: 2 x dim + (0 for +, 1 for -) are the torus links (an input port is numbered by the
// direction its flits travel, so a flit leaving on output port p arrives on the neighbour's input
// port p); kTerminalPort is the node's injection (input) and ejection (output) channel.
constexpr int kTorusPorts = 6;
constexpr int kTerminalPort = 6;
constexpr int kRouterPorts = 7;

// What routing keeps of a packet.
struct PacketRoute {
  int src = 0;
  int dst = 0;
  int8_t half = 0;      // fixed and balanced datelines: the half on the ring it travels, set on entering it
  uint8_t network = 0;  // its virtual network: 0 requests, 1 replies (virtual_networks 2)
  uint8_t minus = 0;    // cray dateline: bit d set when it crosses dimension d in the - direction
  uint8_t halves = 0;   // cray dateline: bit d, its half on ring d where it need not cross the dateline
};

struct PacketHop {
  int out_port = kTerminalPort;
  int vc_begin = 0;  // the escape virtual channels it may take on out_port: [vc_begin, vc_end)
  int vc_end = 0;
  uint8_t productive = 0;  // adaptive routing: bit p set for every torus port p that brings it closer
};

class PacketRouting {
 public:
  explicit PacketRouting(const PacketConfig& config);
  // A new packet from node src: its directions and halves (cray dateline; draws from `coin`).
  void start(int src, PacketRoute& p, std::mt19937_64& coin) const;
  // The next hop at router `node` of a packet that came in on `in_port`.
  PacketHop next(int node, int in_port, PacketRoute& p, std::mt19937_64& coin) const;
  int neighbor(int node, int port) const { return neighbors_[static_cast<size_t>(node * kTorusPorts + port)]; }

 private:
  int coord(int node, int dim) const { return coords_[static_cast<size_t>(node * 3 + dim)]; }
  PacketHop booksim_next(int node, int in_port, PacketRoute& p, std::mt19937_64& coin) const;
  PacketHop cray_next(int node, PacketRoute& p) const;
  // The escape VCs of the packet's network and dateline half.
  void set_vcs(PacketHop& hop, const PacketRoute& p, int half) const;
  PacketConfig config_;
  std::vector<int> neighbors_;  // by node x 6 + port
  std::vector<int> coords_;     // by node x 3 + dimension (a table: routing a hop divides nothing)
};

}  // namespace t3sim::core
