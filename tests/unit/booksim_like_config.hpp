// BookSim2's router as the unit tests' packet network (and, below, a T3E-like one built on it): 4 VCs of 8 flits,
// 16-byte flits, a 4-cycle pipeline, wires of 2 cycles and terminal channels of 1 (docs/research/booksim-router.md).
#pragma once
#include "sim/core/packet/packet_config.hpp"

namespace t3sim::core {

inline PacketConfig booksim_like(Coord dims, int packet_flits) {
  PacketConfig c;
  c.dims = dims;
  c.cycle_s = 1e-9;
  c.flit_bytes = 16;
  c.packet_flits = packet_flits;
  c.header_flits = 0;
  c.vcs = 4;
  c.vc_buffer_flits = 8;
  c.pipeline_cycles = 4;
  c.wire_cycles = 2;
  c.terminal_cycles = 1;
  return c;
}

// The T3E's network as Dally and Towles describe it: direction order, the per-hop dateline, request and
// reply networks, and (adaptive) a fifth VC entered only when it can take the whole packet.
inline PacketConfig t3e_like(Coord dims, HopOrder order, bool adaptive) {
  PacketConfig c = booksim_like(dims, 10);
  c.header_flits = 2;
  c.flit_bytes = 8;
  c.order = order;
  c.adaptive = adaptive;
  c.dateline = Dateline::Cray;
  c.virtual_networks = 2;
  c.vcs = adaptive ? 5 : 4;
  c.vc_buffer_flits = 10;
  c.switching = Switching::CutThrough;
  c.pipeline_cycles = 3;
  c.wire_cycles = 1;
  c.tie_rule = TieRule::Balanced;
  return c;
}

}  // namespace t3sim::core
