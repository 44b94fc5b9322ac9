// A machine: torus, nodes, network and the software profiles (code-generation builds) of its SHMEM layer.
// All values in SI units (seconds, bytes, bytes/second, hertz). Meaning and source of every field:
// machine_params.cpp (the one declaration table that parses, validates and documents them).
#pragma once
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/machine/pe_to_node.hpp"
#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/routing/routing.hpp"
#include "sim/core/support/enum_names.hpp"
#include "sim/core/topology/torus.hpp"

namespace t3sim::core {

struct NodeParams {
  int pes_per_node = 1;
  double clock_hz = 0;         // processor clock
  double flops_per_cycle = 1;  // peak floating-point results per clock
  // What a node's transfers share besides its network interface (0: not modelled). memory_bandwidth
  // (bytes/s): the node's memory port, which every transfer leaving the node reads through and every
  // one arriving writes through, both ways together. eregisters (count of 8-byte registers) and
  // remote_round_trip (s): the registers a PE's gets hold from request to data, so by Little's law its
  // get data arrives at most at 8 x eregisters / remote_round_trip bytes/s, all its gets together.
  double memory_bandwidth = 0;
  int eregisters = 0;
  double remote_round_trip = 0;
};
// One E-register holds one 64-bit word (the Alpha's, and the T3E's remote access unit).
constexpr double kERegisterBytes = 8;

// The packet driver's switching (network.switching): wormhole allocates a downstream virtual channel
// to a packet when the channel is free; cut-through only when its buffer can also take the whole packet
// (a packet then never spans routers while blocked).
enum class Switching { CutThrough, Wormhole };
constexpr NameTable<Switching, 2> kSwitchingNames = {{Switching::CutThrough, "cut_through"},
                                                     {Switching::Wormhole, "wormhole"}};
constexpr const auto& name_table(Switching) { return kSwitchingNames; }
// The packet driver's switch allocation (network.switch_hold): flit, an input's grant lasts one cycle,
// so flits of packets on different virtual channels interleave on a link (BookSim's default); packet,
// the grant holds the input and output ports until the packet's tail has crossed (BookSim's
// hold_switch_for_packet), so a link carries one packet after another. With cut_through a held packet
// never waits mid-way, and the driver moves it as one event per hop.
enum class SwitchHold { Flit, Packet };
constexpr NameTable<SwitchHold, 2> kSwitchHoldNames = {{SwitchHold::Flit, "flit"}, {SwitchHold::Packet, "packet"}};
constexpr const auto& name_table(SwitchHold) { return kSwitchHoldNames; }
// The packet driver's arbitration (network.arbitration): how a router chooses among packets asking
// for one output virtual channel or one output port. round_robin: iSLIP's rotating pointers (BookSim's
// default): each input takes its turn, so at a chain of merges a stream that entered k merges upstream
// gets about 2^-k of the link (the parking lot). age: the packet made earliest wins (its age counts from
// the cycle its node injected it, waiting included), ties by the round-robin pointers; globally fair,
// as the age-based arbitration of SGI's SPIDER (Origin 2000) and Cray's SeaStar (XT3: Abts and Weisser,
// SC 2007), with the age kept exact (no age clock, no saturation).
enum class Arbitration { RoundRobin, Age };
constexpr NameTable<Arbitration, 2> kArbitrationNames = {{Arbitration::RoundRobin, "round_robin"},
                                                         {Arbitration::Age, "age"}};
constexpr const auto& name_table(Arbitration) { return kArbitrationNames; }
// The packet driver's torus deadlock rule (network.dateline): which half of a port's virtual channels
// a packet uses along a ring. fixed: the upper half when its path along the ring crosses the wrap
// from k-1 to 0, else the lower half; balanced: also a second dateline in the ring's middle that
// forces the lower half, and a packet crossing neither takes either half at random (Cray's partition,
// as BookSim's dim_order_bal_torus).
// cray: per hop, as Dally and Towles describe the T3E's: a packet whose path crosses the wrap k-1 -> 0
// takes the lower half before it and the upper half from the wrap hop on; a packet whose path does not
// cross takes either half, drawn once per packet and ring.
// cray_balanced: cray's rule for a path that crosses; one that does not takes a half fixed for its
// ring segment, chosen once to balance the halves' loads under uniform traffic (the routing tables'
// virtual channel balance of Scott and Thorson; core/packet/dateline_table.hpp).
// none: no deadlock avoidance, every escape VC on every hop (a what-if: rings may deadlock, and the
// packet driver then stops naming the cycle of virtual channels).
enum class Dateline { Fixed, Balanced, Cray, CrayBalanced, None };
constexpr NameTable<Dateline, 5> kDatelineNames = {{Dateline::Fixed, "fixed"},
                                                   {Dateline::Balanced, "balanced"},
                                                   {Dateline::Cray, "cray"},
                                                   {Dateline::CrayBalanced, "cray_balanced"},
                                                   {Dateline::None, "none"}};
// The T3E's rules (cray, cray_balanced): a half per hop from where the packet entered the ring.
inline bool cray_rules(Dateline d) { return d == Dateline::Cray || d == Dateline::CrayBalanced; }
constexpr const auto& name_table(Dateline) { return kDatelineNames; }

struct NetworkParams {
  double link_bandwidth = 0;           // payload bytes/s per direction of one torus link
  double router_delay = 0;             // s a packet header spends crossing one router
  double wire_delay = 0;               // s on one inter-router wire
  double nic_injection_bandwidth = 0;  // bytes/s from a node into its router
  double nic_ejection_bandwidth = 0;   // bytes/s from the router into a node
  double request_bytes = 0;            // bytes of a get request packet (header + address)
  // s: multipath routings only: how long a change of flows may leave rates elsewhere in the machine
  // at their old values before the exact max-min allocation is solved again (0: at once, always
  // exact). Numerical, not physical: engine/solver_transport.hpp.
  double settle_time = 10e-6;
  // The flow model only (fast driver): the fraction of a torus link's capacity lost per further stream
  // crossing it (a stream: the flows to one destination node); a link crossed by n streams carries at
  // most link_bandwidth / (1 + loss (n - 1)). What
  // the packet driver's routers lose where flows merge and max-min sharing does not (docs/model.md,
  // Contention in the flow model). 0: pure max-min.
  double contention_loss = 0;
  // The flow model only (fast driver, single-route routings): how far a link is shared between the
  // input ports feeding it rather than between flows, in [0, 1]: a flow's share at a saturated link
  // is the product over its path's links and ejection of (1 / feeding input ports)^port_fairness
  // (core/flow/port_shares.hpp). 1: round-robin between ports, the packet driver's switch; 0: max-min.
  double port_fairness = 0;
  // The flow model only (fast driver, single-route routings): router cycles one virtual channel holds a
  // packet at zero load (its flits, the credit's round trip, the allocation pipeline); > 0 turns on the
  // holding-time form (core/flow/vc_holding.hpp): each class of a link passes one packet per holding
  // time, which grows with the wait for the next channel of the route. 0: off.
  double vc_hold_cycles = 0;
  // The packet driver only (sim/core/packet): flits, packets, virtual channels, router pipeline.
  double flit_bytes = 8;        // bytes a link moves per router cycle per direction
  double router_clock = 0;      // Hz of the router cycle; 0: link_bandwidth / flit_bytes
  double packet_flits = 10;     // flits of a full packet, header included
  double header_flits = 2;      // of those, flits without payload (routing, address, control)
  double virtual_channels = 4;  // per input port
  double vc_buffer_flits = 8;   // flits of each input virtual channel's buffer
  double terminal_delay = 0;    // s on a node's injection or ejection channel (at least one cycle)
  double virtual_networks = 1;  // 2: requests and replies on separate VCs (the escape VCs split in two)
  Switching switching = Switching::Wormhole;
  SwitchHold switch_hold = SwitchHold::Flit;
  Dateline dateline = Dateline::Fixed;
  Arbitration arbitration = Arbitration::RoundRobin;
};

// I/O: file servers at torus positions, each with disks (object storage targets), and the costs of a
// compute node's forwarded file calls (sim/core/run/file_io.hpp has the model; docs/research/io-model.md
// its sources). Scalars here; the servers' positions in MachineSpec::io_nodes.
struct IoParams {
  double disks_per_node = 1;         // disks (OSTs) behind each I/O node
  double disk_write_bandwidth = 0;   // bytes/s one disk sustains writing, shared by the requests on it
  double disk_read_bandwidth = 0;    // bytes/s reading
  double service_time = 0;           // s a disk's server thread is busy per request besides the data
  double server_threads = 1;         // requests a disk's server has in service at once (the rest queue, FIFO)
  double forwarding_overhead = 0;    // s of the calling PE's own time per forwarded call (RPC set-up)
  double stripe_size = 1048576;      // bytes of a file dealt to one disk before the next
  double stripe_count = 1;           // disks a file is striped over
  double runtime_buffer = 65536;     // bytes the language runtime gathers before a synchronous call (buffering none)
  double buffer_copy_bandwidth = 0;  // bytes/s of a record's copy into an I/O buffer
  double iobuf_size = 1048576;       // bytes of one buffer of the buffering library (buffering iobuf)
  double iobuf_count = 4;            // buffers per file; a writer waits only when all are being written
  double nodes_in_service = 0;       // I/O nodes serving files: the first N of MachineSpec::io_nodes; 0: all
};

// Per-call costs of the SHMEM library as one build of the program sees them.
struct SoftwareProfile {
  std::string name;
  std::string doc;
  double call_overhead = 0;            // s: entering and leaving a shmem call, any target
  double local_overhead = 0;           // s: extra set-up when the target is the calling PE (the library's copy path)
  double copy_bandwidth = 0;           // bytes/s: a get from the PE's own memory is a memory copy at this rate
  double get_bandwidth = 0;            // bytes/s: rate at which the initiator pulls remote data
  double put_bandwidth = 0;            // bytes/s: rate at which the initiator pushes remote data
  double barrier_latency = 0;          // s: from the last PE arriving to all PEs leaving a barrier
  double sync_overhead = 0;            // s: a shmem_fence or shmem_quiet call's own cost, beyond any wait
  double message_overhead = 0;         // s: per message of PSTSWM's message layer over SHMEM (the swap patterns)
  double eager_threshold = 0;          // bytes: largest message the message layer sends eagerly (else rendezvous)
  double mpi_queue_bytes = 0;          // bytes: largest message sent as one hardware message into a queue; 0: none
  double mpi_send_overhead = 0;        // s: software cost of one MPI send (isend) call of the message layer
  double mpi_recv_overhead = 0;        // s: software cost of one MPI receive (irecv) call: matching, queues
  double mpi_collective_overhead = 0;  // s: software cost of entering one MPI collective call, once per PE
  double mpi_bandwidth = 0;            // bytes/s: the PE's rate of pulling rendezvous data through MPI; 0: none
  double outstanding_puts = 0;  // most non-blocking puts a PE has unacknowledged; a further one waits; 0: no limit
};

// The range a parameter may lie in (param_ranges.hpp): [low, high] in SI units, and where it comes
// from ("assumed: ..." with the file's reason, or "fit: ..." from calibrate's bootstrap).
struct ParamRange {
  double low = 0;
  double high = 0;
  std::string why;
  // A named parameter's (network.arbitration: `{choices: [round_robin, age]}`): the values it may take;
  // low and high are then the first and last one's index, and a sample is an index.
  std::vector<std::string> choices;
};

// Residuals of the last `t3sim calibrate` fit of a profile (written back by calibrate).
struct FitRecord {
  bool present = false;
  std::string suite;
  int points = 0;
  double rms_rel_error = 0;
  double max_rel_error = 0;
  int bootstrap = 0;                         // resamples behind `ranges` (0: none)
  std::map<std::string, ParamRange> ranges;  // by profile key: the fitted values' 5-95% spread
};

// A profile's own values under the packet driver (software.profiles.NAME.packet_driver): the calibrated
// parameters `t3sim calibrate --driver packet` re-fitted with every run under packets (the packet network's
// latency has another composition than the flow model's, which the per-call and per-message costs fitted
// under flows absorbed), and that fit's record. Used by runs under the packet driver only
// (use_packet_driver_values, param_ranges.hpp).
struct PacketDriverValues {
  std::map<std::string, double> values;  // profile key -> SI value
  FitRecord fit;
};

struct MachineSpec {
  std::string name;
  std::string doc;
  Coord dims{1, 1, 1};
  Coord dimension_order{0, 1, 2};
  TieRule tie_rule = TieRule::Plus;
  RoutingKind routing = RoutingKind::DimensionOrder;
  // minimal_adaptive: how many rounds of moves polish the splits after each re-balancing (each flow
  // moves a share of itself at most once a round; torus.adaptive_moves; 0: no re-balancing, each flow
  // keeps the route it chose at injection).
  int adaptive_moves = 4;
  // Directed torus links out of service (sorted, no duplicates): torus.failed_links and --fail.
  std::vector<LinkId> failed_links;
  // Router positions that hold PEs: node ids 0 .. populated_nodes-1; the rest route traffic but hold
  // no PE (unpopulated, or serving the system). 0 means every position.
  int populated_nodes = 0;
  NodeParams node;
  NetworkParams network;
  // I/O nodes (machine file `io.nodes`): torus node ids of positions that hold no PE; empty: no I/O.
  std::vector<int> io_nodes;
  IoParams io;
  std::string default_profile;
  std::vector<SoftwareProfile> profiles;
  std::map<std::string, FitRecord> fits;                    // by profile name
  std::map<std::string, PacketDriverValues> packet_driver;  // by profile name (a derived machine keeps its base's)
  std::map<std::string, std::string> provenance;            // key path -> source
  std::map<std::string, ParamRange> uncertainty;            // key path -> range (param_ranges.hpp)
  // Key path -> what set it over its base's value: a derived machine file's name, or "--param" (a run's
  // override, a study's axis). Such a value has its base's range and source no more, only its own.
  std::map<std::string, std::string> set_by;

