#include "sim/core/packet/packet_config.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/machine/enum_params.hpp"
#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

namespace {

// Whole cycles of `seconds` (nearest), at least `least`: a delay shorter than a cycle still takes one.
int cycles_of(double seconds, double cycle_s, int least) {
  return std::max(least, static_cast<int>(std::lround(seconds / cycle_s)));
}

}  // namespace

int PacketConfig::flits_for(double bytes) const {
  return std::max(1, header_flits + static_cast<int>(std::ceil(bytes / flit_bytes - 1e-9)));
}

int64_t PacketConfig::packets_for(double bytes) const {
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(bytes / payload_bytes() - 1e-9)));
}

PacketConfig packet_config(const MachineSpec& machine) {
  const NetworkParams& n = machine.network;
  if (machine.routing == RoutingKind::MinimalOblivious)
    throw ModelError("the packet driver routes dimension_order, direction_order and minimal_adaptive; machine '" +
                     machine.name + "' routes minimal_oblivious (a fluid split over routes): use the fast driver");
  if (machine.routing != RoutingKind::DimensionOrder && !cray_rules(n.dateline) && n.dateline != Dateline::None)
    throw ModelError(
        std::string("torus.routing ") + enum_name(machine.routing) +
        " needs network.dateline: cray or cray_balanced under the packet driver (the fixed and balanced rules are "
        "BookSim's, for dimension order)");
  if (!machine.failed_links.empty())
    throw ModelError("the packet driver has no route around failed links yet: use the fast driver");
  if (n.header_flits >= n.packet_flits)
    throw ModelError("network.header_flits must be less than network.packet_flits (a packet needs payload room)");
  PacketConfig c;
  c.dims = machine.dims;
  c.dimension_order = machine.dimension_order;
  c.tie_rule = machine.tie_rule;
  c.dateline = n.dateline;
  c.switching = n.switching;
  c.arbitration = n.arbitration;
  if (const auto wrong = enum_param_inconsistency(machine)) throw ModelError(wrong->first + ": " + wrong->second);
  c.hold_switch = n.switch_hold == SwitchHold::Packet;
  c.whole_packet_events = c.hold_switch;
  c.flit_bytes = static_cast<int>(n.flit_bytes);
  c.cycle_s = n.router_clock > 0 ? 1 / n.router_clock : n.flit_bytes / n.link_bandwidth;
  c.packet_flits = static_cast<int>(n.packet_flits);
  c.header_flits = static_cast<int>(n.header_flits);
  c.order = machine.routing == RoutingKind::DirectionOrder ? HopOrder::Direction : HopOrder::Dimension;
  c.adaptive = machine.routing == RoutingKind::MinimalAdaptive;
  c.virtual_networks = static_cast<int>(n.virtual_networks);
  c.vcs = static_cast<int>(n.virtual_channels) + (c.adaptive ? 1 : 0);
  c.vc_buffer_flits = static_cast<int>(n.vc_buffer_flits);
  // Three stages at least: route, virtual-channel allocation, switch allocation with the crossbar.
  c.pipeline_cycles = cycles_of(n.router_delay, c.cycle_s, 3);
  c.wire_cycles = cycles_of(n.wire_delay, c.cycle_s, 1);
  c.terminal_cycles = cycles_of(n.terminal_delay, c.cycle_s, 1);
  if (c.escape_vcs() % (2 * c.virtual_networks) != 0)
    throw ModelError(
        "network.virtual_channels must be a multiple of 2 x network.virtual_networks under the packet "
        "driver (each virtual network's VCs are halved by the dateline): " +
        std::to_string(c.escape_vcs()) + " for " + std::to_string(c.virtual_networks));
  if (c.switching == Switching::CutThrough && c.vc_buffer_flits < c.packet_flits)
    throw ModelError("cut_through switching needs network.vc_buffer_flits >= network.packet_flits (" +
                     std::to_string(c.vc_buffer_flits) + " < " + std::to_string(c.packet_flits) +
                     "): a channel must hold a whole packet");
  return c;
}

}  // namespace t3sim::core
