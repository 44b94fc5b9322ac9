#include "sim/core/packet/packet_network.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>

#include "sim/core/packet/arbiter_picks.hpp"
#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

namespace {

constexpr int kMaxRouterVcs = kRouterPorts * 64;                        // network.virtual_channels is at most 64
constexpr int kUnlimitedCredits = std::numeric_limits<int>::max() / 2;  // the ejection channel's: a node always sinks

uint64_t bit(int i) { return uint64_t{1} << i; }

}  // namespace

thread_local PacketNetwork::Pass PacketNetwork::pass_;

PacketNetwork::PacketNetwork(const PacketConfig& config, uint64_t seed, bool index_waiting_vcs, int threads)
    : config_(config), routing_(config), coin_(seed) {
  const int n = config.nodes();
  const int v = config.vcs;
  vcs_per_router_ = kRouterPorts * v;
  inputs_.resize(static_cast<size_t>(n * vcs_per_router_));
  buffers_.resize(inputs_.size() * static_cast<size_t>(config.vc_buffer_flits));
  outputs_.resize(inputs_.size());
  for (int node = 0; node < n; ++node)
    for (int port = 0; port < kRouterPorts; ++port)
      for (int vc = 0; vc < v; ++vc)
        outputs_[static_cast<size_t>(input_index(node, port, vc))].credits =
            port == kTerminalPort ? kUnlimitedCredits : config.vc_buffer_flits;
  vc_words_ = (vcs_per_router_ + 63) / 64;
  idle_.assign(static_cast<size_t>(n * vc_words_), 0);
  routed_.assign(static_cast<size_t>(n * vc_words_), 0);
  closed_.assign(inputs_.size(), Closed{});
  active_out_.assign(inputs_.size(), 0);
  local_port_.resize(static_cast<size_t>(vcs_per_router_));
  for (int i = 0; i < vcs_per_router_; ++i) local_port_[static_cast<size_t>(i)] = static_cast<uint8_t>(i / v);
  fine_waits_ = vcs_per_router_ <= 64;
  indexed_ = fine_waits_ && index_waiting_vcs;
  if (indexed_) {
    waiters_.assign(inputs_.size(), 0);
  }
  routers_.resize(static_cast<size_t>(n));
  for (Router& r : routers_) {
    std::fill(std::begin(r.free), std::end(r.free), v == 64 ? ~uint64_t{0} : bit(v) - 1);
    std::fill(std::begin(r.sa_grant), std::end(r.sa_grant), kRouterPorts - 1);  // (each round starts at 0)
    std::fill(std::begin(r.sa_accept), std::end(r.sa_accept), kRouterPorts - 1);
    std::fill(std::begin(r.sa_vc), std::end(r.sa_vc), v - 1);
  }
  sources_.resize(static_cast<size_t>(n));
  source_wait_.assign(static_cast<size_t>(n), 0);
  for (Source& s : sources_) s.credits.assign(static_cast<size_t>(v), config.vc_buffer_flits);
  full_payload_ = static_cast<double>(config.payload_bytes());
  const int per_network = config.escape_vcs() / config.virtual_networks;
  for (int network = 0; network < config.virtual_networks; ++network) {
    for (int c = 0; c < v; ++c)
      if (config.virtual_networks == 1 || (c >= network * per_network && c < (network + 1) * per_network) ||
          (config.adaptive && c == config.adaptive_vc()))
        terminal_vcs_[network] |= bit(c);
  }
  ejected_.resize(static_cast<size_t>(n));
  const int longest =
      std::max(config.pipeline_cycles + config.wire_cycles, config.pipeline_cycles + config.terminal_cycles) +
      std::max(config.wire_cycles, config.terminal_cycles) + 2 +
      (config.whole_packet_events ? config.packet_flits : 0);  // a packet's tail, credits and release
  const auto cycles = [](int c) { return static_cast<uint64_t>(c); };
  credit_delay_ = 1 + cycles(config.wire_cycles);
  source_credit_delay_ = 1 + cycles(config.terminal_cycles);
  hop_delay_ = cycles(config.pipeline_cycles - 2 + config.wire_cycles);
  inject_delay_ = cycles(config.terminal_cycles);
  eject_delay_ = cycles(config.pipeline_cycles - 2 + config.terminal_cycles);
  size_t slots = 1;
  while (slots < static_cast<size_t>(longest + 1)) slots *= 2;
  node_wheel_.resize(slots);
  slot_events_.assign(slots, 0);
  wheel_mask_ = slots - 1;
  // (The last served before the first grant: the round starts at 0.)
  va_grant_.assign(inputs_.size(), static_cast<uint16_t>(vcs_per_router_ - 1));
  va_accept_.assign(inputs_.size(), static_cast<uint16_t>(v - 1));
  in_hold_.assign(static_cast<size_t>(n * kRouterPorts), -1);
  out_hold_.assign(static_cast<size_t>(n * kRouterPorts), -1);
  in_free_.assign(static_cast<size_t>(n * kRouterPorts), 0);
  out_free_.assign(static_cast<size_t>(n * kRouterPorts), 0);
  awake_.assign(static_cast<size_t>(n), 0);
  awake_groups_.assign(static_cast<size_t>((n + 7) / 8), 0);
  held_ = config.hold_switch || config.whole_packet_events;
  by_age_ = config.arbitration == Arbitration::Age;
  escape_wormhole_ = config.switching != Switching::CutThrough && !config.adaptive;
  // Blocks of 8 nodes, more on a machine of more than 1024 (a cycle's arrivals look at every block's
  // bucket, so at most 128 of them).
  while (((n - 1) >> block_shift_) + 1 > 128) ++block_shift_;
  split_step_ = 1 << block_shift_;
  block_stride_ = (((n - 1) >> block_shift_) + 1 + 7) / 8 * 8;
  // Whole-packet events schedule at a packet's own cycles, not at the four delays: one thread. A
  // thread takes at least 64 nodes.
  threads = std::min(threads, n / 64);
  if (threads > 1 && !config.whole_packet_events) {
    crew_ = std::make_unique<ThreadCrew>(threads);
    split_.resize(static_cast<size_t>(threads) + 1);
    set_split(n / threads / split_step_ * split_step_);
  } else {
    split_ = {0, n};
  }
  shares_.resize(split_.size() - 1);
  writers_ = static_cast<int>(shares_.size());
  wheel_.resize(slots * static_cast<size_t>(writers_) * static_cast<size_t>(block_stride_));
  source_wheel_.resize(wheel_.size());
  source_events_.assign(slots, 0);
  stashes_.resize(shares_.size());
  remove_mark_.assign(static_cast<size_t>(n), 0);
  listed_bits_.assign(static_cast<size_t>((n + 63) / 64), 0);
  made_packet_.assign(static_cast<size_t>(n), -1);
  draws_ = routing_.draws();
  assert(inject_delay_ >= 1 && "a packet's route is read before its coins are drawn (replay_visits)");
}

int PacketNetwork::add_pacer(double bytes_per_cycle) {
  if (in_step_) {  // (other threads may be reading pacers_: settled in end_step())
    deferred_.push_back({true, 0, 0, 0, 0, static_cast<int>(pacers_.size()) + deferred_pacers_++, bytes_per_cycle});
    return deferred_.back().id;
  }
  pacers_.push_back({bytes_per_cycle, 0});
  pacer_node_.push_back(-1);
  return static_cast<int>(pacers_.size()) - 1;
}

double PacketNetwork::paced_ready(const Message& m) const {
  if (m.pacer < 0) return 0;
  const Pacer& p = pacers_[static_cast<size_t>(m.pacer)];
  // The PE starts on it no earlier than the cycle it was given (an idle PE has saved up nothing).
  const double start = std::max(p.next, static_cast<double>(m.arrived));
  return start + std::min(m.bytes_left, static_cast<double>(config_.payload_bytes())) / p.bytes_per_cycle;
}

int PacketNetwork::add_message(int src, int dst, double bytes, int pacer, int network) {
  if (in_step_) {
    // Between begin_step() and end_step(): as if given after end_step(), and settled then (other threads
    // may be injecting from the sources and messages it would change). Its id is the one take() gives then.
    const int id = messages_.id_after(static_cast<size_t>(deferred_messages_++));
    deferred_.push_back({false, src, dst, pacer, network, id, bytes});
    return id;
  }
  const int id = messages_.take();
  settle_message(id, src, dst, bytes, pacer, network, now_);
  return id;
}

void PacketNetwork::settle_message(int id, int src, int dst, double bytes, int pacer, int network, uint64_t at) {
  const int64_t packets = bytes <= full_payload_ ? 1 : config_.packets_for(bytes);  // (one: its rounding)
  messages_[id] = {src, dst, pacer, network, bytes, packets, packets, at};
  if (pacer >= 0) {
    int& first = pacer_node_[static_cast<size_t>(pacer)];
    if (first < 0)
      first = src;
    else if (first != src)
      shared_pacer_ = true;
  }
  Source& s = sources_[static_cast<size_t>(src)];
  s.used = true;
  source_wait_[static_cast<size_t>(src)] = 0;
  enqueue(s, id);
  if (s.dry_since >= 0) {
    mark_dry(static_cast<uint64_t>(s.dry_since), at);
    s.dry_since = -1;
  }
  if (!s.listed) {
    s.listed = true;
    listed_bits_[static_cast<size_t>(src >> 6)] |= bit(src & 63);
    active_sources_.push_back(src);
  }
}

void PacketNetwork::settle_deferred() {
  for (const Deferred& d : deferred_) {
    if (d.is_pacer) {
      pacers_.push_back({d.value, 0});
      pacer_node_.push_back(-1);
      assert(static_cast<int>(pacers_.size()) - 1 == d.id);
    } else {
      const int id = messages_.take();
      assert(id == d.id && "a message released between an in-step add_message() and end_step()");
      settle_message(id, d.src, d.dst, d.value, d.pacer, d.network, now_ + 1);
    }
  }
  deferred_.clear();
  deferred_messages_ = deferred_pacers_ = 0;
}

