#include "sim/core/packet/packet_routing.hpp"

#include "sim/core/packet/dateline_half.hpp"

namespace t3sim::core {

namespace {

// (a - b) mod k for coordinates a, b in [0, k).
int ring_distance(int a, int b, int k) {
  const int d = a - b;
  return d < 0 ? d + k : d;
}

}  // namespace

PacketRouting::PacketRouting(const PacketConfig& config) : config_(config) {
  booksim_ = !cray_rules(config.dateline) && config.dateline != Dateline::None;
  if (config.dateline == Dateline::CrayBalanced) table_ = DatelineTable(config.dims, config.tie_rule);
  const int n = config.nodes();
  neighbors_.resize(static_cast<size_t>(n * kTorusPorts));
  coords_.resize(static_cast<size_t>(n * 3));
  for (int node = 0; node < n; ++node) {
    coords_[static_cast<size_t>(node * 3)] = node % config.dims[0];
    coords_[static_cast<size_t>(node * 3 + 1)] = (node / config.dims[0]) % config.dims[1];
    coords_[static_cast<size_t>(node * 3 + 2)] = node / (config.dims[0] * config.dims[1]);
  }
  ordered_.resize(static_cast<size_t>(n));
  for (int node = 0; node < n; ++node)
    for (int i = 0; i < 3; ++i)
      ordered_[static_cast<size_t>(node)] |= static_cast<uint64_t>(coord(node, config.dimension_order[i])) << (16 * i);
  const auto bits_between = [](int begin, int end) {  // bits begin up to end (exclusive; at most 64)
    const uint64_t below_end = end >= 64 ? ~uint64_t{0} : (uint64_t{1} << end) - 1;
    return below_end & ~((uint64_t{1} << begin) - 1);
  };
  all_vcs_ = bits_between(0, config.vcs);
  const int per_network = config.escape_vcs() / config.virtual_networks;
  for (int network = 0; network < config.virtual_networks; ++network)
    for (int half = 0; half < 2; ++half) {
      int begin = network * per_network, end = begin + per_network;  // no deadlock avoidance: any VC of its network
      if (config.dateline != Dateline::None) {
        const int per_half = per_network / 2;
        begin += half * per_half;
        end = begin + per_half;
      }
      escape_vcs_[network * 2 + half] = bits_between(begin, end);
    }
  for (int node = 0; node < n; ++node)
    for (int dim = 0; dim < 3; ++dim) {
      const int k = config.dims[dim];
      const int stride = dim == 0 ? 1 : dim == 1 ? config.dims[0] : config.dims[0] * config.dims[1];
      const int c = coord(node, dim);
      neighbors_[static_cast<size_t>(node * kTorusPorts + 2 * dim)] = node + ((c + 1) % k - c) * stride;
      neighbors_[static_cast<size_t>(node * kTorusPorts + 2 * dim + 1)] = node + ((c + k - 1) % k - c) * stride;
    }
  if (booksim_)
    for (int dim = 0; dim < 3; ++dim) {
      const int k = config.dims[dim];
      turns_[dim].resize(static_cast<size_t>(k * k));
      for (int cur = 0; cur < k; ++cur)
        for (int to = 0; to < k; ++to) {
          const uint8_t code = booksim_turn_code(dim, cur, to);
          turns_[dim][static_cast<size_t>(cur * k + to)] = code;
          for (int field = 0; field < 3; ++field) booksim_draws_ |= ((code >> (2 * field)) & 3) == kDraw;
        }
    }
}

void PacketRouting::cray_start(int src, PacketRoute& p, std::mt19937_64& coin) const {
  // The direction of each ring, fixed for the whole route (the T3E's three header bits): direction
  // order and the dateline both rest on a packet never turning back along a ring.
  p.minus = 0;
  for (int dim = 0; dim < 3; ++dim) {
    const int k = config_.dims[dim];
    const int plus = ring_distance(coord(p.dst, dim), coord(src, dim), k);
    const int minus = (k - plus) % k;
    bool go_minus = false;
    if (plus != 0 && plus != minus)
      go_minus = minus < plus;
    else if (plus != 0)
      go_minus = config_.tie_rule == TieRule::Minus || (config_.tie_rule == TieRule::Balanced && (coin() & 1));
    if (go_minus) p.minus |= static_cast<uint8_t>(1 << dim);
  }
  if (config_.dateline != Dateline::CrayBalanced) {
    p.halves = static_cast<uint8_t>(coin() & 7);
    return;
  }
  p.halves = 0;  // the route's own half on each ring it does not cross the wrap of (the routing tables')
  for (int dim = 0; dim < 3; ++dim)
    p.halves |= static_cast<uint8_t>(table_.half(dim, coord(src, dim), coord(p.dst, dim), p.minus & (1 << dim)) << dim);
}

PacketHop PacketRouting::cray_next(int node, PacketRoute& p) const {
  PacketHop hop;
  int remaining[3];
  for (int dim = 0; dim < 3; ++dim) {
    const int k = config_.dims[dim];
    const int cur = coord(node, dim), to = coord(p.dst, dim);
    const bool minus = p.minus & (1 << dim);
    remaining[dim] = minus ? ring_distance(cur, to, k) : ring_distance(to, cur, k);
    if (remaining[dim] > 0) hop.productive |= static_cast<uint8_t>(1 << (2 * dim + (minus ? 1 : 0)));
  }
  int dim = -1;  // the escape route's next ring
  for (int pass = 0; pass < (config_.order == HopOrder::Direction ? 2 : 1) && dim < 0; ++pass)
    for (int i = 0; i < 3 && dim < 0; ++i) {
      const int d = config_.dimension_order[i];
      const bool minus = p.minus & (1 << d);
      if (remaining[d] > 0 && (config_.order == HopOrder::Dimension || minus == (pass == 1))) dim = d;
    }
  if (dim < 0) {  // arrived: any virtual channel of the ejection channel
    hop.out_port = kTerminalPort;
    hop.vcs = all_vcs_;
    hop.productive = 0;
    return hop;
  }
  const int k = config_.dims[dim];
  const int cur = coord(node, dim), to = coord(p.dst, dim);
  const bool minus = p.minus & (1 << dim);
  // The T3E's dateline rule; a path that never crosses takes the packet's half for this ring (drawn, or
  // its route's: cray_start).
  const DatelineHalf rule = cray_half(k, coord(p.src, dim), cur, to, minus);
  const int half = rule == DatelineHalf::Draw ? (p.halves >> dim) & 1 : static_cast<int>(rule);
  hop.out_port = static_cast<uint8_t>(2 * dim + (minus ? 1 : 0));
  hop.vcs = escape_vcs(p, half);
  return hop;
}

uint8_t PacketRouting::booksim_turn_code(int dim, int cur, int to) const {
  const int k = config_.dims[dim];
  unsigned dir;  // 0: +, 1: -
  const int plus = ring_distance(to, cur, k);
  const int minus = k - plus;
  if (plus != minus)
    dir = plus < minus ? 0 : 1;
  else
    dir = config_.tie_rule == TieRule::Plus ? 0 : config_.tie_rule == TieRule::Minus ? 1 : kDraw;
  unsigned code = dir;
  for (unsigned d = 0; d < 2; ++d) {  // the half of the virtual channels on this ring going d
    const DatelineHalf rule = booksim_half(config_.dateline == Dateline::Balanced, k, cur, to, d == 1);
    const unsigned half = rule == DatelineHalf::Draw ? kDraw : static_cast<unsigned>(rule);
    code |= half << (2 + 2 * d);
  }
  return static_cast<uint8_t>(code);
}

}  // namespace t3sim::core