  Torus torus() const { return Torus(dims); }
  // The deterministic route order of the routing (direction order for direction_order, else dimension
  // order: the minimal routings' single-route view, used by nothing that shares bandwidth).
  OrderedRoutes ordered_routes() const {
    return OrderedRoutes(torus(), dimension_order, tie_rule,
                         routing == RoutingKind::DirectionOrder ? HopOrder::Direction : HopOrder::Dimension);
  }
  PeToNode placement() const {
    return PeToNode(node.pes_per_node, populated_nodes > 0 ? populated_nodes : torus().node_count());
  }
  int pe_count() const { return placement().pe_count(); }
  bool has_io() const { return !io_nodes.empty(); }
  // I/O nodes serving files (io.nodes_in_service, else every one listed) and their disks.
  int io_node_count() const {
    const int listed = static_cast<int>(io_nodes.size());
    return io.nodes_in_service > 0 ? std::min(listed, static_cast<int>(io.nodes_in_service)) : listed;
  }
  int disk_count() const { return io_node_count() * static_cast<int>(io.disks_per_node); }
  // Why the node section's values contradict each other (the key to blame and the reason), or nullopt.
  std::optional<std::pair<std::string, std::string>> node_inconsistency() const;
  // Why the io section's values contradict each other (the key to blame and the reason), or nullopt.
  std::optional<std::pair<std::string, std::string>> io_inconsistency() const;
  // Either of the two.
  std::optional<std::pair<std::string, std::string>> inconsistency() const {
    if (auto n = node_inconsistency()) return n;
    return io_inconsistency();
  }
  // The named profile, or the default one when name is empty; nullptr when there is none.
  const SoftwareProfile* find_profile(const std::string& name) const;
};

// The machine's routing (torus.routing) over its failed links.
inline std::unique_ptr<Routing> make_routing(const MachineSpec& machine) {
  return make_routing(machine.routing, machine.ordered_routes(), machine.failed_links);
}

}  // namespace t3sim::core