uint64_t PacketNetwork::next_busy_cycle() const {
  if (awake_count_ > 0 || pending_events_ > 0) return now_;
  // A source's wait is the first cycle its inject() may do anything, found when it last looked (then
  // exact) and cleared by a new message or credit: it never falls later than the truth (a pacer's next
  // issue only moves on), so at worst a cycle is stepped in which nothing moves, which changes nothing
  // but the clock. Walking the waiting messages instead costs their number per call (a burst of puts
  // issued at one instant would walk the queue once per put).
  uint64_t next = kNever;
  for (int node : active_sources_) {
    if (sources_[static_cast<size_t>(node)].packet >= 0) return now_;
    const uint64_t wait = source_wait_[static_cast<size_t>(node)];
    if (wait <= now_) return now_;
    next = std::min(next, wait);
  }
  return next;
}

void PacketNetwork::skip_to(uint64_t cycle) {
  assert(cycle <= next_busy_cycle() && "skip_to past a cycle with work: its events would come a wheel's turn late");
  if (cycle > now_) now_ = cycle, last_move_ = cycle;
}

void PacketNetwork::schedule(uint64_t cycle, EventKind kind, int node, int port, int local, Flit flit) {
  // (Whole-packet events only, which run on one thread.)
  if (kind == EventKind::Eject) {
    push(node_wheel_[cycle & wheel_mask_], kind, node, port, local, flit);
    return;
  }
  if (kind == EventKind::SourceCredit) {
    push(source_row(cycle, 0)[node >> block_shift_], kind, node, port, local, flit);
    ++source_events_[cycle & wheel_mask_];
    return;
  }
  push(router_row(cycle, 0)[node >> block_shift_], kind, node, port, local, flit);
  ++slot_events_[cycle & wheel_mask_];
}

inline void PacketNetwork::push(std::vector<Event>& slot, EventKind kind, int node, int port, int local, Flit flit) {
  // Filled in place: a temporary copied in whole after byte-wide stores stalls the copy.
  Event& e = slot.emplace_back();
  e.kind = kind;
  e.port = static_cast<uint8_t>(port);
  e.local = static_cast<uint16_t>(local);
  e.node = node;
  e.flit = flit;
}

inline bool PacketNetwork::update_asking(int node, int local) {
  const int vcs = config_.vcs;
  const InputVc& in = inputs_[static_cast<size_t>(node * vcs_per_router_ + local)];
  const int out = node * vcs_per_router_ + in.out_port * vcs + in.out_vc;
  // (A draining VC, whole-packet events, still owns its output VC but has nothing more to send on it.)
  const bool asking = in.count > 0 && in.state == VcState::Active && outputs_[static_cast<size_t>(out)].credits > 0;
  const int port = local_port_[static_cast<size_t>(local)];  // (a table: no division)
  set_asking(node, port, local - port * vcs, asking);
  return asking;
}

void PacketNetwork::set_asking(int node, int port, int vc, bool asking) {
  Router& r = router(node);
  uint64_t& mask = r.asking[port];
  if (asking)
    mask |= bit(vc);
  else
    mask &= ~bit(vc);
  uint8_t& ports = r.asking_ports;
  if (mask != 0)
    ports = static_cast<uint8_t>(ports | bit(port));
  else
    ports = static_cast<uint8_t>(ports & ~bit(port));
}

void PacketNetwork::activate(int node) {
  uint8_t& awake = awake_[static_cast<size_t>(node)];
  if (!awake) {
    awake = 1;
    awake_groups_[static_cast<size_t>(node >> 3)] = 1;
    ++pass_.woken;
  }
}

void PacketNetwork::enqueue(Source& s, int message) {
  Message& m = messages_[message];
  Lane& lane = s.lanes[m.network];
  if (lane.first < 0) {
    lane.first = m.next = m.prev = message;
  } else {
    Message& first = messages_[lane.first];
    m.next = lane.first;
    m.prev = first.prev;
    messages_[first.prev].next = message;
    first.prev = message;
  }
  ++lane.waiting;
  ++s.waiting;
}

void PacketNetwork::dequeue(Source& s, Lane& lane, int message) {
  Message& m = messages_[message];
  --s.waiting;
  if (--lane.waiting == 0) {
    lane.first = lane.turn = -1;
    return;
  }
  messages_[m.prev].next = m.next;
  messages_[m.next].prev = m.prev;
  if (lane.first == message) lane.first = m.next;
  if (lane.turn == message) lane.turn = m.next;
}

void PacketNetwork::mark_dry(uint64_t from, uint64_t to) {
  const size_t last = static_cast<size_t>(to / kSamplePeriod);
  if (dry_.size() <= last) dry_.resize(last + 1, 0);
  for (size_t p = static_cast<size_t>(from / kSamplePeriod); p <= last; ++p) dry_[p] = 1;
}

void PacketNetwork::begin_step() {
  delivered_.clear();
  const uint64_t due = slot_events_[now_ & wheel_mask_];
  const bool large =
      crew_ && recorder_ == nullptr && (awake_count_ >= kThreadedWork || due >= uint64_t{4} * kThreadedWork);
  threaded_cycle_ = large && (!timed_split_ || chooser_.split());
  owner_cycle_ = threaded_cycle_ && owner_injection_ && !shared_pacer_;
  cycle_work_ = 0;
  if (large && timed_split_) {
    cycle_work_ = static_cast<double>(due + static_cast<uint64_t>(awake_count_) + active_sources_.size());
    cycle_began_ = std::chrono::steady_clock::now();
  }
  // Threaded, the crew's workers take their routers' arrivals and visits now (and, owner injection,
  // their nodes' source credits and injection first), while this thread takes its own routers'
  // arrivals and the nodes' deliveries, then injects, then (the caller) reacts to the deliveries;
  // end_step() visits its routers.
  if (threaded_cycle_) {
    if (owner_cycle_) {
      // Every thread's packet ids taken now: the pool's records must stay where they are while the
      // routers read them. A source makes at most one packet a cycle.
      for (std::vector<int>& stash : stashes_)
        while (stash.size() < active_sources_.size()) {
          const int id = packets_.take();
          // (A buffered flit keeps its packet in 30 bits: a billion packets in flight would take 30 GB.)
          if (id >= (1 << 30)) throw ModelError("packet driver: more than 2^30 packets in flight");
          stash.push_back(id);
        }
      ++owner_cycles_;
    } else {
      // The workers' routers read packet records while this thread injects: a source makes at most one
      // packet a cycle, so room for one each keeps the records where they are.
      packets_.reserve_takes(active_sources_.size());
    }
    ++threaded_cycles_;
    crew_->post(&PacketNetwork::run_share, this);
  }
  start_pass(threaded_cycle_ ? &shares_[0] : nullptr);
  const int mine = threaded_cycle_ ? split_[1] : config_.nodes();
  if (mine > 0) arrive_due(0, mine);
  // (A router's events and a node's touch different records: which come first does not matter.)
  for (const Event& e : node_wheel_[now_ & wheel_mask_]) arrive(e);
  if (owner_cycle_) {
    if (mine > 0) {
      arrive_source_credits(0, mine);
      inject_owned(0, mine);
    }
  } else {
    arrive_source_credits(0, config_.nodes());
    inject_all();
  }
  in_step_ = true;
}

void PacketNetwork::inject_all() {
  for (size_t i = 0; i < active_sources_.size();) {
    const int node = active_sources_[i];
    if (source_wait_[static_cast<size_t>(node)] > now_) {  // it would do nothing this cycle
      ++i;
      continue;
    }
    inject(node);
    Source& s = sources_[static_cast<size_t>(node)];
    // (Whole-packet events: a packet whose last flit leaves this cycle no longer holds the source.)
    if (config_.whole_packet_events && s.packet >= 0 && s.free_at <= now_ + 1) s.packet = -1;
    if (s.packet < 0 && s.waiting == 0) {
      s.listed = false;
      listed_bits_[static_cast<size_t>(node >> 6)] &= ~bit(node & 63);
      s.dry_since = static_cast<int64_t>(now_);
      active_sources_[i] = active_sources_.back();
      active_sources_.pop_back();
    } else {
      ++i;
    }
  }
}

void PacketNetwork::inject_owned(int begin, int end) {
  // Its listed sources in ascending order (no source's visit depends on another's here: replay_visits),
  // from the bits, which no one changes during the step.
  for (int word = begin >> 6, last = (end - 1) >> 6; word <= last; ++word) {
    uint64_t listed = listed_bits_[static_cast<size_t>(word)];
    if (word == begin >> 6) listed &= ~(bit(begin & 63) - 1);
    if (word == last && (end & 63) != 0) listed &= bit(end & 63) - 1;
    for (; listed != 0; listed &= listed - 1) {
      const int node = word * 64 + __builtin_ctzll(listed);
      if (source_wait_[static_cast<size_t>(node)] > now_) continue;
      inject(node);
      Source& s = sources_[static_cast<size_t>(node)];
      if (s.packet < 0 && s.waiting == 0) {
        s.listed = false;
        s.dry_since = static_cast<int64_t>(now_);
        remove_mark_[static_cast<size_t>(node)] = 1;
        ++pass_.removed;
      }
    }
  }
}

void PacketNetwork::replay_visits() {
  // inject_all()'s visits in its order: it visits each source once (the last one moved into a removed
  // one's place is visited there), and what a visit does is the source's own (no pacer is shared), so
  // the threads' visits gave the same packets and removals; the coins are drawn now, in that order, and
  // the list ends as inject_all() leaves it. (A packet's route is read first by its router, at least a
  // cycle later.)
  for (size_t i = 0; i < active_sources_.size();) {
    const int node = active_sources_[i];
    int& made = made_packet_[static_cast<size_t>(node)];
    if (made >= 0) {
      routing_.start(node, packets_[made].route, coin_);
      made = -1;
    }
    uint8_t& mark = remove_mark_[static_cast<size_t>(node)];
    if (mark) {
      mark = 0;
      listed_bits_[static_cast<size_t>(node >> 6)] &= ~bit(node & 63);
      active_sources_[i] = active_sources_.back();
      active_sources_.pop_back();
    } else {
      ++i;
    }
  }
}

