// The packet network's parameters in router cycles, derived from a machine (MachineSpec::network):
// the one place the packet driver turns seconds and bytes into cycles and flits. What each means
// physically, its unit and its source are in machine_params.cpp (network.flit_bytes ...) and
// docs/model.md (Packet network).
#pragma once
#include <cstdint>

#include "sim/core/machine/machine_spec.hpp"

namespace t3sim::core {

struct PacketConfig {
  Coord dims{1, 1, 1};
  Coord dimension_order{0, 1, 2};
  TieRule tie_rule = TieRule::Plus;
  Dateline dateline = Dateline::Fixed;
  Switching switching = Switching::Wormhole;
  Arbitration arbitration = Arbitration::RoundRobin;  // network.arbitration
  // network.switch_hold: packet. A grant holds the input and output ports until the tail has crossed.
  bool hold_switch = false;
  // With hold_switch under cut-through: each packet crosses a hop as one event (its flits follow each
  // other one a cycle, so the flit-by-flit run would give the same cycles; packet_network.hpp says where
  // it differs). Tests turn it off to compare with the flit-by-flit run.
  bool whole_packet_events = false;
  HopOrder order = HopOrder::Dimension;  // the escape route: dimension order, or every + hop before every - hop
  bool adaptive = false;     // one adaptive VC more (the last), on any productive port, if it holds the whole packet
  int virtual_networks = 1;  // 2: requests and replies on separate escape VCs
  double cycle_s = 0;        // one router cycle: a link moves one flit per cycle per direction
  int flit_bytes = 8;        // bytes of one flit
  int packet_flits = 1;      // flits of a full packet, header included
  int header_flits = 0;      // of those, flits that carry no payload
  int vcs = 4;               // virtual channels per input port, the adaptive one included
  int vc_buffer_flits = 8;   // flits each input VC buffers
  int pipeline_cycles = 4;   // a head flit's cycles through an idle router (route, VC and switch allocation, crossbar)
  int wire_cycles = 2;       // cycles on an inter-router wire (flits and credits)
  int terminal_cycles = 1;   // cycles on a node's injection or ejection channel
  int nodes() const { return dims[0] * dims[1] * dims[2]; }
  int escape_vcs() const { return vcs - (adaptive ? 1 : 0); }
  int adaptive_vc() const { return vcs - 1; }
  int payload_bytes() const { return (packet_flits - header_flits) * flit_bytes; }
  // Flits of a packet carrying `bytes` of payload (0: a header-only packet, at least one flit).
  int flits_for(double bytes) const;
  // Packets of a message of `bytes` (at least one: an acknowledgement or a request is one packet).
  int64_t packets_for(double bytes) const;
};

// The packet network of `machine`. Throws ModelError for what the packet driver cannot carry (a routing
// it does not implement, failed links, a packet with no payload room).
PacketConfig packet_config(const MachineSpec& machine);

}  // namespace t3sim::core
