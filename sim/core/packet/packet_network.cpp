#include "sim/core/packet/packet_network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

namespace {

constexpr int kMaxRouterVcs = kRouterPorts * 64;                        // network.virtual_channels is at most 64
constexpr int kUnlimitedCredits = std::numeric_limits<int>::max() / 2;  // the ejection channel's: a node always sinks

}  // namespace

PacketNetwork::PacketNetwork(const PacketConfig& config, uint64_t seed)
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
  buffered_.assign(static_cast<size_t>(n), 0);
  unrouted_.assign(static_cast<size_t>(n), 0);
  unallocated_.assign(static_cast<size_t>(n), 0);
  router_listed_.assign(static_cast<size_t>(n), 0);
  sources_.resize(static_cast<size_t>(n));
  for (Source& s : sources_) {
    s.credits.assign(static_cast<size_t>(v), config.vc_buffer_flits);
    s.busy.assign(static_cast<size_t>(v), 0);
  }
  ejected_.resize(static_cast<size_t>(n));
  const int longest =
      std::max(config.pipeline_cycles + config.wire_cycles, config.pipeline_cycles + config.terminal_cycles) +
      std::max(config.wire_cycles, config.terminal_cycles) + 2;
  wheel_.resize(static_cast<size_t>(longest + 1));
  sa_grant_.assign(static_cast<size_t>(n * kRouterPorts), 0);
  sa_accept_.assign(static_cast<size_t>(n * kRouterPorts), 0);
  sa_vc_.assign(static_cast<size_t>(n * kRouterPorts), 0);
  va_grant_.assign(inputs_.size(), 0);
  va_accept_.assign(inputs_.size(), 0);
  scratch_req_.resize(static_cast<size_t>(kRouterPorts * kRouterPorts));
  scratch_grant_.resize(static_cast<size_t>(vcs_per_router_));
}

int PacketNetwork::add_pacer(double bytes_per_cycle) {
  pacers_.push_back({bytes_per_cycle, 0});
  return static_cast<int>(pacers_.size()) - 1;
}

int PacketNetwork::add_message(int src, int dst, double bytes, int pacer, int network) {
  int id;
  if (!free_messages_.empty()) {
    id = free_messages_.back();
    free_messages_.pop_back();
  } else {
    id = static_cast<int>(messages_.size());
    messages_.emplace_back();
  }
  const int64_t packets = config_.packets_for(bytes);
  messages_[static_cast<size_t>(id)] = {src, dst, pacer, network, bytes, packets, packets, now_};
  Source& s = sources_[static_cast<size_t>(src)];
  s.used = true;
  s.messages.push_back(id);
  if (s.dry_since >= 0) {
    mark_dry(src, static_cast<uint64_t>(s.dry_since), now_);
    s.dry_since = -1;
  }
  if (!s.listed) {
    s.listed = true;
    active_sources_.push_back(src);
  }
  return id;
}

uint64_t PacketNetwork::next_busy_cycle() const {
  if (!active_routers_.empty() || pending_events_ > 0) return now_;
  uint64_t next = std::numeric_limits<uint64_t>::max();
  for (int node : active_sources_) {
    const Source& s = sources_[static_cast<size_t>(node)];
    if (s.packet >= 0) return now_;
    for (int m : s.messages) {  // the earliest a waiting message may inject (stops at the first ready)
      const int pacer = messages_[static_cast<size_t>(m)].pacer;
      const double ready = pacer < 0 ? 0 : pacers_[static_cast<size_t>(pacer)].next;
      if (ready <= static_cast<double>(now_)) return now_;
      next = std::min(next, static_cast<uint64_t>(std::ceil(ready)));
    }
  }
  return next;
}

void PacketNetwork::skip_to(uint64_t cycle) {
  if (cycle > now_) now_ = cycle, last_move_ = cycle;
}

void PacketNetwork::schedule(uint64_t cycle, const Event& e) {
  wheel_[cycle % wheel_.size()].push_back(e);
  ++pending_events_;
}

void PacketNetwork::activate(int node) {
  if (!router_listed_[static_cast<size_t>(node)]) {
    router_listed_[static_cast<size_t>(node)] = 1;
    active_routers_.push_back(node);
  }
}