void PacketNetwork::end_step() {
  in_step_ = false;
  uint64_t removed = 0, made = 0;
  if (threaded_cycle_) {
    // (join runs run_share for this thread: its routers.) Then the next split, by who waited.
    // (Moved only once one side has waited often: each move hands routers' state to another core.)
    split_votes_ += crew_->join() ? 1 : -1;
    if (split_votes_ >= kSplitVotes || split_votes_ <= -kSplitVotes) {
      set_split(split_[1] + (split_votes_ > 0 ? split_step_ : -split_step_));
      split_votes_ = 0;
    }
    for (size_t k = 0; k < shares_.size(); ++k) {
      Share& share = shares_[k];
      if (k > 0) {  // its deliveries after the ranges before it, as one thread would have put them
        std::vector<Event>& slot = eject_slot();
        slot.insert(slot.end(), share.ejects.begin(), share.ejects.end());
        share.ejects.clear();
      }
      add_counts(share);
      removed += share.removed;
      made += share.made;
    }
  } else {
    visit_routers(0, config_.nodes());
    Share share;
    end_pass(share);
    add_counts(share);
  }
  if (removed > 0 || (draws_ && made > 0)) replay_visits();
  if (!deferred_.empty()) settle_deferred();
  // (The wheels' slots were emptied as their events arrived.)
  assert(slot_events_[now_ & wheel_mask_] == 0 && source_events_[now_ & wheel_mask_] == 0);
  node_wheel_[now_ & wheel_mask_].clear();
  // Events are scheduled only here (sources and routers), so they are counted once, not one by one.
  pending_events_ = 0;
  for (const uint64_t events : slot_events_) pending_events_ += events;
  for (const uint64_t events : source_events_) pending_events_ += events;
  for (const std::vector<Event>& slot : node_wheel_) pending_events_ += slot.size();
  if (buffered_total_ > 0 && now_ - last_move_ > kStallCycles) deadlock();
  if (cycle_work_ > 0)
    chooser_.record(
        cycle_work_,
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - cycle_began_).count());
  ++now_;
}

void PacketNetwork::set_split(int caller_end) {
  const int n = config_.nodes();
  const int threads = static_cast<int>(split_.size()) - 1;
  // (The caller's share may fall to none: it injects and runs the interpreter. Each worker keeps some.)
  // (Every bound but the last on a block's: a block's bucket is read by one thread.)
  const int least = std::max(split_step_, std::min(64, n / threads) / split_step_ * split_step_);
  caller_end = std::clamp(caller_end, 0, (n - least * (threads - 1)) / split_step_ * split_step_);
  split_[0] = 0;
  split_[1] = caller_end;
  for (int k = 2; k < threads; ++k)  // the workers share the rest evenly
    split_[static_cast<size_t>(k)] =
        caller_end + (n - caller_end) * (k - 1) / (threads - 1) / split_step_ * split_step_;
  split_[static_cast<size_t>(threads)] = n;
}

void PacketNetwork::run_share(void* network, int thread) {
  PacketNetwork& net = *static_cast<PacketNetwork*>(network);
  const size_t k = static_cast<size_t>(thread);
  const int begin = net.split_[k], end = net.split_[k + 1];
  if (thread > 0) {  // (the caller's arrivals and injection were in begin_step(), with its own pass)
    net.start_pass(&net.shares_[k]);
    net.arrive_due(begin, end);
    if (net.owner_cycle_) {
      net.arrive_source_credits(begin, end);
      net.inject_owned(begin, end);
    }
  }
  net.visit_routers(begin, end);
  net.end_pass(net.shares_[k]);
}

void PacketNetwork::start_pass(Share* share) {
  const int writer = share == nullptr ? 0 : static_cast<int>(share - shares_.data());
  pass_.credit = router_row(now_ + credit_delay_, writer);
  pass_.hop = router_row(now_ + hop_delay_, writer);
  pass_.inject = router_row(now_ + inject_delay_, writer);
  pass_.source_credit = source_row(now_ + source_credit_delay_, writer);
  // The caller's thread (share 0, or no crew) sends deliveries straight to the node wheel: its come first.
  pass_.eject = writer == 0 ? &eject_slot() : &share->ejects;
  pass_.stash = owner_cycle_ ? &stashes_[static_cast<size_t>(writer)] : nullptr;
  pass_.buffered = 0;
  pass_.woken = 0;
  pass_.flit_hops = 0;
  pass_.credits_sent = 0;
  pass_.arrived = 0;
  pass_.injected = 0;
  pass_.made = 0;
  pass_.source_credits_sent = 0;
  pass_.source_credits_arrived = 0;
  pass_.removed = 0;
  pass_.moved = false;
}

void PacketNetwork::add_counts(const Share& share) {
  buffered_total_ += share.buffered;
  awake_count_ += share.woken;
  stats_.flit_hops += share.flit_hops;
  if (share.moved) last_move_ = now_;
  slot_events_[(now_ + hop_delay_) & wheel_mask_] += share.flit_hops;  // (send()'s hop events)
  slot_events_[(now_ + credit_delay_) & wheel_mask_] += share.credits_sent;
  slot_events_[now_ & wheel_mask_] -= share.arrived;
  slot_events_[(now_ + inject_delay_) & wheel_mask_] += share.injected;  // (inject()'s flit events)
  stats_.flits_injected += share.injected;
  stats_.packets_made += share.made;
  source_events_[(now_ + source_credit_delay_) & wheel_mask_] += share.source_credits_sent;
  source_events_[now_ & wheel_mask_] -= share.source_credits_arrived;
}

void PacketNetwork::end_pass(Share& share) const {
  share.buffered = pass_.buffered;
  share.woken = pass_.woken;
  share.flit_hops = pass_.flit_hops;
  share.credits_sent = pass_.credits_sent;
  share.arrived = pass_.arrived;
  share.injected = pass_.injected;
  share.made = pass_.made;
  share.source_credits_sent = pass_.source_credits_sent;
  share.source_credits_arrived = pass_.source_credits_arrived;
  share.removed = pass_.removed;
  share.moved = pass_.moved;
}

void PacketNetwork::arrive_due(int begin, int end) {
  assert(begin % split_step_ == 0 && (end == config_.nodes() || end % split_step_ == 0));
  const auto [first, last] = blocks_between(begin, end);
  uint64_t taken = 0;
  for (int writer = 0; writer < writers_; ++writer) {  // (arrive() never schedules into this slot)
    std::vector<Event>* row = router_row(now_, writer);
    for (int block = first; block < last; ++block) {
      std::vector<Event>& bucket = row[block];
      if (bucket.empty()) continue;
      for (const Event& e : bucket) {
        // Flits and credits, nearly every event, are handled here, not through arrive()'s switch.
        if (e.kind == EventKind::Flit)
          arrive_flit(e);
        else if (e.kind == EventKind::Credit)
          arrive_credit(e);
        else
          arrive(e);  // (a Release: whole-packet events, one thread)
      }
      taken += bucket.size();
      bucket.clear();
    }
  }
  pass_.arrived += taken;
}

void PacketNetwork::arrive_source_credits(int begin, int end) {
  const auto [first, last] = blocks_between(begin, end);
  uint64_t taken = 0;
  for (int writer = 0; writer < writers_; ++writer) {
    std::vector<Event>* row = source_row(now_, writer);
    for (int block = first; block < last; ++block) {
      std::vector<Event>& bucket = row[block];
      if (bucket.empty()) continue;
      for (const Event& e : bucket) arrive_source_credit(e);
      taken += bucket.size();
      bucket.clear();
    }
  }
  pass_.source_credits_arrived += taken;
}

void PacketNetwork::visit_routers(int begin, int end) {
  // (begin is a multiple of 8: split_step_.) In ascending node order.
  uint8_t* awake = awake_.data();
  for (int first = begin; first < end; first += 8) {
    uint8_t& group = awake_groups_[static_cast<size_t>(first >> 3)];
    if (group == 0) continue;
    const int last = std::min(first + 8, end);
    bool any = false;
    for (int node = first; node < last; ++node) {
      if (!awake[node]) continue;
      if (visit_router(node)) {
        any = true;
      } else {
        awake[node] = 0;
        --pass_.woken;
      }
    }
    group = any;
  }
}

inline bool PacketNetwork::visit_router(int node) {
  // A router that did nothing this cycle (every flit waits for a credit or a channel another holds)
  // sleeps: it has no head to route, its VC allocation is blocked or has no routed VC, and no VC asks for
  // the switch (or, with held ports, none that may have it), so a visit would change nothing, not even VC
  // allocation's records, until an arrival gives a stage work. That arrival wakes it (arrive_flit,
  // arrive_credit, release): a head reaching an idle VC; a flit or a credit making a VC ask for the
  // switch; a credit or a release unblocking VC allocation; a release (whole-packet events: the ports
  // its packet held are free). Any other arrival leaves the visit nothing to do, so it does not wake it.
  Router& r = router(node);
  pass_.acted = false;
  // (The stages' own first tests, made here: most visits have nothing for one or two of them.)
  if (r.unallocated != 0 && !r.vc_blocked) {
    if (escape_wormhole_)
      vc_stage<true>(node);
    else
      vc_stage<false>(node);
  }
  if (r.asking_ports != 0) {  // (age arbitration compiled apart: round-robin's stage has none of its tests)
    if (by_age_)
      held_ ? switch_stage<true, true>(node) : switch_stage<false, true>(node);
    else
      held_ ? switch_stage<true, false>(node) : switch_stage<false, false>(node);
  }
  if (pass_.asking_later_ports != 0) {  // the VCs granted an output VC this cycle ask for the switch from the next
    for (unsigned ports = pass_.asking_later_ports; ports != 0; ports &= ports - 1) {
      const int port = __builtin_ctz(ports);
      r.asking[port] |= pass_.asking_later[port];
      pass_.asking_later[port] = 0;
    }
    r.asking_ports |= static_cast<uint8_t>(pass_.asking_later_ports);
    pass_.asking_later_ports = 0;
  }
  if (r.unrouted != 0) {
    if (escape_wormhole_)
      route_stage<true>(node);
    else
      route_stage<false>(node);
  }
  return pass_.acted && r.buffered > 0;
}

