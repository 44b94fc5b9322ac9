#include "sim/core/packet/packet_transport.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

PacketTransport::PacketTransport(const CostModel& cost, uint64_t seed, int threads)
    : cost_(cost), network_(packet_config(cost.machine()), seed, true, threads) {
  // A PE's E-register rate paces its gets here too; the memory port is not modelled in packets
  // (docs/limitations.md).
  for (size_t k = 0; k < caps_.size(); ++k) {
    const FlowKind kind = static_cast<FlowKind>(k);
    const bool load = kind == FlowKind::GetData || kind == FlowKind::MessageData;
    caps_[k] = std::min(flow_cap(cost_.profile(), kind), load ? eregister_rate(cost_.machine().node) : INFINITY);
  }
}

void PacketTransport::after(double delay, Callback then) { calendar_.schedule_after(time_, delay, std::move(then)); }

void PacketTransport::after(double delay, Task then) { calendar_.schedule_after(time_, delay, then); }

int PacketTransport::pacer(int pe, FlowKind kind) {
  const double cap = caps_[static_cast<size_t>(kind)];
  if (!std::isfinite(cap)) return -1;
  std::vector<int>& pacers = kind == FlowKind::Put           ? put_pacers_
                             : kind == FlowKind::MessageData ? mpi_pacers_
                                                             : get_pacers_;
  if (pacers.size() <= static_cast<size_t>(pe)) pacers.resize(static_cast<size_t>(pe) + 1, -1);
  int& id = pacers[static_cast<size_t>(pe)];
  if (id < 0) id = network_.add_pacer(cap * network_.config().cycle_s);
  return id;
}

void PacketTransport::flow(int src, int dst, double bytes, FlowKind kind, Callback then) {
  flow(src, dst, bytes, kind, parked_.park(std::move(then)));
}

void PacketTransport::flow(int src, int dst, double bytes, FlowKind kind, Task then) {
  // A put's rate is its issuer's (the source); get data's is the initiator's (the destination).
  const int paced_pe = kind == FlowKind::Put ? src : dst;
  const JobPlacement& placement = cost_.placement();
  // Replies (get data, acknowledgements) on their own virtual network when the machine has one.
  const int network = network_.config().virtual_networks == 2 && travels_as_reply(kind) ? 1 : 0;
  const int id =
      network_.add_message(placement.node_of(src), placement.node_of(dst), bytes, pacer(paced_pe, kind), network);
  if (on_delivered_.size() <= static_cast<size_t>(id)) on_delivered_.resize(static_cast<size_t>(id) + 1);
  on_delivered_[static_cast<size_t>(id)] = then;
}

void PacketTransport::disk_io(int, double, bool, Callback) {
  throw ModelError("the packet driver has no disk model yet: run file I/O under the fast driver");
}

void PacketTransport::run() {
  const double cycle = network_.config().cycle_s;
  constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  bool skipped_to_now = false;  // the network's clock was moved up to time_'s cycle
  for (;;) {
    const uint64_t busy = network_.next_busy_cycle();
    const double net_time = busy == kNone ? INFINITY : static_cast<double>(busy) * cycle;
    if (calendar_.empty() && busy == kNone) {
      network_.check_stalled();  // flits left in routers with nothing due: a deadlock, named
      break;
    }
    if (!calendar_.empty() && calendar_.next_time() <= net_time) {
      // Nothing is due in the network before this instant: its clock may move up to the instant's cycle,
      // so that a message given now enters the cycle after it (worked out once per instant).
      if (calendar_.next_time() != time_ || !skipped_to_now) {
        time_ = calendar_.next_time();
        // Never past a cycle with work (busy): from about 4.5 M cycles on, the division's rounding can
        // exceed the slack, and a skipped cycle's events would come a wheel's turn late (a 2 MiB
        // broadcast on 512 PEs then lost a head flit at cycle 19,123,446 and stalled).
        const uint64_t at = static_cast<uint64_t>(std::ceil(time_ / cycle - 1e-9));
        network_.skip_to(std::min(at, busy));
        skipped_to_now = true;
      }
      calendar_.pop()();
      continue;
    }
    network_.skip_to(busy);
    time_ = static_cast<double>(busy) * cycle;
    skipped_to_now = false;
    // The cycle's deliveries are known once its arrivals are in: the interpreter reacts to them while
    // the network's other threads step its routers (its new messages enter from the next cycle on, as
    // they would after the whole step).
    network_.begin_step();
    // The callbacks first: a callback may start a flow, and the new message may reuse the id of one
    // delivered in this same cycle whose callback has not run yet.
    due_.clear();
    for (int message : network_.delivered()) due_.push_back(on_delivered_[static_cast<size_t>(message)]);
    try {
      for (const Task& then : due_) then();
      // Then the events up to the next cycle's instant, which come before it whatever the routers do
      // (the network's next busy cycle is at least the next one): the loop above would run them next,
      // each with the network's clock at the next cycle, as add_message() has it until end_step().
      const double next_cycle = static_cast<double>(busy + 1) * cycle;
      while (!calendar_.empty() && calendar_.next_time() <= next_cycle) {
        time_ = calendar_.next_time();
        calendar_.pop()();
      }
    } catch (...) {
      network_.end_step();  // (the other threads leave the routers before the error goes on)
      throw;
    }
    network_.end_step();
  }
  network_.finish();
}

void PacketTransport::record_vcs(double from_s, double to_s) {
  // Whole cycles inside [from_s, to_s); a window past the clock's range records to the end.
  const double cycle = network_.config().cycle_s;
  const auto cycles = [&](double t) {
    const double c = std::ceil(t / cycle - 1e-9);
    return c >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(std::max(0.0, c));
  };
  vc_from_ = cycles(from_s);
  vc_to_ = cycles(to_s);
  network_.record_vcs(vc_from_, vc_to_);
}

PacketMeasure PacketTransport::measure() {
  PacketMeasure m;
  m.vc_from = vc_from_;
  m.vc_to = vc_to_;
  m.cycles = network_.now();
  m.cycle_s = network_.config().cycle_s;
  m.stats = network_.stats();
  if (m.stats.packets_delivered > 0)
    m.mean_packet_latency_cycles = m.stats.latency_cycles_sum / static_cast<double>(m.stats.packets_delivered);
  // The window: whole periods after the warm-up, up to the first in which a source ran dry.
  const size_t periods = network_.periods();
  size_t end = kWarmupPeriods;
  while (end < periods && !network_.source_dry(end)) ++end;
  if (end <= kWarmupPeriods) return m;
  m.window_begin = kWarmupPeriods * PacketNetwork::kSamplePeriod;
  m.window_end = end * PacketNetwork::kSamplePeriod;
  const std::vector<int> sources = network_.sources();
  if (sources.empty()) return m;
  const double cycles = static_cast<double>(m.window_end - m.window_begin);
  double sum = 0;
  double least = INFINITY;
  for (int node : sources) {
    uint64_t flits = 0;
    for (size_t p = kWarmupPeriods; p < end; ++p) flits += network_.ejected(node, p);
    const double rate = static_cast<double>(flits) / cycles;
    sum += rate;
    least = std::min(least, rate);
  }
  m.accepted_flits_per_cycle = sum / static_cast<double>(sources.size());
  m.accepted_flits_per_cycle_min = least;
  return m;
}

}  // namespace t3sim::core
