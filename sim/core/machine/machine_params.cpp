#include "sim/core/machine/machine_params.hpp"

namespace t3sim::core {

template <class Section>
std::optional<std::string> range_violation(const ParamDecl<Section>& d, double value) {
  if (d.min_exclusive ? !(value > d.min) : !(value >= d.min))
    return std::string("must be ") + (d.min_exclusive ? "> " : ">= ") + format_quantity(d.min, d.quantity);
  if (value > d.max) return "must be <= " + format_quantity(d.max, d.quantity);
  return std::nullopt;
}
template std::optional<std::string> range_violation(const ParamDecl<NodeParams>&, double);
template std::optional<std::string> range_violation(const ParamDecl<NetworkParams>&, double);
template std::optional<std::string> range_violation(const ParamDecl<SoftwareProfile>&, double);
template std::optional<std::string> range_violation(const ParamDecl<IoParams>&, double);

#define T3SIM_FIELD(Section, member) \
  [](Section& s, double v) { s.member = v; }, [](const Section& s) { return static_cast<double>(s.member); }

const std::vector<ParamDecl<NodeParams>>& node_params() {
  static const std::vector<ParamDecl<NodeParams>> decls = {
      {"pes_per_node", Quantity::Count, std::nullopt, 1, false, 8,
       "processing elements per node; they share the node's one network interface", std::nullopt,
       [](NodeParams& s, double v) { s.pes_per_node = static_cast<int>(v); },
       [](const NodeParams& s) { return static_cast<double>(s.pes_per_node); }},
      {"clock", Quantity::Frequency, std::nullopt, 0, true, 1e11,
       "processor clock; compute given in flops runs at clock x flops_per_cycle", std::nullopt,
       T3SIM_FIELD(NodeParams, clock_hz)},
      {"flops_per_cycle", Quantity::Ratio, std::string("1"), 0, true, 64, "peak floating-point results per clock",
       std::nullopt, T3SIM_FIELD(NodeParams, flops_per_cycle)},
      {"memory_bandwidth", Quantity::Bandwidth, std::string("0B/s"), 0, false, 1e13,
       "flow drivers: the node's memory port, shared by every transfer leaving the node (it reads there) and "
       "arriving (it writes there), both ways together; 0: not modelled (only the interfaces and the PEs' rates "
       "limit a node's traffic)",
       std::nullopt, T3SIM_FIELD(NodeParams, memory_bandwidth)},
      {"eregisters", Quantity::Count, std::string("0"), 0, false, 1e6,
       "flow drivers: the 8-byte registers a PE's remote loads go through (the T3E's user E-registers); a get "
       "holds them from its request to its data, so a PE's get data arrives at most at 8 x eregisters / "
       "remote_round_trip (Little's law), all its gets together; 0: not modelled",
       std::nullopt, [](NodeParams& s, double v) { s.eregisters = static_cast<int>(v); },
       [](const NodeParams& s) { return static_cast<double>(s.eregisters); }},
      {"remote_round_trip", Quantity::Time, std::string("0s"), 0, false, 1e-3,
       "flow drivers, with eregisters: the time a remote load holds its register, from its request leaving to "
       "its data arriving",
       std::nullopt, T3SIM_FIELD(NodeParams, remote_round_trip)},
  };
  return decls;
}

const std::vector<ParamDecl<NetworkParams>>& network_params() {
  static const std::vector<ParamDecl<NetworkParams>> decls = {
      {"link_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "payload rate of one torus link in one direction", std::nullopt, T3SIM_FIELD(NetworkParams, link_bandwidth)},
      {"router_delay", Quantity::Time, std::nullopt, 0, false, 1e-3,
       "time a packet header takes through one router (source and destination routers included)", std::nullopt,
       T3SIM_FIELD(NetworkParams, router_delay)},
      {"wire_delay", Quantity::Time, std::string("0ns"), 0, false, 1e-3, "time of flight on one inter-router wire",
       std::nullopt, T3SIM_FIELD(NetworkParams, wire_delay)},
      {"nic_injection_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "rate from a node into its router; shared by the node's PEs", std::nullopt,
       T3SIM_FIELD(NetworkParams, nic_injection_bandwidth)},
      {"nic_ejection_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "rate from the router into a node; shared by the node's PEs", std::nullopt,
       T3SIM_FIELD(NetworkParams, nic_ejection_bandwidth)},
      {"request_bytes", Quantity::Size, std::string("16B"), 1, false, 4096,
       "size on the wire of a get request (header and remote address)", std::nullopt,
       T3SIM_FIELD(NetworkParams, request_bytes)},
      {"settle_time", Quantity::Time, std::string("10us"), 0, false, 1e-1,
       "minimal_oblivious and minimal_adaptive only (fast driver): after flows start or end, the rates of the "
       "flows sharing a link with them are solved at once and the rest of the machine, where one change moves "
       "rates across every coupled flow, at most this much later; 0: exact max-min at every change (the "
       "single-route routings always are). A numerical setting: its cost and effect are in docs/performance.md (Settle "
       "time)",
       std::nullopt, T3SIM_FIELD(NetworkParams, settle_time), ReadBy::FlowModel},
      {"contention_loss", Quantity::Ratio, std::string("0"), 0, false, 10,
       "fast driver: the fraction of a torus link's capacity lost per further stream crossing it (a stream: the "
       "flows to one destination node; n streams share at most link_bandwidth / (1 + contention_loss x (n - 1))): "
       "what routers lose to arbitration, virtual channels "
       "and head-of-line blocking where flows merge, which max-min sharing does not; how it compares with the packet "
       "driver: docs/model.md (Contention in the flow model); 0: pure max-min",
       FitRange{0.2, 0, 2}, T3SIM_FIELD(NetworkParams, contention_loss), ReadBy::FlowModel},
      {"port_fairness", Quantity::Ratio, std::string("0"), 0, false, 1,
       "fast driver, single-route routings: how far a torus link or a node's ejection is shared between the "
       "router's input ports feeding it rather than between flows (its switch serves ports in turn): where flows "
       "meet at a saturated link their rates are in proportion to their shares, each the product over the "
       "flow's links and ejection of (1 / input ports feeding there)^port_fairness; 1: round-robin between "
       "ports, as the packet driver's switch allocation; 0: max-min between flows",
       FitRange{0.5, 0, 1}, T3SIM_FIELD(NetworkParams, port_fairness), ReadBy::FlowModel},
      {"vc_hold_cycles", Quantity::Ratio, std::string("0"), 0, false, 1000,
       "fast driver, single-route routings: router cycles a virtual channel holds a packet at zero load (its "
       "flits, the credit's round trip, the allocation pipeline); each class of a link (virtual network, "
       "dateline half) then passes one packet per holding time, which grows by the wait for the next channel "
       "of the route (docs/model.md, VC holding time); 0: off",
       FitRange{16, 10, 40}, T3SIM_FIELD(NetworkParams, vc_hold_cycles), ReadBy::FlowModel},
      {"flit_bytes", Quantity::Size, std::string("8B"), 1, false, 4096,
       "packet driver: bytes one link moves per router cycle in one direction (a flit)", std::nullopt,
       T3SIM_FIELD(NetworkParams, flit_bytes), ReadBy::PacketRouter},
      {"router_clock", Quantity::Frequency, std::string("0Hz"), 0, false, 1e11,
       "packet driver: the router's cycle rate, one flit per link per cycle; 0: link_bandwidth / flit_bytes (a "
       "link's flit rate is then its payload rate, and headers cost extra time)",
       std::nullopt, T3SIM_FIELD(NetworkParams, router_clock), ReadBy::PacketRouter},
      {"packet_flits", Quantity::Count, std::string("10"), 1, false, 1024,
       "packet driver: flits of a full packet, header flits included; a message is cut into packets of "
       "(packet_flits - header_flits) x flit_bytes of payload",
       std::nullopt, T3SIM_FIELD(NetworkParams, packet_flits), ReadBy::PacketRouter},
      {"header_flits", Quantity::Count, std::string("2"), 0, false, 1023,
       "packet driver: flits of each packet that carry no payload (route, address, control)", std::nullopt,
       T3SIM_FIELD(NetworkParams, header_flits), ReadBy::PacketRouter},
      {"virtual_channels", Quantity::Count, std::string("4"), 2, false, 63,
       "packet driver: the escape virtual channels per router input port, split between the virtual networks "
       "and, in each, into the dateline's two halves; minimal_adaptive routing adds one adaptive VC to them",
       std::nullopt, T3SIM_FIELD(NetworkParams, virtual_channels), ReadBy::PacketRouter},
      {"vc_buffer_flits", Quantity::Count, std::string("8"), 1, false, 4096,
       "packet driver: flits each input virtual channel buffers (credit-based flow control)", std::nullopt,
       T3SIM_FIELD(NetworkParams, vc_buffer_flits), ReadBy::PacketRouter},
      {"virtual_networks", Quantity::Count, std::string("1"), 1, false, 2,
       "packet driver: 2 puts the requests (puts, get requests) and the replies (get data, acknowledgements, which "
       "then travel as packets) on separate virtual channels, as the T3E did; 1: one network, acknowledgements take "
       "the flow model's latency",
       std::nullopt, T3SIM_FIELD(NetworkParams, virtual_networks), ReadBy::PacketRouter},
      {"terminal_delay", Quantity::Time, std::string("0ns"), 0, false, 1e-3,
       "packet driver: time on a node's injection or ejection channel (at least one router cycle)", std::nullopt,
       T3SIM_FIELD(NetworkParams, terminal_delay), ReadBy::PacketRouter},
  };
  return decls;
}

const std::vector<ParamDecl<SoftwareProfile>>& profile_params() {
  static const std::vector<ParamDecl<SoftwareProfile>> decls = {
      {"call_overhead", Quantity::Time, std::nullopt, 0, false, 1e-2,
       "software time to enter and leave one shmem call (timer reads of the measuring program included)",
       FitRange{5e-6, 1e-8, 1e-3}, T3SIM_FIELD(SoftwareProfile, call_overhead)},
      {"local_overhead", Quantity::Time, std::nullopt, 0, false, 1e-2,
       "extra set-up when the target is the calling PE: the library's memory-copy path (alignment, start-up)",
       FitRange{1e-6, 1e-9, 1e-3}, T3SIM_FIELD(SoftwareProfile, local_overhead)},
      {"copy_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "rate of a get from the PE's own memory, done as a memory-to-memory copy by the processor",
       FitRange{100e6, 1e6, 1e10}, T3SIM_FIELD(SoftwareProfile, copy_bandwidth)},
      {"get_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "rate at which the initiating PE pulls remote data (issue-limited remote loads); the network may cap it lower",
       FitRange{50e6, 1e6, 1e10}, T3SIM_FIELD(SoftwareProfile, get_bandwidth)},
      {"put_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "rate at which the initiating PE pushes remote data; the network may cap it lower", FitRange{50e6, 1e6, 1e10},
       T3SIM_FIELD(SoftwareProfile, put_bandwidth)},
      {"message_overhead", Quantity::Time, std::string("0us"), 0, false, 1e-2,
       "software cost per message of PSTSWM's message layer built on SHMEM (the swap patterns; matching, "
       "bookkeeping); MPI calls pay mpi_send_overhead and mpi_recv_overhead instead",
       FitRange{2e-6, 1e-9, 1e-3}, T3SIM_FIELD(SoftwareProfile, message_overhead)},
      {"mpi_send_overhead", Quantity::Time, std::string("0us"), 0, false, 1e-2,
       "software cost of one MPI send call (blocking or isend) beyond the SHMEM calls it makes: building the "
       "envelope, the library's queues",
       std::nullopt, T3SIM_FIELD(SoftwareProfile, mpi_send_overhead)},
      {"mpi_recv_overhead", Quantity::Time, std::string("0us"), 0, false, 1e-2,
       "software cost of one MPI receive call (blocking or irecv) beyond the SHMEM calls it makes: matching the "
       "envelope, the library's queues",
       FitRange{3e-6, 1e-9, 1e-3}, T3SIM_FIELD(SoftwareProfile, mpi_recv_overhead)},
      {"mpi_collective_overhead", Quantity::Time, std::string("0us"), 0, false, 1e-2,
       "software cost of entering one MPI collective call (barrier aside), once per PE, before its messages: "
       "argument checks, the communicator's and the operation's look-ups, the tree's set-up",
       FitRange{2e-6, 1e-9, 1e-3}, T3SIM_FIELD(SoftwareProfile, mpi_collective_overhead)},
      {"mpi_bandwidth", Quantity::Bandwidth, std::string("0B/s"), 0, false, 1e13,
       "rate at which a PE's MPI library pulls rendezvous data, over all its messages in flight (its get loop); "
       "it draws on the PE's get rate too. 0: no limit of its own (the get rate alone)",
       std::nullopt, T3SIM_FIELD(SoftwareProfile, mpi_bandwidth)},
      {"outstanding_puts", Quantity::Count, std::string("0"), 0, false, 1e6,
       "most non-blocking puts a PE has in flight (issued, not yet acknowledged); a further put waits for an "
       "acknowledgement before it is issued, as a T3E PE waits for a free E-register. 0: no limit",
       std::nullopt, T3SIM_FIELD(SoftwareProfile, outstanding_puts)},
      {"eager_threshold", Quantity::Size, std::string("0B"), 0, false, 1073741824.0,
       "largest message the message layer sends eagerly (put into a buffer at the receiver, copied out by the "
       "receive); larger ones go by rendezvous (the receiver pulls with a get). 0: no buffering, as Cray MPT's "
       "MPI on the T3E-900 from 1.3.0.4 (MPI_BUFFER_MAX unset)",
       std::nullopt, T3SIM_FIELD(SoftwareProfile, eager_threshold)},
      // At most the 64-byte hardware message less a one-word envelope (message_layer.hpp:
      // kHardwareMessageBytes - kMinEnvelopeBytes; a unit test holds the two equal).
      {"mpi_queue_bytes", Quantity::Size, std::string("0B"), 0, false, 56,
       "largest message the message layer sends as one T3E hardware message: a 64-byte block of 8 E-registers "
       "(envelope and data together) put into a message queue at the receiver, whose arrival is its notice; the "
       "receive copies the data out. The rest of the block is the envelope, so at most 56 B (one 8-byte word of "
       "envelope). Before eager_threshold; never a synchronous send's. 0: no queue path, as Cray MPT before "
       "1.3.0.5 and every machine without E-register message queues",
       std::nullopt, T3SIM_FIELD(SoftwareProfile, mpi_queue_bytes)},
      {"sync_overhead", Quantity::Time, std::string("0us"), 0, false, 1e-2,
       "software cost of one shmem_fence or shmem_quiet call beyond the wait for outstanding puts (reading "
       "the interface's completion status); a signalled put (put, fence, flag put) pays it once",
       std::nullopt, T3SIM_FIELD(SoftwareProfile, sync_overhead)},
      {"barrier_latency", Quantity::Time, std::nullopt, 0, false, 1e-1,
       "time from the last PE entering a barrier to every PE leaving it", std::nullopt,
       T3SIM_FIELD(SoftwareProfile, barrier_latency)},
  };
  return decls;
}

const std::vector<ParamDecl<IoParams>>& io_params() {
  static const std::vector<ParamDecl<IoParams>> decls = {
      {"disks_per_node", Quantity::Count, std::string("1"), 1, false, 64,
       "disks (object storage targets) behind each I/O node; disk d of node i is disk i x disks_per_node + d",
       std::nullopt, T3SIM_FIELD(IoParams, disks_per_node)},
      {"disk_write_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e12,
       "rate one disk sustains writing, shared (max-min) by every request in service on it", std::nullopt,
       T3SIM_FIELD(IoParams, disk_write_bandwidth)},
      {"disk_read_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e12,
       "rate one disk sustains reading, shared by every request in service on it", std::nullopt,
       T3SIM_FIELD(IoParams, disk_read_bandwidth)},
      {"service_time", Quantity::Time, std::nullopt, 0, false, 1,
       "time a disk's server thread spends per request besides the data (RPC handling, locks, seek)", std::nullopt,
       T3SIM_FIELD(IoParams, service_time)},
      {"server_threads", Quantity::Count, std::string("1"), 1, false, 4096,
       "requests a disk's server has in service at once, each holding a thread for its service time and its "
       "data's time on the disk (the disk's bandwidth shared among them); the rest wait first come, first served",
       std::nullopt, T3SIM_FIELD(IoParams, server_threads)},
      {"forwarding_overhead", Quantity::Time, std::nullopt, 0, false, 1e-2,
       "the calling PE's own time per forwarded file call (building the RPC, posting it), before its request "
       "crosses the torus",
       std::nullopt, T3SIM_FIELD(IoParams, forwarding_overhead)},
      {"stripe_size", Quantity::Size, std::string("1MiB"), 1, false, 1073741824.0,
       "bytes of a file dealt to one disk before the next (round robin over stripe_count disks)", std::nullopt,
       T3SIM_FIELD(IoParams, stripe_size)},
      {"stripe_count", Quantity::Count, std::string("1"), 1, false, 4096,
       "disks a file is striped over; file f (numbered in order of first use) starts at disk f x stripe_count",
       std::nullopt, T3SIM_FIELD(IoParams, stripe_count)},
      {"runtime_buffer", Quantity::Size, std::string("64KiB"), 1, false, 1073741824.0,
       "buffering none: bytes the language runtime gathers before one synchronous forwarded write (a full "
       "buffer, or what is left at close)",
       std::nullopt, T3SIM_FIELD(IoParams, runtime_buffer)},
      {"buffer_copy_bandwidth", Quantity::Bandwidth, std::nullopt, 0, true, 1e13,
       "rate of a record's copy into an I/O buffer (the runtime's or the buffering library's)", std::nullopt,
       T3SIM_FIELD(IoParams, buffer_copy_bandwidth)},
      {"iobuf_size", Quantity::Size, std::string("1MiB"), 1, false, 1073741824.0,
       "buffering iobuf: bytes of one buffer; a full buffer is written asynchronously", std::nullopt,
       T3SIM_FIELD(IoParams, iobuf_size)},
      {"iobuf_count", Quantity::Count, std::string("4"), 1, false, 1024,
       "buffering iobuf: buffers per open file; the writer waits only when every buffer is being written", std::nullopt,
       T3SIM_FIELD(IoParams, iobuf_count)},
      {"nodes_in_service", Quantity::Count, std::string("0"), 0, false, 4096,
       "I/O nodes serving files: the first N of io.nodes (a partition's share of them, or a what-if with fewer), "
       "their disks the only ones files are dealt over; 0: every one listed",
       std::nullopt, T3SIM_FIELD(IoParams, nodes_in_service)},
  };
  return decls;
}

#undef T3SIM_FIELD

const std::vector<KeyDoc>& machine_structure_keys() {
  static const std::vector<KeyDoc> keys = {
      {"schema_version", "integer", "must be 1"},
      {"base", "path (optional)", "another machine file this one derives from: every key not given here is the base's"},
      {"name", "string", "machine name used in reports"},
      {"doc", "string", "what machine this is (optional)"},
      {"torus.dims", "list of 3 integers >= 1", "router positions along x, y, z"},
      {"torus.dimension_order", "list of x|y|z, a permutation", "order in which routes correct dimensions"},
      {"torus.tie_rule", enum_names_text<TieRule>("|"),
       "direction taken at ring distance exactly k/2; balanced: + from an even coordinate along that "
       "dimension, - from an odd one (half the k/2 pairs each way)"},
      {"torus.routing", enum_names_text<RoutingKind>("|") + " (optional)",
       "how packets choose their links; default dimension_order. dimension_order: one route, dimensions in "
       "torus.dimension_order (the T3D's). direction_order: one route, every + hop before every - hop, "
       "+x +y +z -x -y -z (the T3E's deterministic escape order: Dally & Towles, Principles and Practices of "
       "Interconnection Networks, 2004, sec. 14.6). minimal_oblivious: each flow spread evenly over all its "
       "shortest routes (both ways at k/2), a link carrying the fraction of them that crosses it; routes "
       "around failed links. minimal_adaptive: each flow over up to 4 shortest routes with shares that follow "
       "the load, re-balanced whenever the flows settle (filled again over the routes, then moved towards the "
       "point where no flow is held by a link while another shortest route offers it 1% more) (the "
       "T3E's fully adaptive minimal routing: Scott and Thorson, The Cray T3E Network, HOT Interconnects IV, "
       "1996); fast driver only; routes around failed links"},
      {"torus.adaptive_moves", "integer 0..1000 (optional)",
       "minimal_adaptive: rounds of moves (a share of each flow to another route) after each re-balancing of "
       "the splits; default 4; 0: no re-balancing, each flow keeps the route it chose at injection (cheapest; "
       "measured costs in docs/performance.md)"},
      {"torus.failed_links", "list of link names (optional)",
       "links out of service: nN.D+ / nN.D- one way (as `route` prints), nN.D the cable to the + neighbour "
       "both ways, nN the whole router; only the minimal routings route around them"},
      {"torus.populated_nodes", "integer (optional)", "positions 0..n-1 hold PEs; the rest only route; default all"},
      {"network.switching", enum_names_text<Switching>("|") + " (optional)",
       "packet driver: wormhole (default) gives a packet the next router's virtual channel as soon as no other "
       "packet holds it; cut_through only when that channel's buffer can also take the whole packet"},
      {"network.switch_hold", enum_names_text<SwitchHold>("|") + " (optional)",
       "packet driver: flit (default): each cycle's switch allocation is afresh, so flits of packets on "
       "different virtual channels interleave on a link (BookSim's default); packet: a grant holds the input "
       "and output ports until the packet's tail has crossed (BookSim's hold_switch_for_packet), so a link "
       "carries one packet after another; needs switching: cut_through, and then each packet moves as one "
       "event per hop (about packet_flits times fewer events)"},
      {"network.dateline", enum_names_text<Dateline>("|") + " (optional)",
       "packet driver, the torus deadlock rule: fixed (default): along each ring a packet whose path crosses the "
       "wrap from k-1 to 0 uses the upper half of the virtual channels, the others the lower half; balanced: "
       "a second dateline mid-ring forces the lower half, and a packet crossing neither picks a half at random "
       "(Cray's partition; BookSim's dim_order_bal_torus); cray: per hop, the T3E's as Dally and Towles describe "
       "it: the wrap hop and those after it take the upper half, hops before a crossing the lower, a packet that "
       "does not cross either half (drawn per packet and ring); cray_balanced: the same, but a path that does not "
       "cross takes a half fixed for its ring segment, chosen once so that uniform traffic loads the two halves "
       "of every link as evenly as it can (the routing tables' virtual channel balance of Scott and Thorson, "
       "PCRCW 1994; core/packet/dateline_table.hpp); none: no deadlock avoidance, every VC on every hop (a "
       "what-if: the run stops with the cycle of VCs if rings deadlock). Under the packet driver a balanced tie_rule "
       "is a "
       "coin flip per packet (BookSim's rule; the same half-and-half split on average)"},
      {"network.arbitration", enum_names_text<Arbitration>("|") + " (optional)",
       "packet driver: how a router chooses among packets asking for one output virtual channel or port: "
       "round_robin (default): iSLIP's rotating pointers, each input in turn (BookSim's), so a stream merged "
       "k times upstream keeps about 2^-k of a saturated link; age: the packet its node injected earliest "
       "wins, ties in turn (the globally fair age-based arbitration of SGI's SPIDER and Cray's SeaStar, with "
       "exact ages). What the T3E's router did is not published (docs/research/t3e-arbitration.md)"},
      {"io", "map (optional)", "I/O nodes and their disks; keys io.* below; without it the machine has no file I/O"},
      {"io.nodes", "list of [x, y, z] positions",
       "I/O nodes: torus positions that hold no PE (past torus.populated_nodes); their links carry the I/O "
       "traffic"},
      {"software.default_profile", "string", "profile used when --profile is not given"},
      {"software.scale_with_clock", "list of profile time keys", "with a base: scale these by base clock / clock"},
      {"software.profiles.NAME", "map", "one code-generation build of the SHMEM layer; keys below, plus doc"},
      {"software.profiles.NAME.fit", "map",
       "written by `t3sim calibrate`: suite, points, rms_rel_error, max_rel_error"},
      {"software.profiles.NAME.packet_driver", "map",
       "written by `t3sim calibrate --driver packet`: calibrated KEYs' own values under the packet driver, and "
       "their fit; runs under --driver packet use them (a derived machine keeps its base's, scaled with its profiles)"},
      {"provenance", "map key-path -> string", "source of every value in the file, or 'calibrated: ...'"},
  };
  return keys;
}

std::optional<std::pair<std::string, std::string>> MachineSpec::node_inconsistency() const {
  if (node.eregisters > 0 && !(node.remote_round_trip > 0))
    return std::make_pair(std::string("node.eregisters"),
                          "needs node.remote_round_trip > 0 (how long a get holds its registers)");
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> MachineSpec::io_inconsistency() const {
  if (!has_io()) return std::nullopt;
  if (io.nodes_in_service > static_cast<double>(io_nodes.size()))
    return std::make_pair(std::string("io.nodes_in_service"), "puts more I/O nodes in service than io.nodes lists (" +
                                                                  std::to_string(io_nodes.size()) + ")");
  if (io.stripe_count > disk_count())
    return std::make_pair(std::string("io.stripe_count"), "stripes over more disks than the machine has in service (" +
                                                              std::to_string(disk_count()) + ")");
  return std::nullopt;
}

const SoftwareProfile* MachineSpec::find_profile(const std::string& wanted) const {
  const std::string& key = wanted.empty() ? default_profile : wanted;
  for (const auto& p : profiles)
    if (p.name == key) return &p;
  return nullptr;
}

}  // namespace t3sim::core
