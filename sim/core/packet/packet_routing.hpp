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

#include "sim/core/packet/dateline_table.hpp"
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
  uint8_t minus = 0;    // cray datelines: bit d set when it crosses dimension d in the - direction
  uint8_t halves = 0;   // cray datelines: bit d, its half on ring d where it need not cross the dateline
  // BookSim's rules: its coin flips, drawn when it is made (so a hop's choice does not depend on the
  // order in which routers are visited): bit d a tie's direction on ring d, bit 3 + d its half on ring
  // d where the rule draws one.
  uint8_t coins = 0;
};

struct PacketHop {   // (16 bytes: returned in registers)
  uint64_t vcs = 0;  // the escape virtual channels it may take on out_port (bit vc)
  uint8_t out_port = kTerminalPort;
  uint8_t productive = 0;  // adaptive routing: bit p set for every torus port p that brings it closer
};

class PacketRouting {
 public:
  explicit PacketRouting(const PacketConfig& config);
  // A new packet from node src: its directions and halves (cray: draws from `coin`; cray_balanced: its
  // route's, from the table, drawing only a tie's direction under tie_rule balanced). BookSim's
  // datelines choose at each turn, by the coins drawn here (when its rules flip any).
  void start(int src, PacketRoute& p, std::mt19937_64& coin) const {
    if (!booksim_)
      cray_start(src, p, coin);
    else if (booksim_draws_)
      p.coins = static_cast<uint8_t>(coin() & 63);
  }
  // Whether start() may draw from its coin (BookSim's rules where they flip one; the T3E's cray datelines,
  // or a tie under tie_rule balanced): the packets must then be made in one order for the same draws.
  bool draws() const {
    return booksim_ ? booksim_draws_
                    : config_.dateline != Dateline::CrayBalanced || config_.tie_rule == TieRule::Balanced;
  }
  // The next hop at router `node` of a packet that came in on `in_port` (draws nothing: a packet's
  // route depends on its own coins, not on the order in which packets are routed).
  PacketHop next(int node, int in_port, PacketRoute& p) const {
    if (!booksim_) return cray_next(node, p);
    // BookSim's dimension order, here (no call) but for a turn onto a new ring: the first ring in the
    // order on which it is not yet at its destination's coordinate.
    const uint64_t differ = ordered_[static_cast<size_t>(node)] ^ ordered_[static_cast<size_t>(p.dst)];
    PacketHop hop;
    if (differ == 0) {  // arrived: any virtual channel of the ejection channel
      hop.vcs = all_vcs_;
      return hop;
    }
    const int dim = config_.dimension_order[static_cast<size_t>(__builtin_ctzll(differ) / 16)];
    if (in_port / 2 == dim) {  // along the ring it is on: same direction, same half (terminal / 2 is no dimension)
      hop.out_port = static_cast<uint8_t>(in_port);
      hop.vcs = escape_vcs(p, p.half);
      return hop;
    }
    return booksim_turn(dim, coord(node, dim), coord(p.dst, dim), p);
  }
  int neighbor(int node, int port) const { return neighbors_[static_cast<size_t>(node * kTorusPorts + port)]; }
  const int* neighbors(int node) const { return &neighbors_[static_cast<size_t>(node * kTorusPorts)]; }  // by port

 private:
  int coord(int node, int dim) const { return coords_[static_cast<size_t>(node * 3 + dim)]; }
  // BookSim's rules: the hop onto ring `dim` from coordinate cur towards to (its direction and half),
  // from turns_ (taking the packet's coin for this ring where the rule flips one).
  PacketHop booksim_turn(int dim, int cur, int to, PacketRoute& p) const {
    const unsigned turn = turns_[dim][static_cast<size_t>(cur * config_.dims[dim] + to)];
    unsigned dir = turn & 3;
    if (dir == kDraw) dir = (p.coins >> dim) & 1u;
    unsigned half = (turn >> (2 + 2 * dir)) & 3;
    if (half == kDraw) half = (p.coins >> (3 + dim)) & 1u;
    p.half = static_cast<int8_t>(half);
    PacketHop hop;
    hop.out_port = static_cast<uint8_t>(2 * dim + static_cast<int>(dir));
    hop.vcs = escape_vcs(p, static_cast<int>(half));
    return hop;
  }
  // BookSim's rules worked out once per ring, coordinate and destination coordinate (what booksim_turn
  // reads): bits 0-1 the direction (0 +, 1 -, kDraw a coin flip), bits 2-3 the half going +, bits 4-5
  // going - (0, 1, kDraw).
  static constexpr unsigned kDraw = 2;
  uint8_t booksim_turn_code(int dim, int cur, int to) const;
  void cray_start(int src, PacketRoute& p, std::mt19937_64& coin) const;
  PacketHop cray_next(int node, PacketRoute& p) const;
  // The escape VCs of the packet's network and dateline half.
  uint64_t escape_vcs(const PacketRoute& p, int half) const { return escape_vcs_[p.network * 2 + half]; }
  PacketConfig config_;
  bool booksim_ = false;           // BookSim's datelines (fixed, balanced), else the T3E's rules (cray_next)
  bool booksim_draws_ = false;     // BookSim's rules flip a coin somewhere (a tie, a balanced half)
  DatelineTable table_;            // cray_balanced: each ring segment's half
  uint64_t escape_vcs_[4] = {};    // by network x 2 + dateline half: the escape VCs (a table: no division)
  uint64_t all_vcs_ = 0;           // every VC (the ejection channel's)
  std::vector<int> neighbors_;     // by node x 6 + port
  std::vector<int> coords_;        // by node x 3 + dimension (a table: routing a hop divides nothing)
  std::vector<uint64_t> ordered_;  // by node: its coordinates in dimension_order, 16 bits each from the lowest
  std::vector<uint8_t> turns_[3];  // BookSim's datelines: by dimension, cur x k + to (booksim_turn_code)
};

}  // namespace t3sim::core
