// BookSim2's router as the unit tests' packet network: 4 VCs of 8 flits, 16-byte flits, a 4-cycle
// pipeline, wires of 2 cycles and terminal channels of 1 (docs/research/booksim-router.md).
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

}  // namespace t3sim::core