void PacketNetwork::mark_dry(int node, uint64_t from, uint64_t to) {
  (void)node;
  const size_t last = static_cast<size_t>(to / kSamplePeriod);
  if (dry_.size() <= last) dry_.resize(last + 1, 0);
  for (size_t p = static_cast<size_t>(from / kSamplePeriod); p <= last; ++p) dry_[p] = 1;
}

void PacketNetwork::step() {
  delivered_.clear();
  std::vector<Event>& due = wheel_[now_ % wheel_.size()];
  for (size_t i = 0; i < due.size(); ++i) arrive(due[i]);  // arrive() never schedules into this slot
  pending_events_ -= due.size();
  due.clear();

  for (size_t i = 0; i < active_sources_.size();) {
    const int node = active_sources_[i];
    inject(node);
    Source& s = sources_[static_cast<size_t>(node)];
    if (s.packet < 0 && s.messages.empty()) {
      s.listed = false;
      s.dry_since = static_cast<int64_t>(now_);
      active_sources_[i] = active_sources_.back();
      active_sources_.pop_back();
    } else {
      ++i;
    }
  }

  // A router that did nothing this cycle (every flit waits for a credit or a channel another holds)
  // sleeps: nothing changes for it until a flit or a credit reaches it, which wakes it.
  size_t kept = 0;
  for (size_t i = 0; i < active_routers_.size(); ++i) {
    const int node = active_routers_[i];
    acted_ = false;
    vc_stage(node);
    switch_stage(node);
    route_stage(node);
    if (acted_ && buffered_[static_cast<size_t>(node)] > 0)
      active_routers_[kept++] = node;
    else
      router_listed_[static_cast<size_t>(node)] = 0;
  }
  active_routers_.resize(kept);
  if (buffered_total_ > 0 && now_ - last_move_ > kStallCycles) deadlock();
  ++now_;
}

void PacketNetwork::arrive(const Event& e) {
  switch (e.kind) {
    case EventKind::Flit: {
      InputVc& in = inputs_[static_cast<size_t>(e.target)];
      const size_t cap = static_cast<size_t>(config_.vc_buffer_flits);
      if (in.state == VcState::Idle && in.count == 0) ++unrouted_[static_cast<size_t>(e.target / vcs_per_router_)];
      buffers_[static_cast<size_t>(e.target) * cap + (in.first + in.count) % cap] = e.flit;
      ++in.count;
      const int node = e.target / vcs_per_router_;
      ++buffered_[static_cast<size_t>(node)];
      ++buffered_total_;
      activate(node);
      break;
    }
    case EventKind::Credit: {
      ++outputs_[static_cast<size_t>(e.target)].credits;
      const int node = e.target / vcs_per_router_;
      if (buffered_[static_cast<size_t>(node)] > 0) activate(node);
      break;
    }
    case EventKind::SourceCredit:
      ++sources_[static_cast<size_t>(e.target / config_.vcs)].credits[static_cast<size_t>(e.target % config_.vcs)];
      break;
    case EventKind::Eject: {
      const int node = e.target;
      ++stats_.flits_ejected;
      const size_t period = static_cast<size_t>(now_ / kSamplePeriod);
      std::vector<uint64_t>& counts = ejected_[static_cast<size_t>(node)];
      if (counts.size() <= period) counts.resize(period + 1, 0);
      ++counts[period];
      if (!e.flit.tail) break;
      Packet& p = packets_[static_cast<size_t>(e.flit.packet)];
      Message& m = messages_[static_cast<size_t>(p.message)];
      ++stats_.packets_delivered;
      stats_.latency_cycles_sum += static_cast<double>(now_ - m.arrived);
      free_packets_.push_back(e.flit.packet);
      if (--m.undelivered == 0) {
        delivered_.push_back(p.message);
        free_messages_.push_back(p.message);
      }
      break;
    }
  }
}

