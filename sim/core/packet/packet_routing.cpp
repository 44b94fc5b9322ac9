#include "sim/core/packet/packet_routing.hpp"

namespace t3sim::core {

PacketRouting::PacketRouting(const PacketConfig& config) : config_(config) {
  const int n = config.nodes();
  neighbors_.resize(static_cast<size_t>(n * kTorusPorts));
  for (int node = 0; node < n; ++node)
    for (int dim = 0; dim < 3; ++dim) {
      const int k = config.dims[dim];
      const int stride = dim == 0 ? 1 : dim == 1 ? config.dims[0] : config.dims[0] * config.dims[1];
      const int c = coord(node, dim);
      neighbors_[static_cast<size_t>(node * kTorusPorts + 2 * dim)] = node + ((c + 1) % k - c) * stride;
      neighbors_[static_cast<size_t>(node * kTorusPorts + 2 * dim + 1)] = node + ((c + k - 1) % k - c) * stride;
    }
}

int PacketRouting::coord(int node, int dim) const {
  if (dim == 0) return node % config_.dims[0];
  if (dim == 1) return (node / config_.dims[0]) % config_.dims[1];
  return node / (config_.dims[0] * config_.dims[1]);
}

PacketHop PacketRouting::next(int node, int in_port, int dst, int8_t& half, std::mt19937_64& coin) const {
  PacketHop hop;
  const int vcs = config_.vcs;
  for (int i = 0; i < 3; ++i) {
    const int dim = config_.dimension_order[i];
    const int cur = coord(node, dim);
    const int to = coord(dst, dim);
    if (cur == to) continue;
    const int k = config_.dims[dim];
    int dir;  // 0: +, 1: -
    if (in_port < kTorusPorts && in_port / 2 == dim) {
      dir = in_port % 2;  // along the ring it is on: same direction, same half
    } else {
      const int plus = ((to - cur) % k + k) % k;
      const int minus = k - plus;
      if (plus != minus)
        dir = plus < minus ? 0 : 1;
      else
        dir = config_.tie_rule == TieRule::Plus    ? 0
              : config_.tie_rule == TieRule::Minus ? 1
                                                   : static_cast<int>(coin() & 1);
      // The half of the virtual channels on this ring: the wrap k-1 -> 0 is the dateline.
      const bool wraps = dir == 0 ? cur > to : cur < to;
      if (config_.dateline == Dateline::Fixed) {
        half = wraps ? 1 : 0;
      } else {
        const int mid = (k - 1) / 2;  // a second dateline between mid and mid + 1
        const bool crosses_mid = dir == 0 ? cur <= mid && to > mid : cur > mid && to <= mid;
        half = wraps ? 1 : crosses_mid ? 0 : static_cast<int8_t>(coin() & 1);
      }
    }
    hop.out_port = 2 * dim + dir;
    hop.vc_begin = half == 0 ? 0 : vcs / 2;
    hop.vc_end = half == 0 ? vcs / 2 : vcs;
    return hop;
  }
  hop.out_port = kTerminalPort;  // arrived: any virtual channel of the ejection channel
  hop.vc_begin = 0;
  hop.vc_end = vcs;
  return hop;
}

}  // namespace t3sim::core