inline void PacketNetwork::arrive_flit(const Event& e) {
  const int node = e.node;
  Router& r = router(node);
  const int local = e.local;
  const int target = node * vcs_per_router_ + local;
  InputVc& in = inputs_[static_cast<size_t>(target)];
  const uint32_t cap = static_cast<uint32_t>(config_.vc_buffer_flits);
  uint32_t slot = in.first + in.count;
  if (slot >= cap) slot -= cap;
  buffers_[static_cast<size_t>(target) * cap + slot] = stored(e.flit);
  // The router wakes only when the VC now has work for a stage: a head to route, or a flit that asks for
  // the switch. A flit behind others, or one whose VC waits for a credit or an output VC, changes nothing
  // a visit looks at (visit_router: a sleeping router's visit would do nothing).
  if (++in.count == 1) {
    if (in.state == VcState::Idle) {
      ++r.unrouted;
      vc_word(idle_, node, local) |= bit(local & 63);
      activate(node);
    } else if (in.state == VcState::Active && update_asking(node, local)) {
      activate(node);
    }
  }
  ++r.buffered;
  pass_.buffered += e.flit.flits;
}

inline void PacketNetwork::arrive_credit(const Event& e) {
  const int node = e.node;
  Router& r = router(node);
  const int local = e.local;
  OutputVc& out = outputs_[static_cast<size_t>(node * vcs_per_router_ + local)];
  const uint64_t waiting = fine_waits_ ? bit(local) : bit(e.port);  // (wait_bit)
  out.credits += e.flit.flits;
  // The router wakes only when the credit gives a stage work (visit_router): a free VC's, when VC
  // allocation has routed VCs and is not blocked (the credit may have unblocked it); an owned VC's, when
  // its owner now asks for the switch (it had no credit, and holds a flit).
  if (out.owner < 0) {
    r.changed |= waiting;
    // Room in a free VC for a whole packet: a cut-through packet, or an adaptive choice, may fit now.
    if (out.credits >= r.vc_wake && (r.vc_waits & waiting)) r.vc_blocked = false;
    if (r.unallocated != 0 && !r.vc_blocked) activate(node);
  } else if (out.credits == e.flit.flits && update_asking(node, out.owner)) {  // it had none
    activate(node);
  }
}

inline void PacketNetwork::arrive(const Event& e) {
  switch (e.kind) {
    case EventKind::Flit:
      arrive_flit(e);
      break;
    case EventKind::Credit:
      arrive_credit(e);
      break;
    case EventKind::SourceCredit:  // (never here: on their own wheel, arrive_source_credits)
      assert(false);
      break;
    case EventKind::Eject: {
      count_ejected(e.node, now_ + 1 - e.flit.flits, e.flit.flits);  // (a whole packet: its flits up to now)
      if (!e.flit.tail()) break;
      Packet& p = packets_[e.flit.packet()];
      Message& m = messages_[p.message];
      ++stats_.packets_delivered;
      stats_.latency_cycles_sum += static_cast<double>(now_ - m.arrived);
      packets_.release(e.flit.packet());
      if (--m.undelivered == 0) {
        delivered_.push_back(p.message);
        messages_.release(p.message);
      }
      break;
    }
    case EventKind::Release:
      release(e.node, e.port, e.local - e.port * config_.vcs);
      break;
  }
}

inline void PacketNetwork::arrive_source_credit(const Event& e) {
  source_wait_[static_cast<size_t>(e.node)] = 0;
  Source& s = sources_[static_cast<size_t>(e.node)];
  s.credits[e.local] += e.flit.flits;
  for (Lane& lane : s.lanes) lane.stalled = false;
}

inline void PacketNetwork::count_ejected(int node, uint64_t first_cycle, int flits) {
  stats_.flits_ejected += static_cast<uint64_t>(flits);
  std::vector<uint64_t>& counts = ejected_[static_cast<size_t>(node)];
  if (flits == 1 && first_cycle / kSamplePeriod < counts.size()) {  // (nearly every call)
    ++counts[static_cast<size_t>(first_cycle / kSamplePeriod)];
    return;
  }
  for (uint64_t cycle = first_cycle, end = first_cycle + static_cast<uint64_t>(flits); cycle < end;) {
    const size_t period = static_cast<size_t>(cycle / kSamplePeriod);
    const uint64_t upto = std::min(end, (period + 1) * kSamplePeriod);
    if (counts.size() <= period) counts.resize(period + 1, 0);
    counts[period] += upto - cycle;
    cycle = upto;
  }
}

inline int PacketNetwork::next_message(const Lane& lane, double& ready, bool& first_tried, uint64_t& earliest) const {
  for (int tried = 0, at = lane.turn < 0 ? lane.first : lane.turn; tried < lane.waiting;
       ++tried, at = messages_[at].next) {
    const Message& m = messages_[at];
    if (m.arrived >= now_) {  // a message enters the source queue the cycle after it is given
      earliest = std::min(earliest, m.arrived + 1);
      continue;
    }
    const double issued = paced_ready(m);
    if (issued > static_cast<double>(now_)) {
      earliest = std::min(earliest, static_cast<uint64_t>(std::ceil(issued)));
      continue;
    }
    ready = issued;
    first_tried = tried == 0;
    return at;
  }
  return -1;
}

inline int PacketNetwork::terminal_vc(const Source& s, int network, int need) const {
  // Its network's VCs not busy, from the pointer on, then those before it.
  const uint64_t idle = terminal_vcs_[network] & ~s.busy;
  const uint64_t before = bit(s.vc_turn) - 1;
  for (uint64_t m = idle & ~before; m != 0; m &= m - 1)
    if (s.credits[static_cast<size_t>(__builtin_ctzll(m))] >= need) return __builtin_ctzll(m);
  for (uint64_t m = idle & before; m != 0; m &= m - 1)
    if (s.credits[static_cast<size_t>(__builtin_ctzll(m))] >= need) return __builtin_ctzll(m);
  return -1;
}

inline void PacketNetwork::inject(int node) {
  Source& s = sources_[static_cast<size_t>(node)];
  const int vcs = config_.vcs;
  uint64_t& wait = source_wait_[static_cast<size_t>(node)];
  if (config_.whole_packet_events && s.packet >= 0) {
    if (now_ < s.free_at) {  // its packet's flits are still leaving
      wait = s.free_at - 1;  // (step() lets it go a cycle before)
      return;
    }
    s.packet = -1;
  }
  if (s.packet < 0) {
    // A new packet: of each virtual network in turn, the next message (round-robin) that may inject, on a
    // free VC of its network with room.
    const int networks = config_.virtual_networks;
    int chosen = -1, vc = -1, network = 0, flits = 0;
    double payload = 0;          // the chosen message's next packet's
    double chosen_ready = 0;     // its payload's issue time (paced_ready)
    uint64_t earliest = kNever;  // when none may: the first cycle one may
    for (int k = 0; k < networks && vc < 0; ++k) {
      network = s.lane_turn + k < networks ? s.lane_turn + k : s.lane_turn + k - networks;
      Lane& lane = s.lanes[network];
      if (lane.stalled || lane.waiting == 0) continue;
      bool first_tried = false;
      const int at = next_message(lane, chosen_ready, first_tried, earliest);
      if (at < 0) continue;
      const Message& m = messages_[at];
      payload = std::min(m.bytes_left, static_cast<double>(config_.payload_bytes()));
      flits = flits_for(payload);
      vc = terminal_vc(s, network, config_.switching == Switching::CutThrough ? flits : 1);
      if (vc >= 0) {
        chosen = at;
      } else if (first_tried) {
        // No VC with room, and the message tried first was the one chosen: the choice stays until a
        // credit comes back (messages given later queue behind it), no need to look again until then.
        lane.stalled = true;
      } else {
        earliest = std::min(earliest, now_ + 1);  // another message's turn: look again next cycle
      }
    }
    if (chosen < 0) {
      wait = earliest;
      return;
    }
    Lane& lane = s.lanes[network];
    s.lane_turn = network + 1 == networks ? 0 : network + 1;
    Message& m = messages_[chosen];
    s.vc_turn = vc + 1 == vcs ? 0 : vc + 1;
    int id;
    if (pass_.stash != nullptr) {  // (owner injection: taken before the step, begin_step)
      id = pass_.stash->back();
      pass_.stash->pop_back();
    } else {
      id = packets_.take();
      // (A buffered flit keeps its packet in 30 bits: a billion packets in flight would take 30 GB.)
      if (__builtin_expect(id >= (1 << 30), 0)) throw ModelError("packet driver: more than 2^30 packets in flight");
    }
    if (__builtin_expect(recorder_ != nullptr, 0)) record_made(id, node, vc);
    const int message = chosen;
    Packet& made = packets_[id];
    made = {message, flits, PacketRoute{}, static_cast<uint32_t>(now_)};
    made.route.src = node;
    made.route.dst = m.dst;
    made.route.network = static_cast<uint8_t>(m.network);
    if (pass_.stash != nullptr && draws_)  // owner injection: its coins drawn after the step, in order
      made_packet_[static_cast<size_t>(node)] = id;
    else
      routing_.start(node, made.route, coin_);
    ++pass_.made;
    if (m.pacer >= 0) {
      // Its PE starts on the next payload when this one's was issued if the packet went in the first cycle
      // it could (kept to the fraction of a cycle, so a backlogged PE keeps its exact rate, not a whole
      // number of cycles a packet), else now (it waited for something else, and a PE does not save up its
      // rate). chosen_ready is of the payload just packed (nothing has moved since the walk found it).
      pacers_[static_cast<size_t>(m.pacer)].next =
          chosen_ready > static_cast<double>(now_) - 1 ? chosen_ready : static_cast<double>(now_);
    }
    m.bytes_left -= payload;
    // Next time, the message after this one (after the newest, the oldest).
    lane.turn = m.next == lane.first ? -1 : m.next;
    if (--m.to_make == 0) dequeue(s, lane, chosen);
    s.packet = id;
    s.sent = 0;
    s.vc = vc;
    if (config_.whole_packet_events) {  // all its flits, one a cycle from now (cut-through: they fit)
      s.credits[static_cast<size_t>(vc)] -= flits;
      schedule(now_ + static_cast<uint64_t>(config_.terminal_cycles), EventKind::Flit, node, kTerminalPort,
               kTerminalPort * vcs + vc, Flit::of(id, true, true, flits));
      stats_.flits_injected += static_cast<uint64_t>(flits);
      pass_.moved = true;
      s.free_at = now_ + static_cast<uint64_t>(flits);
      return;
    }
    s.busy |= bit(vc);
  }
  int& credits = s.credits[static_cast<size_t>(s.vc)];
  if (credits == 0) {
    wait = kNever;  // until a credit comes back
    return;
  }
  --credits;
  const Packet& p = packets_[s.packet];
  const Flit f = Flit::of(s.packet, s.sent == 0, s.sent + 1 == p.flits);
  push(pass_.inject[node >> block_shift_], EventKind::Flit, node, kTerminalPort, kTerminalPort * vcs + s.vc, f);
  ++pass_.injected;  // (counted on the wheel and in stats_ by add_counts)
  pass_.moved = true;
  if (++s.sent == p.flits) {
    s.busy &= ~bit(s.vc);
    s.packet = -1;
  }
}