void PacketNetwork::inject(int node) {
  Source& s = sources_[static_cast<size_t>(node)];
  const int vcs = config_.vcs;
  if (s.packet < 0) {
    // A new packet: the next message (round-robin) that may inject, on a free VC with room.
    int chosen = -1;
    for (size_t tried = 0; tried < s.messages.size() && chosen < 0; ++tried) {
      const size_t at = (s.turn + tried) % s.messages.size();
      const Message& m = messages_[static_cast<size_t>(s.messages[at])];
      if (m.arrived >= now_) continue;  // a message enters the source queue the cycle after it is given
      if (m.pacer >= 0 && pacers_[static_cast<size_t>(m.pacer)].next > static_cast<double>(now_)) continue;
      chosen = static_cast<int>(at);
    }
    if (chosen < 0) return;
    Message& m = messages_[static_cast<size_t>(s.messages[static_cast<size_t>(chosen)])];
    const double payload = std::min(m.bytes_left, static_cast<double>(config_.payload_bytes()));
    const int flits = config_.flits_for(payload);
    int vc = -1;
    for (int tried = 0; tried < vcs && vc < 0; ++tried) {
      const int c = (s.vc_turn + tried) % vcs;
      const int need = config_.switching == Switching::CutThrough ? flits : 1;
      if (!s.busy[static_cast<size_t>(c)] && s.credits[static_cast<size_t>(c)] >= need) vc = c;
    }
    if (vc < 0) return;
    s.vc_turn = (vc + 1) % vcs;
    int id;
    if (!free_packets_.empty()) {
      id = free_packets_.back();
      free_packets_.pop_back();
    } else {
      id = static_cast<int>(packets_.size());
      packets_.emplace_back();
    }
    const int message = s.messages[static_cast<size_t>(chosen)];
    Packet& made = packets_[static_cast<size_t>(id)];
    made = {message, flits, PacketRoute{}};
    made.route.src = node;
    made.route.dst = m.dst;
    made.route.network = static_cast<uint8_t>(m.network);
    routing_.start(node, made.route, coin_);
    ++stats_.packets_made;
    m.bytes_left -= payload;
    if (m.pacer >= 0) {
      Pacer& p = pacers_[static_cast<size_t>(m.pacer)];
      p.next = std::max(p.next, static_cast<double>(now_)) + payload / p.bytes_per_cycle;
    }
    if (--m.to_make == 0) {
      s.messages.erase(s.messages.begin() + chosen);
      s.turn = s.messages.empty() ? 0 : static_cast<size_t>(chosen) % s.messages.size();
    } else {
      s.turn = static_cast<size_t>(chosen + 1) % s.messages.size();
    }
    s.packet = id;
    s.sent = 0;
    s.vc = vc;
    s.busy[static_cast<size_t>(vc)] = 1;
  }
  int& credits = s.credits[static_cast<size_t>(s.vc)];
  if (credits == 0) return;
  --credits;
  const Packet& p = packets_[static_cast<size_t>(s.packet)];
  Flit f{s.packet, s.sent == 0, s.sent + 1 == p.flits};
  schedule(now_ + static_cast<uint64_t>(config_.terminal_cycles),
           {EventKind::Flit, input_index(node, kTerminalPort, s.vc), f});
  ++stats_.flits_injected;
  last_move_ = now_;
  if (++s.sent == p.flits) {
    s.busy[static_cast<size_t>(s.vc)] = 0;
    s.packet = -1;
  }
}

void PacketNetwork::route_stage(int node) {
  if (unrouted_[static_cast<size_t>(node)] == 0) return;
  const int base = node * vcs_per_router_;
  const size_t cap = static_cast<size_t>(config_.vc_buffer_flits);
  for (int i = 0; i < vcs_per_router_; ++i) {
    InputVc& in = inputs_[static_cast<size_t>(base + i)];
    if (in.state != VcState::Idle || in.count == 0 || in.ready > now_) continue;
    const Flit& f = buffers_[static_cast<size_t>(base + i) * cap + in.first];
    Packet& p = packets_[static_cast<size_t>(f.packet)];
    const PacketHop hop = routing_.next(node, i / config_.vcs, p.route, coin_);
    in.state = VcState::Routed;
    --unrouted_[static_cast<size_t>(node)];
    ++unallocated_[static_cast<size_t>(node)];
    acted_ = true;
    in.out_port = in.escape_port = static_cast<uint8_t>(hop.out_port);
    in.vc_begin = in.escape_begin = static_cast<int16_t>(hop.vc_begin);
    in.vc_end = in.escape_end = static_cast<int16_t>(hop.vc_end);
    in.productive = config_.adaptive ? hop.productive : 0;
    in.ready = now_ + 1;
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
    in.vc_begin = static_cast<int16_t>(adaptive);
    in.vc_end = static_cast<int16_t>(adaptive + 1);
  } else {
    in.out_port = in.escape_port;
    in.vc_begin = in.escape_begin;
    in.vc_end = in.escape_end;
  }
}

