// Where a packet goes next in the packet network: the output port of a router and the virtual channels
// it may take there. Dimension order (the machine's torus.dimension_order), minimal direction per ring
// (a tie at k/2 by torus.tie_rule; balanced: a coin flip per packet, as BookSim's dor), and the
// dateline rule of network.dateline choosing the half of the virtual channels along each ring.
#pragma once
#include <cstdint>
#include <random>

#include "sim/core/packet/packet_config.hpp"

namespace t3sim::core {

// Router ports: 2 x dim + (0 for +, 1 for -) are the torus links (an input port is numbered by the
// direction its flits travel, so a flit leaving on output port p arrives on the neighbour's input
// port p); kTerminalPort is the node's injection (input) and ejection (output) channel.
constexpr int kTorusPorts = 6;
constexpr int kTerminalPort = 6;
constexpr int kRouterPorts = 7;

struct PacketHop {
  int out_port = kTerminalPort;
  int vc_begin = 0;  // the virtual channels it may take on out_port: [vc_begin, vc_end)
  int vc_end = 0;
};

class PacketRouting {
 public:
  explicit PacketRouting(const PacketConfig& config);
  // The next hop at router `node` of a packet for node `dst` that came in on `in_port`. `half` is the
  // packet's dateline half on the ring it travels: set when it turns into a ring, kept along it.
  PacketHop next(int node, int in_port, int dst, int8_t& half, std::mt19937_64& coin) const;
  int neighbor(int node, int port) const { return neighbors_[static_cast<size_t>(node * kTorusPorts + port)]; }

 private:
  int coord(int node, int dim) const;
  PacketConfig config_;
  std::vector<int> neighbors_;  // by node x 6 + port
};

}  // namespace t3sim::core