template <bool kEscapeWormhole>
inline void PacketNetwork::route_stage(int node) {
  Router& r = router(node);
  const int base = node * vcs_per_router_;
  const size_t cap = static_cast<size_t>(config_.vc_buffer_flits);
  InputVc* inputs = &inputs_[static_cast<size_t>(base)];
  const Stored* buffers = &buffers_[static_cast<size_t>(base) * cap];
  uint64_t* idle_words = &idle_[static_cast<size_t>(node * vc_words_)];
  uint64_t* routed_words = &routed_[static_cast<size_t>(node * vc_words_)];
  const uint8_t* port_of = local_port_.data();
  const bool adaptive = !kEscapeWormhole && config_.adaptive;
  const bool simple = config_.switching != Switching::CutThrough;  // (and, per VC, no adaptive choice)
  int routed = 0;
  // In ascending VC order (port by port).
  for (int w = 0; w < vc_words_; ++w) {
    const uint64_t idle = idle_words[w];
    if (idle == 0) continue;
    uint64_t left = idle;  // the idle VCs not routed now
    for (uint64_t m = idle; m != 0; m &= m - 1) {
      const int b = __builtin_ctzll(m);
      const int i = w * 64 + b;
      InputVc& in = inputs[i];
      if (in.ready > now_) continue;
      Packet& p = packets_[stored_packet(buffers[static_cast<size_t>(i) * cap + in.first])];
      const PacketHop hop = routing_.next(node, port_of[i], p.route);
      in.state = VcState::Routed;
      if (__builtin_expect(recorder_ != nullptr, 0)) record_ask(base + i);
      left &= ~bit(b);
      ++routed;
      in.out_port = in.escape_port = static_cast<uint8_t>(hop.out_port);
      in.vc_mask = in.escape_mask = hop.vcs;
      in.productive = adaptive ? hop.productive : 0;
      in.flits = static_cast<uint16_t>(p.flits);
      // (An idle VC is not closed: it was last closed while routed, and reopened when it asked for the
      // output VC it was granted.)
      if (r.vc_blocked) {
        // Nothing else in this router changes before next cycle's VC allocation but what wakes it: if
        // the new head could not be granted a VC then, the router stays blocked, now waiting for it too.
        int my_wake = std::numeric_limits<int>::max();
        uint64_t mine = 0;
        // (Wormhole on its escape VCs, the common case: open_vcs without its credits and choice.)
        const bool escape_only = kEscapeWormhole || (simple && !in.productive);
        const bool open =
            escape_only ? (r.free[in.out_port] & in.vc_mask) != 0 : open_vcs(node, in, my_wake, mine) != 0;
        if (open) {
          r.vc_blocked = false;
        } else {
          if (escape_only) mine = waits_of(in);
          set_closed(node, i, mine, my_wake);
          r.vc_waits |= mine;
          r.vc_wake = std::min(r.vc_wake, my_wake);
        }
      }
    }
    idle_words[w] = left;
    routed_words[w] |= idle & ~left;
  }
  if (routed > 0) {
    r.unrouted -= routed;
    r.unallocated += routed;
    pass_.acted = true;
  }
}

void PacketNetwork::choose_adaptive(int node, InputVc& in, int flits) const {
  // The adaptive VC of the productive port with the most free room, if it can take the whole packet
  // (Thorson and Scott's patent: a packet enters the adaptive VC only then); else the escape VCs.
  const int base = node * vcs_per_router_;
  const int adaptive = config_.adaptive_vc();
  int best_port = -1, best_room = flits - 1;
  for (int port = 0; port < kTorusPorts; ++port) {
    if (!(in.productive & (1 << port))) continue;
    const OutputVc& out = outputs_[static_cast<size_t>(base + port * config_.vcs + adaptive)];
    if (out.owner < 0 && out.credits > best_room) best_port = port, best_room = out.credits;
  }
  if (best_port >= 0) {
    in.out_port = static_cast<uint8_t>(best_port);
    in.vc_mask = bit(adaptive);
  } else {
    in.out_port = in.escape_port;
    in.vc_mask = in.escape_mask;
  }
}

void PacketNetwork::freed(int node, int out_port, int out_vc) {
  Router& r = router(node);
  // Under cut-through a waiter needs room for its whole packet too: a VC freed with less waits for its
  // credits, whose arrival wakes the router then.
  r.changed |= wait_bit(out_port, out_vc);
  const int room = config_.switching == Switching::CutThrough ? r.vc_wake : 0;
  if ((r.vc_waits & wait_bit(out_port, out_vc)) &&
      outputs_[static_cast<size_t>(node * vcs_per_router_ + out_port * config_.vcs + out_vc)].credits >= room)
    r.vc_blocked = false;
}

uint64_t PacketNetwork::waits_of(const InputVc& in) const {
  if (!fine_waits_) return in.productive | bit(in.escape_port);
  uint64_t waits = in.escape_mask << (in.escape_port * config_.vcs);
  for (unsigned p = in.productive; p != 0; p &= p - 1)
    waits |= bit(__builtin_ctz(p) * config_.vcs + config_.adaptive_vc());
  return waits;
}

uint64_t PacketNetwork::open_vcs(int node, InputVc& in, int& wake, uint64_t& waits) const {
  const bool cut_through = config_.switching == Switching::CutThrough;
  int flits = 0;
  if (cut_through || in.productive) {
    flits = in.flits;
    wake = std::min(wake, flits);
  }
  if (in.productive) choose_adaptive(node, in, flits);
  waits |= waits_of(in);
  uint64_t open = router(node).free[in.out_port] & in.vc_mask;
  if (cut_through)  // (wormhole: a free output VC, whatever its credits)
    for (uint64_t f = open; f != 0; f &= f - 1) {
      const int vc = __builtin_ctzll(f);
      if (outputs_[static_cast<size_t>(node * vcs_per_router_ + in.out_port * config_.vcs + vc)].credits < flits)
        open &= ~bit(vc);
    }
  return open;
}

template <bool kEscapeWormhole>
inline int PacketNetwork::vc_requests_indexed(int node, int* requesters, uint64_t* wants, uint8_t* out_ports,
                                              uint64_t& contested) {
  Router& r = router(node);
  const int base = node * vcs_per_router_;
  // Output VCs freed or gaining credits while free since the last call: a closed VC waiting on none of
  // them still cannot be granted one, and is not looked at (nor is its state read).
  const uint64_t changed = r.changed;
  r.changed = 0;
  const uint64_t* waiters = &waiters_[static_cast<size_t>(base)];
  uint64_t reopened = 0;
  for (uint64_t c = changed & r.waited; c != 0; c &= c - 1) reopened |= waiters[__builtin_ctzll(c)];
  const uint64_t routed = vc_word(routed_, node, 0);  // (indexed: a router of at most 64 VCs, one word)
  // (close_vc and reopen_vc change only their own VC's bit, so this copy stays right for the VCs not yet looked at.)
  const uint64_t closed = r.closed_local;
  const uint64_t* free_ports = r.free;
  InputVc* inputs = &inputs_[static_cast<size_t>(base)];
  const bool simple = config_.switching != Switching::CutThrough;  // (and, per VC, no adaptive choice)
  const int vcs = config_.vcs;
  uint64_t asked = 0;  // the output VCs asked for
  int count = 0;
  for (uint64_t m = routed & ~(closed & ~reopened); m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    InputVc& in = inputs[i];
    uint64_t open;
    // Wormhole, escape VCs only: open_vcs without its credits and choice.
    if (kEscapeWormhole || (simple && !in.productive)) {
      open = free_ports[in.out_port] & in.vc_mask;
      if (open == 0) {
        close_vc(node, i, waits_of(in), std::numeric_limits<int>::max());
        continue;
      }
    } else {
      int wake = std::numeric_limits<int>::max();
      uint64_t waits = 0;
      open = open_vcs(node, in, wake, waits);
      if (open == 0) {
        close_vc(node, i, waits, wake);
        continue;
      }
    }
    if (closed & bit(i)) reopen_closed(node, i);
    const uint64_t w = open << (in.out_port * vcs);
    contested |= asked & w;
    asked |= w;
    wants[count] = w;
    out_ports[count] = in.out_port;
    requesters[count++] = i;
  }
  return count;
}

void PacketNetwork::set_closed(int node, int local, uint64_t waits, int wake) {
  if (!indexed_)
    closed_[static_cast<size_t>(node * vcs_per_router_ + local)] = waits != 0 ? Closed{waits, wake} : Closed{};
  else if (waits == 0)
    reopen_vc(node, local);
  else
    close_vc(node, local, waits, wake);
}