void PacketNetwork::vc_stage(int node) {
  if (unallocated_[static_cast<size_t>(node)] == 0) return;
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const size_t cap = static_cast<size_t>(config_.vc_buffer_flits);
  const int n = vcs_per_router_;
  // The input VCs asking for an output VC this cycle.
  int requesters[kMaxRouterVcs];
  int count = 0;
  for (int i = 0; i < n; ++i) {
    InputVc& in = inputs_[static_cast<size_t>(base + i)];
    if (in.state != VcState::Routed || in.ready > now_) continue;
    requesters[count++] = i;
    if (in.productive)
      choose_adaptive(
          node, in,
          packets_[static_cast<size_t>(buffers_[static_cast<size_t>(base + i) * cap + in.first].packet)].flits);
  }
  if (count == 0) return;
  // Grant: each free output VC to the requester nearest after its round-robin pointer.
  int best[kMaxRouterVcs];
  int best_distance[kMaxRouterVcs];
  std::fill(best, best + n, -1);
  for (int r = 0; r < count; ++r) {
    const int i = requesters[r];
    const InputVc& in = inputs_[static_cast<size_t>(base + i)];
    int need = 0;  // wormhole: a free output VC, whatever its credits
    if (config_.switching == Switching::CutThrough)
      need = packets_[static_cast<size_t>(buffers_[static_cast<size_t>(base + i) * cap + in.first].packet)].flits;
    for (int vc = in.vc_begin; vc < in.vc_end; ++vc) {
      const int o = in.out_port * vcs + vc;
      const OutputVc& out = outputs_[static_cast<size_t>(base + o)];
      if (out.owner >= 0 || out.credits < need) continue;
      const int distance = (i - va_grant_[static_cast<size_t>(base + o)] + n) % n;
      if (best[o] < 0 || distance < best_distance[o]) best[o] = i, best_distance[o] = distance;
    }
  }
  // Accept: each requester takes, of the output VCs granted it, the one nearest after its pointer.
  for (int r = 0; r < count; ++r) {
    const int i = requesters[r];
    InputVc& in = inputs_[static_cast<size_t>(base + i)];
    const int start = va_accept_[static_cast<size_t>(base + i)];
    for (int t = 0; t < vcs; ++t) {
      const int vc = (start + t) % vcs;
      const int o = in.out_port * vcs + vc;
      if (best[o] != i) continue;
      outputs_[static_cast<size_t>(base + o)].owner = i;
      va_grant_[static_cast<size_t>(base + o)] = static_cast<uint16_t>((i + 1) % n);
      va_accept_[static_cast<size_t>(base + i)] = static_cast<uint16_t>((vc + 1) % vcs);
      in.out_vc = static_cast<int16_t>(vc);
      in.state = VcState::Active;
      --unallocated_[static_cast<size_t>(node)];
      acted_ = true;
      in.ready = now_ + 1;
      break;
    }
  }
}

