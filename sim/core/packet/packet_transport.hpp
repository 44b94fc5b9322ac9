// The packet transport: the one PE interpreter's flows carried as packets through the packet network
// (packet_network.hpp), on a clock of its own (no SimGrid): the interpreter's delays on an event
// calendar in seconds, the network in router cycles between them; cycles in which nothing is due are
// skipped. A flow is a message of packets from its source node to its destination node; it ends when
// its last flit reaches the destination. Its latency is the packets' own (routers, wires, queues), so
// the interpreter adds none (times_latency). A flow's PE rate cap (transport.hpp's flow_cap: a PE's
// put and get rates, shared by all its transfers) paces the injection of its packets.
#pragma once
#include <array>
#include <limits>
#include <memory>
#include <vector>

#include "sim/core/packet/packet_network.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/transport.hpp"
#include "sim/core/support/callback_slots.hpp"
#include "sim/core/support/event_calendar.hpp"
#include "sim/core/support/task.hpp"

namespace t3sim::core {

// What a packet run measured, BookSim's way: flits accepted per node per cycle over the sample periods
// after the warm-up in which every source was backlogged (had a packet waiting at every cycle).
struct PacketMeasure {
  uint64_t cycles = 0;        // the run's cycles
  double cycle_s = 0;         // one cycle, s
  uint64_t window_begin = 0;  // measured window [begin, end) in cycles; empty: none measured
  uint64_t window_end = 0;
  double accepted_flits_per_cycle = std::numeric_limits<double>::quiet_NaN();      // mean over sources
  double accepted_flits_per_cycle_min = std::numeric_limits<double>::quiet_NaN();  // the slowest source's
  double mean_packet_latency_cycles = std::numeric_limits<double>::quiet_NaN();    // message arrival to last flit
  PacketNetwork::Stats stats;
  uint64_t vc_from = 0, vc_to = 0;  // cycles: the window record_vcs was given (empty: none)
};

class PacketTransport : public Transport {
 public:
  // Warm-up sample periods before measuring (BookSim's default of 3).
  static constexpr size_t kWarmupPeriods = 3;

  // threads: the network's router step's (packet_network.hpp: the same cycles for any number).
  explicit PacketTransport(const CostModel& cost, uint64_t seed = 1, int threads = 1);
  double now() const override { return time_; }
  void after(double delay, Callback then) override;
  void after(double delay, Task then) override;
  void flow(int src, int dst, double bytes, FlowKind kind, Callback then) override;
  void flow(int src, int dst, double bytes, FlowKind kind, Task then) override;
  void disk_io(int disk, double bytes, bool write, Callback then) override;
  bool times_latency() const override { return true; }
  // With a reply network (network.virtual_networks 2) a put's acknowledgement is a reply packet.
  bool acknowledges_with_packets() const override { return network_.config().virtual_networks == 2; }

  // Records what each virtual channel does from `from_s` to `to_s` (s; network().vc_activities()).
  void record_vcs(double from_s, double to_s);
  // Runs every event and cycle until none is left.
  void run();
  PacketMeasure measure();
  const PacketNetwork& network() const { return network_; }

 private:
  static constexpr size_t kFlowKinds = static_cast<size_t>(FlowKind::Ack) + 1;  // Ack is the last kind
  int pacer(int pe, FlowKind kind);

  const CostModel& cost_;
  PacketNetwork network_;
  EventCalendar calendar_;
  std::vector<Task> on_delivered_;  // by the network's message id (ids are reused once delivered)
  std::vector<Task> due_;           // run(): the tasks of the messages delivered in one cycle
  CallbackSlots parked_;            // flows' std::function callbacks, run as tasks
  std::vector<int> put_pacers_, get_pacers_, mpi_pacers_;  // by PE; -1 until made
  std::array<double, kFlowKinds> caps_;                    // by FlowKind: the PE rate that paces it (bytes/s)
  double time_ = 0;
  uint64_t vc_from_ = 0, vc_to_ = 0;
};

}  // namespace t3sim::core