inline void PacketNetwork::close_vc(int node, int local, uint64_t waits, int wake) {
  Router& r = router(node);
  reopen_vc(node, local);
  if (waits == 0) return;  // (waits for nothing: looked at every time)
  closed_[static_cast<size_t>(node * vcs_per_router_ + local)] = Closed{waits, wake};
  r.closed_local |= bit(local);
  uint64_t* waiters = &waiters_[static_cast<size_t>(node * vcs_per_router_)];
  for (uint64_t w = waits; w != 0; w &= w - 1) waiters[__builtin_ctzll(w)] |= bit(local);
  r.waited |= waits;
  r.closed_wake = std::min(r.closed_wake, wake);
}

inline void PacketNetwork::reopen_vc(int node, int local) {
  if ((router(node).closed_local >> local) & 1) reopen_closed(node, local);  // (most are not closed)
}

inline void PacketNetwork::reopen_closed(int node, int local) {
  Router& r = router(node);
  uint64_t& closed = r.closed_local;
  closed &= ~bit(local);
  Closed& c = closed_[static_cast<size_t>(node * vcs_per_router_ + local)];
  uint64_t* waiters = &waiters_[static_cast<size_t>(node * vcs_per_router_)];
  for (uint64_t w = c.waits; w != 0; w &= w - 1) {
    const int b = __builtin_ctzll(w);
    if ((waiters[b] &= ~bit(local)) == 0) r.waited &= ~bit(b);
  }
  c = Closed{};
  // (The fewest credits a closed VC needs is kept as it was until none is closed: a lower figure only
  // wakes the router for nothing.)
  if (closed == 0) r.closed_wake = std::numeric_limits<int>::max();
}

int PacketNetwork::vc_requests_scanned(int node, int* requesters, uint64_t* opens, uint8_t* out_ports, int& wake,
                                       uint64_t& waits) {
  const int base = node * vcs_per_router_;
  int count = 0;
  // Output VCs freed or gaining credits while free since the last call: a VC that could be granted
  // none then, and waits on none of these, still cannot.
  Router& r = router(node);
  const uint64_t changed = r.changed;
  r.changed = 0;
  for (int w = 0; w < vc_words_; ++w)
    for (uint64_t m = routed_[static_cast<size_t>(node * vc_words_ + w)]; m != 0; m &= m - 1) {
      const int i = w * 64 + __builtin_ctzll(m);
      // One that sees no output VC of its own free, with room for its whole packet under cut-through,
      // can be granted none: leaving it out changes nothing. (Looked at before the VC itself: most
      // routed VCs of a congested router wait, and their state is then not needed.)
      Closed& closed = closed_[static_cast<size_t>(base + i)];
      if (closed.waits != 0 && (closed.waits & changed) == 0) {
        waits |= closed.waits;
        wake = std::min(wake, closed.wake);
        continue;
      }
      InputVc& in = inputs_[static_cast<size_t>(base + i)];
      int my_wake = std::numeric_limits<int>::max();
      uint64_t mine = 0;
      const uint64_t open = open_vcs(node, in, my_wake, mine);
      waits |= mine;
      wake = std::min(wake, my_wake);
      closed = open == 0 ? Closed{mine, my_wake} : Closed{};
      if (open == 0) continue;
      opens[count] = open;
      out_ports[count] = in.out_port;
      requesters[count++] = i;
    }
  return count;
}

template <bool kEscapeWormhole>
inline void PacketNetwork::vc_stage(int node) {
  Router& r = router(node);
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const int n = vcs_per_router_;
  // The input VCs asking for an output VC this cycle, in ascending order, with the output VCs of their
  // port each could be granted (a router of at most 64 VCs: router-local, bit out_port x vcs + vc) and
  // that port.
  int requesters[kMaxRouterVcs];
  uint64_t opens[kMaxRouterVcs];
  uint8_t out_ports[kMaxRouterVcs];
  uint64_t contested = 0;  // a router of at most 64 VCs: the output VCs more than one requester asks for
  // What the VCs that can be granted none wait for: the output VCs they look at (wait_bit) and the
  // fewest credits one of them needs of a free VC.
  int wake = std::numeric_limits<int>::max();
  uint64_t waits = 0;
  int count = 0;
  if (indexed_) {
    count = vc_requests_indexed<kEscapeWormhole>(node, requesters, opens, out_ports, contested);
    wake = r.closed_wake;
    waits = r.waited;
  } else {
    count = vc_requests_scanned(node, requesters, opens, out_ports, wake, waits);
    if (n <= 64) contested = to_router_local(opens, out_ports, count);
  }
  if (count == 0) {
    // Nothing can change for these VCs until one is routed, an output VC is freed or a free one gains
    // a credit (an adaptive choice follows the same: owners and credits of free VCs), which wakes it.
    block_vc_allocation(node, wake, waits);
    return;
  }
  // The router's records, reached once (byte-wide stores below would make the compiler reload each
  // vector's data pointer at every access).
  InputVc* inputs = &inputs_[static_cast<size_t>(base)];
  OutputVc* outputs = &outputs_[static_cast<size_t>(base)];
  uint64_t* free_ports = r.free;
  uint64_t* routed_words = &routed_[static_cast<size_t>(node * vc_words_)];
  uint16_t* va_grant = &va_grant_[static_cast<size_t>(base)];
  uint16_t* va_accept = &va_accept_[static_cast<size_t>(base)];
  uint8_t* active_out = &active_out_[static_cast<size_t>(base)];
  const uint8_t* port_of = local_port_.data();
  unsigned asking_now = 0;  // input ports with a VC asking for the switch from these grants
  int accepted = 0;
  uint64_t taken = 0;  // a router of at most 64 VCs: the requesters granted one (routed_'s word, cleared once)
  // Input VC i takes output VC vc of out_port.
  const auto take = [&](int i, int out_port, int vc) {
    const int in_port = port_of[i];
    InputVc& in = inputs[i];
    const int o = out_port * vcs + vc;
    if (__builtin_expect(recorder_ != nullptr, 0)) record_grant(base + i, in_port, base + o);
    outputs[o].owner = i;
    free_ports[out_port] &= ~bit(vc);
    va_grant[o] = static_cast<uint16_t>(i);
    va_accept[i] = static_cast<uint16_t>(vc);
    in.out_vc = static_cast<int16_t>(vc);
    in.state = VcState::Active;
    active_out[i] = static_cast<uint8_t>(out_port);
    // (update_asking: the VC is active and holds its head, so it asks if its new output VC has a credit,
    // from the next cycle on; a routed VC was not asking.)
    if (outputs[o].credits > 0) {
      pass_.asking_later[in_port] |= bit(i - in_port * vcs);
      asking_now |= 1u << in_port;
    }
    if (n <= 64)
      taken |= bit(i);
    else
      routed_words[i >> 6] &= ~bit(i & 63);
    ++accepted;
  };
  if (n <= 64) {
    // One iSLIP iteration as bitmasks. Grant: an output VC only one requester asks for goes to it, a
    // contested one by round-robin or age (vc_grant); accept, taken here: each requester takes, of the output
    // VCs granted it (all on its own port), the first after the one it last took.
    uint64_t granted[64];  // contested: per requester (local index), the output VCs granted it
    if (contested != 0) {
      if (config_.arbitration == Arbitration::Age)
        vc_grant<true>(node, requesters, opens, count, contested, granted);
      else
        vc_grant<false>(node, requesters, opens, count, contested, granted);
    }
    for (int q = 0; q < count; ++q) {
      const int i = requesters[q];
      const int out_port = out_ports[q];
      const uint64_t mine = (contested == 0 ? opens[q] : granted[i]) >> (out_port * vcs);
      if (mine != 0) take(i, out_port, first_after(mine, va_accept[i]));
    }
  } else {
    int accepted_vc[kMaxRouterVcs];  // per requester, the output VC it took (-1: none)
    vc_grant_wide(node, requesters, opens, out_ports, count, accepted_vc);
    for (int q = 0; q < count; ++q)
      if (accepted_vc[q] >= 0) take(requesters[q], out_ports[q], accepted_vc[q]);
  }
  routed_words[0] &= ~taken;
  if (accepted > 0) {
    pass_.acted = true;
    r.unallocated -= accepted;
    pass_.asking_later_ports = asking_now;
  }
  if (accepted == count) {
    // Every VC that could be granted one was; the rest could not before these grants and cannot after
    // them (a grant only takes a VC): blocked already, as the next cycle's call would find.
    block_vc_allocation(node, wake, waits);
  }
}

uint64_t PacketNetwork::to_router_local(uint64_t* opens, const uint8_t* out_ports, int count) const {
  uint64_t asked = 0, contested = 0;
  for (int q = 0; q < count; ++q) {
    opens[q] <<= out_ports[q] * config_.vcs;
    contested |= asked & opens[q];
    asked |= opens[q];
  }
  return contested;
}

template <bool kAge>
inline void PacketNetwork::vc_grant(int node, const int* requesters, const uint64_t* wants, int count,
                                    uint64_t contested, uint64_t* granted) {
  // Each contested output VC to the requester nearest after the one it was last granted to (kAge: to
  // the one whose packet was made first, ties so); the others to their one requester.
  const uint16_t* va_grant = &va_grant_[static_cast<size_t>(node * vcs_per_router_)];
  uint64_t asking[64];  // per contested output VC, the requesters asking for it (bit: local index)
  for (uint64_t c = contested; c != 0; c &= c - 1) asking[__builtin_ctzll(c)] = 0;
  for (int q = 0; q < count; ++q) {
    const int i = requesters[q];
    granted[i] = wants[q] & ~contested;
    for (uint64_t f = wants[q] & contested; f != 0; f &= f - 1) asking[__builtin_ctzll(f)] |= bit(i);
  }
  for (uint64_t c = contested; c != 0; c &= c - 1) {
    const int o = __builtin_ctzll(c);
    if constexpr (kAge)  // (the packet made first, ties in turn)
      granted[oldest_after(asking[o], va_grant[o], [&](int i) { return front_born(node, i); })] |= bit(o);
    else
      granted[first_after(asking[o], va_grant[o])] |= bit(o);
  }
}