void PacketNetwork::switch_stage(int node) {
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const int pbase = node * kRouterPorts;
  // Request: per input port, the first ready VC (round-robin from its pointer) for each output port.
  std::fill(scratch_req_.begin(), scratch_req_.end(), -1);
  bool any = false;
  for (int port = 0; port < kRouterPorts; ++port) {
    const int start = sa_vc_[static_cast<size_t>(pbase + port)];
    for (int t = 0, vc = start; t < vcs; ++t, vc = vc + 1 == vcs ? 0 : vc + 1) {
      const int i = port * vcs + vc;
      const InputVc& in = inputs_[static_cast<size_t>(base + i)];
      if (in.state != VcState::Active || in.ready > now_ || in.count == 0) continue;
      if (outputs_[static_cast<size_t>(base + in.out_port * vcs + in.out_vc)].credits <= 0) continue;
      int& req = scratch_req_[static_cast<size_t>(port * kRouterPorts + in.out_port)];
      if (req < 0) req = vc, any = true;
    }
  }
  if (!any) return;
  // Grant: each output port to one requesting input port; accept: each input port one grant.
  int granted[kRouterPorts];
  for (int o = 0; o < kRouterPorts; ++o) {
    granted[o] = -1;
    const int start = sa_grant_[static_cast<size_t>(pbase + o)];
    for (int t = 0; t < kRouterPorts; ++t) {
      const int port = (start + t) % kRouterPorts;
      if (scratch_req_[static_cast<size_t>(port * kRouterPorts + o)] >= 0) {
        granted[o] = port;
        break;
      }
    }
  }
  for (int port = 0; port < kRouterPorts; ++port) {
    const int start = sa_accept_[static_cast<size_t>(pbase + port)];
    for (int t = 0; t < kRouterPorts; ++t) {
      const int o = (start + t) % kRouterPorts;
      if (granted[o] != port) continue;
      const int vc = scratch_req_[static_cast<size_t>(port * kRouterPorts + o)];
      sa_grant_[static_cast<size_t>(pbase + o)] = static_cast<uint8_t>((port + 1) % kRouterPorts);
      sa_accept_[static_cast<size_t>(pbase + port)] = static_cast<uint8_t>((o + 1) % kRouterPorts);
      sa_vc_[static_cast<size_t>(pbase + port)] = static_cast<uint8_t>((vc + 1) % vcs);
      send(node, port * vcs + vc, o);
      break;
    }
  }
}

void PacketNetwork::send(int node, int in_local, int out_port) {
  const int base = node * vcs_per_router_;
  const int vcs = config_.vcs;
  const size_t cap = static_cast<size_t>(config_.vc_buffer_flits);
  InputVc& in = inputs_[static_cast<size_t>(base + in_local)];
  Flit f = buffers_[static_cast<size_t>(base + in_local) * cap + in.first];
  in.first = static_cast<uint32_t>((in.first + 1) % cap);
  --in.count;
  --buffered_[static_cast<size_t>(node)];
  --buffered_total_;
  acted_ = true;
  last_move_ = now_;
  const int in_port = in_local / vcs;
  const int in_vc = in_local % vcs;
  // The freed slot's credit goes back upstream over the wire the flit came by.
  if (in_port == kTerminalPort)
    schedule(now_ + 1 + static_cast<uint64_t>(config_.terminal_cycles),
             {EventKind::SourceCredit, node * vcs + in_vc, {}});
  else
    schedule(now_ + 1 + static_cast<uint64_t>(config_.wire_cycles),
             {EventKind::Credit, input_index(routing_.neighbor(node, in_port ^ 1), in_port, in_vc), {}});
  const int out_vc = in.out_vc;
  OutputVc& out = outputs_[static_cast<size_t>(base + out_port * vcs + out_vc)];
  --out.credits;
  if (f.tail) {  // the VC takes its next packet from the next cycle on (route, VC, switch: 3 cycles a packet)
    out.owner = -1;
    in.state = VcState::Idle;
    in.out_vc = -1;
    in.ready = now_ + 1;
    if (in.count > 0) ++unrouted_[static_cast<size_t>(node)];  // the next packet's head
  }
  const uint64_t traverse = static_cast<uint64_t>(config_.pipeline_cycles - 2);
  if (out_port == kTerminalPort) {
    schedule(now_ + traverse + static_cast<uint64_t>(config_.terminal_cycles), {EventKind::Eject, node, f});
    return;
  }
  ++stats_.flit_hops;
  const uint64_t at = now_ + traverse + static_cast<uint64_t>(config_.wire_cycles);
  schedule(at, {EventKind::Flit, input_index(routing_.neighbor(node, out_port), out_port, out_vc), f});
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

void PacketNetwork::finish() {
  for (int node = 0; node < config_.nodes(); ++node) {
    Source& s = sources_[static_cast<size_t>(node)];
    if (s.used && s.dry_since >= 0) mark_dry(node, static_cast<uint64_t>(s.dry_since), now_);
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
      for (int vc = in.vc_begin; vc < in.vc_end && next < 0; ++vc) {
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