void PacketNetwork::vc_grant_wide(int node, const int* requesters, const uint64_t* opens, const uint8_t* out_ports,
                                  int count, int* accepted_vc) {
  // One iSLIP iteration, for more VCs than a word holds: per output VC, the requester at the least
  // distance after its pointer (age arbitration: whose packet was made first, then the least distance;
  // tested at run time here, as this path is the rare one); per requester, the first granted it after
  // its own.
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const int n = vcs_per_router_;
  int best[kMaxRouterVcs];
  int best_distance[kMaxRouterVcs];
  uint32_t best_born[kMaxRouterVcs];
  const bool by_age = config_.arbitration == Arbitration::Age;
  std::fill(best, best + n, -1);
  for (int r = 0; r < count; ++r) {
    const int i = requesters[r];
    const int first = out_ports[r] * vcs;
    const uint32_t born = by_age ? front_born(node, i) : 0;
    for (uint64_t f = opens[r]; f != 0; f &= f - 1) {
      const int o = first + __builtin_ctzll(f);
      int distance = i - va_grant_[static_cast<size_t>(base + o)] - 1;
      if (distance < 0) distance += n;
      // (age: the packet made first, then the nearer in turn; round-robin: the nearer)
      if (best[o] < 0 || made_before(born, best_born[o]) || (born == best_born[o] && distance < best_distance[o]))
        best[o] = i, best_distance[o] = distance, best_born[o] = born;
    }
  }
  for (int r = 0; r < count; ++r) {
    const int i = requesters[r];
    const int first = out_ports[r] * vcs;
    uint64_t mine = 0;
    for (uint64_t f = opens[r]; f != 0; f &= f - 1)
      if (best[first + __builtin_ctzll(f)] == i) mine |= bit(__builtin_ctzll(f));
    accepted_vc[r] = mine != 0 ? first_after(mine, va_accept_[static_cast<size_t>(base + i)]) : -1;
  }
}

uint32_t PacketNetwork::front_born(int node, int local) const {
  const size_t at = static_cast<size_t>(node * vcs_per_router_ + local);
  return packets_[stored_packet(buffers_[at * static_cast<size_t>(config_.vc_buffer_flits) + inputs_[at].first])].born;
}

void PacketNetwork::block_vc_allocation(int node, int wake, uint64_t waits) {
  Router& r = router(node);
  r.vc_blocked = true;
  r.vc_wake = wake;
  r.vc_waits = waits;
}

template <bool kHeld, bool kAge>
inline void PacketNetwork::switch_stage(int node) {
  const int vcs = config_.vcs;
  const int pbase = node * kRouterPorts;
  const uint8_t* active_out = &active_out_[static_cast<size_t>(node * vcs_per_router_)];
  Router& r = router(node);
  const uint64_t* asking = r.asking;
  uint8_t* sa_grant = r.sa_grant;
  uint8_t* sa_accept = r.sa_accept;
  uint8_t* sa_vc = r.sa_vc;
  // Request: per input port, the first ready VC (round-robin from its pointer; kAge: the one whose packet
  // was made first) for each output port.
  // requests[o]: the input ports asking for output port o; request_vc[port][o]: the VC port asks with.
  uint8_t requests[kRouterPorts] = {};
  uint8_t request_vc[kRouterPorts][kRouterPorts];
  unsigned requested = 0;  // the output ports asked for
  const bool hold = kHeld && config_.hold_switch, whole = kHeld && config_.whole_packet_events;
  if (!kHeld) {
    // One input port asking with one VC (a router forwarding one packet, often): it is granted its output
    // port and accepts it, and every round-robin pointer moves as the general rounds below would move it.
    const unsigned ports = r.asking_ports;
    if ((ports & (ports - 1)) == 0) {
      const int port = __builtin_ctz(ports);
      const uint64_t mask = asking[port];
      if (mask != 0 && (mask & (mask - 1)) == 0) {
        const int vc = __builtin_ctzll(mask);
        const int o = active_out[port * vcs + vc];
        sa_grant[o] = static_cast<uint8_t>(port);
        sa_accept[port] = static_cast<uint8_t>(o);
        sa_vc[port] = static_cast<uint8_t>(vc);
        pass_.acted = true;
        pass_.moved = true;
        send<false>(node, routing_.neighbors(node), port, vc, o);
        --r.buffered;
        --pass_.buffered;
        return;
      }
    }
  }
  for (unsigned ports = r.asking_ports; ports != 0; ports &= ports - 1) {
    const int port = __builtin_ctz(ports);
    uint64_t mask = asking[port];
    if (hold) {  // a held input port asks only for its packet's VC
      if (whole) {
        if (in_free_[static_cast<size_t>(pbase + port)] > now_) continue;
      } else if (in_hold_[static_cast<size_t>(pbase + port)] >= 0) {
        mask &= bit(in_hold_[static_cast<size_t>(pbase + port)]);
      }
    }
    const uint8_t* outs = active_out + port * vcs;
    const auto ask = [&](int vc) {  // VC vc of the port asks for its output port, unless one before it does
      const int out_port = outs[vc];
      if (requests[out_port] & bit(port)) {
        // (age: unless this VC's packet was made first; the one before it in turn keeps a tie)
        if (kAge &&
            made_before(front_born(node, port * vcs + vc), front_born(node, port * vcs + request_vc[port][out_port])))
          request_vc[port][out_port] = static_cast<uint8_t>(vc);
        return;
      }
      if (hold && (whole ? out_free_[static_cast<size_t>(pbase + out_port)] > now_
                         : out_hold_[static_cast<size_t>(pbase + out_port)] >= 0 &&
                               out_hold_[static_cast<size_t>(pbase + out_port)] != port))
        return;  // another input holds that output port
      requests[out_port] |= static_cast<uint8_t>(bit(port));
      request_vc[port][out_port] = static_cast<uint8_t>(vc);
      requested |= static_cast<unsigned>(bit(out_port));
    };
    if ((mask & (mask - 1)) == 0) {  // at most one VC asks (often): no order to follow
      if (mask != 0) ask(__builtin_ctzll(mask));
      continue;
    }
    // The VCs after the last served, then those up to it.
    const uint64_t before = (bit(sa_vc[port]) << 1) - 1;  // (up to the last served)
    for (uint64_t m = mask & ~before; m != 0; m &= m - 1) ask(__builtin_ctzll(m));
    for (uint64_t m = mask & before; m != 0; m &= m - 1) ask(__builtin_ctzll(m));
  }
  // Grant: each output port to one requesting input port (in turn, or by age); accept: each input port one grant, in
  // ascending port order (the order flits are sent in).
  uint8_t grants[kRouterPorts] = {};  // per input port, the output ports granted it
  unsigned granted = 0;               // the input ports granted something
  for (unsigned m = requested; m != 0; m &= m - 1) {
    const int o = __builtin_ctz(m);
    const int port = kAge ? oldest_after(requests[o], sa_grant[o],
                                         [&](int p) { return front_born(node, p * vcs + request_vc[p][o]); })
                          : first_after(requests[o], sa_grant[o]);
    grants[port] |= static_cast<uint8_t>(bit(o));
    granted |= static_cast<unsigned>(bit(port));
  }
  if (granted == 0) return;
  pass_.acted = true;
  pass_.moved = true;
  const int* neighbors = routing_.neighbors(node);  // (found once for the flits sent)
  int sent = 0;  // flits sent (flit by flit: send() leaves the router's counts of flits to this)
  for (unsigned m = granted; m != 0; m &= m - 1) {
    const int port = __builtin_ctz(m);
    const int o = kAge ? oldest_after(grants[port], sa_accept[port],
                                      [&](int g) { return front_born(node, port * vcs + request_vc[port][g]); })
                       : first_after(grants[port], sa_accept[port]);
    const int vc = request_vc[port][o];
    sa_grant[o] = static_cast<uint8_t>(port);
    sa_accept[port] = static_cast<uint8_t>(o);
    sa_vc[port] = static_cast<uint8_t>(vc);
    if (whole) {
      send_packet(node, port, vc, o);
    } else {
      send<kHeld>(node, neighbors, port, vc, o);
      ++sent;
    }
  }
  r.buffered -= sent;
  pass_.buffered -= sent;
}

template <bool kHeld>
inline void PacketNetwork::send(int node, const int* neighbors, int in_port, int in_vc, int out_port) {
  Router& r = router(node);
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const int in_local = in_port * vcs + in_vc;
  const size_t in_at = static_cast<size_t>(node * kRouterPorts + in_port);
  const size_t out_at = static_cast<size_t>(node * kRouterPorts + out_port);
  const uint32_t cap = static_cast<uint32_t>(config_.vc_buffer_flits);
  InputVc& in = inputs_[static_cast<size_t>(base + in_local)];
  const Flit f = unstored(buffers_[static_cast<size_t>(base + in_local) * cap + in.first]);
  in.first = in.first + 1 == cap ? 0 : in.first + 1;
  --in.count;
  // The freed slot's credit goes back upstream over the wire the flit came by.
  if (in_port == kTerminalPort) {
    push(pass_.source_credit[node >> block_shift_], EventKind::SourceCredit, node, 0, in_vc);
    ++pass_.source_credits_sent;
  } else {
    const int upstream = neighbors[in_port ^ 1];
    push(pass_.credit[upstream >> block_shift_], EventKind::Credit, upstream, in_port, in_local);
    ++pass_.credits_sent;
  }
  const int out_vc = in.out_vc;
  const int out_local = out_port * vcs + out_vc;
  OutputVc& out = outputs_[static_cast<size_t>(base + out_local)];
  if (out_port != kTerminalPort) --out.credits;  // (a node always sinks: its ejection VCs never run short)
  if (kHeld && config_.hold_switch) {            // a head takes both ports until its tail has crossed
    if (f.tail())
      in_hold_[in_at] = out_hold_[out_at] = -1;
    else if (f.head())
      in_hold_[in_at] = static_cast<int8_t>(in_vc), out_hold_[out_at] = static_cast<int8_t>(in_port);
  }
  // It asked for the switch; it stops when empty, out of credits or done with its packet (set_asking,
  // whose port bit stays set while another VC of the port asks).
  if (f.tail() || in.count == 0 || out.credits == 0) {
    uint64_t& asking = r.asking[in_port];
    asking &= ~bit(in_vc);
    if (asking == 0) r.asking_ports &= static_cast<uint8_t>(~bit(in_port));
  }
  if (__builtin_expect(recorder_ != nullptr, 0) && f.tail())
    record_tail(node, in_port, in_local, out_port, out_local, f.packet(), now_);
  if (f.tail()) {  // the VC takes its next packet from the next cycle on (route, VC, switch: 3 cycles a packet)
    out.owner = -1;
    r.free[out_port] |= bit(out_vc);
    // (freed(), here with its output VC at hand)
    const uint64_t waiting = fine_waits_ ? bit(out_local) : bit(out_port);  // (wait_bit)
    r.changed |= waiting;
    if (r.vc_waits & waiting) {
      const int room = config_.switching == Switching::CutThrough ? r.vc_wake : 0;
      if (out.credits >= room) r.vc_blocked = false;
    }
    in.state = VcState::Idle;
    in.out_vc = -1;
    in.ready = now_ + 1;
    if (in.count > 0) {  // the next packet's head
      ++r.unrouted;
      vc_word(idle_, node, in_local) |= bit(in_local & 63);
    }
  }
  if (out_port == kTerminalPort) {
    push(*pass_.eject, EventKind::Eject, node, 0, 0, f);
    return;
  }
  ++pass_.flit_hops;  // (and a hop event: add_counts counts the wheel's events by it)
  const int downstream = neighbors[out_port];
  push(pass_.hop[downstream >> block_shift_], EventKind::Flit, downstream, out_port, out_local, f);
}

void PacketNetwork::send_packet(int node, int in_port, int in_vc, int out_port) {
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const int in_local = in_port * vcs + in_vc;
  const uint32_t cap = static_cast<uint32_t>(config_.vc_buffer_flits);
  InputVc& in = inputs_[static_cast<size_t>(base + in_local)];
  Flit f = unstored(buffers_[static_cast<size_t>(base + in_local) * cap + in.first]);
  f.flits = static_cast<uint16_t>(packets_[f.packet()].flits);  // (a buffer entry is the whole packet)
  in.first = in.first + 1 == cap ? 0 : in.first + 1;
  --in.count;
  --router(node).buffered;
  pass_.buffered -= f.flits;
  pass_.acted = true;
  pass_.moved = true;
  // Its flits cross in cycles now .. tail; each slot's credit goes back upstream as its flit leaves,
  // returned here together with the tail's (so a VC wider than the packet sees its room a few cycles late).
  const uint64_t tail = now_ + f.flits - 1;
  if (__builtin_expect(recorder_ != nullptr, 0))
    record_tail(node, in_port, in_local, out_port, out_port * vcs + in.out_vc, f.packet(), tail);
  const Flit credits = Flit::credits(f.flits);
  if (in_port == kTerminalPort)
    schedule(tail + source_credit_delay_, EventKind::SourceCredit, node, 0, in_vc, credits);
  else
    schedule(tail + credit_delay_, EventKind::Credit, routing_.neighbor(node, in_port ^ 1), in_port, in_local, credits);
  const int out_vc = in.out_vc;
  if (out_port != kTerminalPort) outputs_[static_cast<size_t>(base + out_port * vcs + out_vc)].credits -= f.flits;
  in.state = VcState::Draining;
  set_asking(node, in_port, in_vc, false);
  in_free_[static_cast<size_t>(node * kRouterPorts + in_port)] = tail + 1;
  out_free_[static_cast<size_t>(node * kRouterPorts + out_port)] = tail + 1;
  schedule(tail + 1, EventKind::Release, node, in_port, in_local);
  if (out_port == kTerminalPort) {
    schedule(tail + eject_delay_, EventKind::Eject, node, 0, 0, f);
    return;
  }
  stats_.flit_hops += static_cast<uint64_t>(f.flits);  // (one thread; not pass_'s, which counts send()'s hop events)
  schedule(now_ + hop_delay_, EventKind::Flit, routing_.neighbor(node, out_port), out_port, out_port * vcs + out_vc, f);
}

void PacketNetwork::release(int node, int in_port, int in_vc) {
  Router& r = router(node);
  // As the flit-by-flit run does once the tail has crossed: the output VC is free, and the input VC
  // routes its next packet from this cycle on.
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  InputVc& in = inputs_[static_cast<size_t>(base + in_port * vcs + in_vc)];
  outputs_[static_cast<size_t>(base + in.out_port * vcs + in.out_vc)].owner = -1;
  r.free[in.out_port] |= bit(in.out_vc);
  freed(node, in.out_port, in.out_vc);
  in.state = VcState::Idle;
  in.out_vc = -1;
  in.ready = now_;
  if (in.count > 0) {
    ++r.unrouted;
    const int in_local = in_port * vcs + in_vc;
    vc_word(idle_, node, in_local) |= bit(in_local & 63);
  }
  if (r.buffered > 0) activate(node);
}

uint64_t PacketNetwork::ejected(int node, size_t period) const {
  const std::vector<uint64_t>& counts = ejected_[static_cast<size_t>(node)];
  return period < counts.size() ? counts[period] : 0;
}

std::vector<int> PacketNetwork::sources() const {
  std::vector<int> out;
  for (int node = 0; node < config_.nodes(); ++node)
    if (sources_[static_cast<size_t>(node)].used) out.push_back(node);
  return out;
}

void PacketNetwork::record_vcs(uint64_t from, uint64_t to) {
  const int max_hops = config_.dims[0] / 2 + config_.dims[1] / 2 + config_.dims[2] / 2;
  recorder_ = std::make_unique<VcRecorder>(config_.nodes(), kRouterPorts, config_.vcs, max_hops, from, to);
}

std::vector<VcActivity> PacketNetwork::vc_activities() const {
  return recorder_ ? recorder_->activities() : std::vector<VcActivity>{};
}

void PacketNetwork::record_made(int packet, int node, int vc) { recorder_->made(packet, node, vc, now_); }

void PacketNetwork::record_ask(int input) { recorder_->asks(input, now_ + 1); }

void PacketNetwork::record_grant(int input, int in_port, int output) {
  const InputVc& in = inputs_[static_cast<size_t>(input)];
  const size_t cap = static_cast<size_t>(config_.vc_buffer_flits);
  recorder_->granted(stored_packet(buffers_[static_cast<size_t>(input) * cap + in.first]), input, in_port, output,
                     now_);
}

void PacketNetwork::record_tail(int node, int in_port, int in_local, int out_port, int out_local, int packet,
                                uint64_t tail) {
  // What it came by is free again once the tail's credit is back upstream (or at the node).
  const bool injected = in_port == kTerminalPort;
  const int upstream = injected ? -1 : routing_.neighbor(node, in_port ^ 1) * vcs_per_router_ + in_local;
  const int eject = out_port == kTerminalPort ? node * vcs_per_router_ + out_local : -1;
  recorder_->tail_left(packet, upstream, eject, tail, tail + (injected ? source_credit_delay_ : credit_delay_));
}

void PacketNetwork::finish() {
  for (int node = 0; node < config_.nodes(); ++node) {
    Source& s = sources_[static_cast<size_t>(node)];
    if (s.used && s.dry_since >= 0) mark_dry(static_cast<uint64_t>(s.dry_since), now_);
  }
}

std::string PacketNetwork::vc_name(int global) const {
  static const char* kPortNames[kRouterPorts] = {"x+", "x-", "y+", "y-", "z+", "z-", "terminal"};
  const int node = global / vcs_per_router_;
  const int local = global % vcs_per_router_;
  return "n" + std::to_string(node) + "." + kPortNames[local / config_.vcs] + " vc" +
         std::to_string(local % config_.vcs);
}

void PacketNetwork::deadlock() const {
  // Follow what each blocked input VC waits for until one repeats: that is the cycle of VCs.
  int at = -1;
  for (int node = 0; node < config_.nodes() && at < 0; ++node)
    for (int i = 0; i < vcs_per_router_ && at < 0; ++i)
      if (inputs_[static_cast<size_t>(node * vcs_per_router_ + i)].count > 0) at = node * vcs_per_router_ + i;
  std::vector<int> path;
  std::vector<char> seen(inputs_.size(), 0);
  const int vcs = config_.vcs;
  while (at >= 0 && !seen[static_cast<size_t>(at)]) {
    seen[static_cast<size_t>(at)] = 1;
    path.push_back(at);
    const InputVc& in = inputs_[static_cast<size_t>(at)];
    const int node = at / vcs_per_router_;
    int next = -1;
    if (in.state == VcState::Active && in.out_port != kTerminalPort) {
      next = input_index(routing_.neighbor(node, in.out_port), in.out_port, in.out_vc);
    } else if (in.state == VcState::Routed) {
      for (uint64_t f = in.vc_mask; f != 0 && next < 0; f &= f - 1) {
        const int vc = __builtin_ctzll(f);
        const int owner = outputs_[static_cast<size_t>(node * vcs_per_router_ + in.out_port * vcs + vc)].owner;
        if (owner >= 0) next = node * vcs_per_router_ + owner;
      }
    }
    at = next;
  }
  std::string text = "the packet network is deadlocked: " + std::to_string(buffered_total_) +
                     " flits wait in routers and none can move (cycle " + std::to_string(now_) + ")";
  if (at >= 0) {
    text += "; virtual channels waiting on each other: ";
    size_t from = static_cast<size_t>(std::find(path.begin(), path.end(), at) - path.begin());
    for (size_t i = from; i < path.size(); ++i) text += vc_name(path[i]) + " -> ";
    text += vc_name(at);
  }
  throw ModelError(text);
}

}  // namespace t3sim::core
