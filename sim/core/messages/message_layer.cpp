#include "sim/core/messages/message_layer.hpp"

#include <deque>
#include <map>
#include <tuple>

namespace t3sim::core {
namespace {

using Channel = std::tuple<int, int, int>;  // (source, destination, tag)
struct CallRef {
  int pe;
  size_t index;
};

std::string channel_flag(const char* what, int pe, int tag) {
  return std::string("mp.") + what + " " + std::to_string(pe) + " " + std::to_string(tag);
}

std::string describe(const Call& c, int pe) {
  const bool send = c.kind == Call::Kind::Send;
  return std::string(send ? (c.blocking ? "send" : "isend") : (c.blocking ? "recv" : "irecv")) + " of PE " +
         std::to_string(pe) + (send ? " to PE " : " from ") +
         (c.peer == kAnySource ? std::string("any PE") : (send ? "" : "PE ") + std::to_string(c.peer)) + " (" +
         (c.tag == kAnyTag ? std::string("any tag") : "tag " + std::to_string(c.tag)) + ", " +
         std::to_string(static_cast<long long>(c.bytes)) + " bytes)";
}

// Matches every send with a receive: first every receive naming its source and tag (MPI order per
// channel), then the wildcard receives in program order, each taking the earliest remaining send to its
// PE from the lowest-numbered sender with a fitting tag (a trace does not say which arrived first).
std::vector<std::vector<Matched>> match(const std::vector<std::vector<Call>>& programs,
                                        const MessageProtocols& protocols) {
  std::map<Channel, std::deque<CallRef>> sends, recvs;
  std::vector<CallRef> wildcards;
  std::vector<std::vector<Matched>> matched(programs.size());
  for (size_t pe = 0; pe < programs.size(); ++pe) {
    matched[pe].assign(programs[pe].size(), Matched{});
    for (size_t i = 0; i < programs[pe].size(); ++i) {
      const Call& c = programs[pe][i];
      const int me = static_cast<int>(pe);
      if (c.kind == Call::Kind::Send) sends[{me, c.peer, c.tag}].push_back({me, i});
      if (c.kind != Call::Kind::Recv) continue;
      if (c.peer == kAnySource || c.tag == kAnyTag)
        wildcards.push_back({me, i});
      else
        recvs[{c.peer, me, c.tag}].push_back({me, i});
    }
  }
  auto pair_up = [&](const CallRef& s, const CallRef& r) {
    const Call& send = programs[static_cast<size_t>(s.pe)][s.index];
    const Call& recv = programs[static_cast<size_t>(r.pe)][r.index];
    if (recv.bytes < send.bytes)
      throw MessageError(r.pe, recv, describe(recv, r.pe) + " is smaller than its message: " + describe(send, s.pe));
    const MessageProtocol protocol = protocol_of(send, protocols);
    matched[static_cast<size_t>(s.pe)][s.index] = {send.bytes, s.pe, send.tag, protocol};
    matched[static_cast<size_t>(r.pe)][r.index] = {send.bytes, s.pe, send.tag, protocol};
  };
  for (auto& [channel, queue] : sends) {
    auto& partners = recvs[channel];
    while (!queue.empty() && !partners.empty()) {
      pair_up(queue.front(), partners.front());
      queue.pop_front();
      partners.pop_front();
    }
  }
  for (const CallRef& r : wildcards) {
    const Call& recv = programs[static_cast<size_t>(r.pe)][r.index];
    bool found = false;
    for (auto& [channel, queue] : sends) {  // in (source, destination, tag) order
      const auto& [source, destination, tag] = channel;
      if (queue.empty() || destination != r.pe) continue;
      if ((recv.peer != kAnySource && recv.peer != source) || (recv.tag != kAnyTag && recv.tag != tag)) continue;
      pair_up(queue.front(), r);
      queue.pop_front();
      found = true;
      break;
    }
    if (!found && !recv.maybe_null) throw MessageError(r.pe, recv, describe(recv, r.pe) + " has no matching send");
    if (!found) matched[static_cast<size_t>(r.pe)][r.index].null = true;
  }
  for (auto& [channel, queue] : sends)
    if (!queue.empty()) {
      const CallRef& s = queue.front();
      const Call& send = programs[static_cast<size_t>(s.pe)][s.index];
      throw MessageError(s.pe, send,
                         describe(send, s.pe) + " has no matching receive at PE " + std::to_string(send.peer));
    }
  for (auto& [channel, queue] : recvs)
    if (!queue.empty()) {
      const CallRef r = queue.front();
      const Call& recv = programs[static_cast<size_t>(r.pe)][r.index];
      throw MessageError(r.pe, recv, describe(recv, r.pe) + " has no matching send");
    }
  return matched;
}

// Emits the operations of one PE's program.
class Emitter {
 public:
  Emitter(int pe, std::vector<Op>& out, InternTable& flags) : pe_(pe), out_(out), flags_(flags) {}

  void send_start(const Call& c, const Matched& m) {
    add(c, OpKind::MpiSend, -1, 0, kNoName);
    const double bytes = m.bytes;
    switch (m.protocol) {
      case MessageProtocol::Queue:
        // One hardware message: the block lands whole in the receiver's queue and is its own notice
        // (the queue's tail moves when it arrives), so the flag rises on arrival.
        add(c, OpKind::Put, c.peer, kHardwareMessageBytes, channel("queue", pe_, c.tag));
        out_.back().order = SignalOrder::OnArrival;
        break;
      case MessageProtocol::Eager:
        // Envelope and data into the receiver's buffer, then the flag that says they are there.
        add(c, OpKind::Put, c.peer, std::max(bytes, kControlBytes), channel("eager", pe_, c.tag));
        out_.back().order = SignalOrder::Fence;
        break;
      case MessageProtocol::Rendezvous:
        add(c, OpKind::Put, c.peer, kControlBytes, channel("rts", pe_, c.tag));
        break;
    }
  }
  // `site`: the call the operations are reported under (the wait that completes a request, or the
  // blocking call itself): time in a wait shows as the wait's, as an MPI profile shows it.
  void send_finish(const Call& c, const Matched& m, const Call& site) {
    if (m.protocol == MessageProtocol::Rendezvous) add(site, OpKind::Wait, -1, 0, channel("done", c.peer, c.tag));
  }
  void receive(const Matched& m, const Call& site) {
    if (m.null) return;  // from MPI_PROC_NULL: completes at once
    // The receive's own cost is its matching of the arrived envelope: after the wait, so a receive
    // posted early does not hide it.
    if (m.protocol != MessageProtocol::Rendezvous) {
      add(site, OpKind::Wait, -1, 0,
          channel(m.protocol == MessageProtocol::Queue ? "queue" : "eager", m.source, m.tag));
      add(site, OpKind::MpiRecv, -1, 0, kNoName);
      if (m.bytes > 0) add(site, OpKind::Get, pe_, m.bytes, kNoName);  // out of the queue or the eager buffer
      return;
    }
    add(site, OpKind::Wait, -1, 0, channel("rts", m.source, m.tag));
    add(site, OpKind::MpiRecv, -1, 0, kNoName);
    add(site, OpKind::Get, m.source, m.bytes, kNoName);
    out_.back().message_data = true;  // pulled by the MPI library: draws on the PE's MPI rate
    add(site, OpKind::Put, m.source, kControlBytes, channel("done", pe_, m.tag));
  }
  // A SHMEM operation of the program, reported under its call's label, line and measurement.
  void passthrough(const Call& c) {
    out_.push_back(c.op);
    Op& op = out_.back();
    op.pe = pe_;
    op.label = c.label;
    op.step = c.line;
    op.iteration = c.iteration;
  }

 private:
  NameId channel(const char* what, int pe, int tag) { return flags_.intern(channel_flag(what, pe, tag)); }
  void add(const Call& c, OpKind kind, int peer, double bytes, NameId flag) {
    // pattern_op: puts of the layer go on in the background; their flags say when they land
    out_.push_back(pattern_op(kind, pe_, peer, bytes, flag, c.label, c.iteration));
    out_.back().step = c.line;
  }
  int pe_;
  std::vector<Op>& out_;
  InternTable& flags_;
};

}  // namespace

MessageProtocol protocol_by_size(double bytes, const MessageProtocols& protocols) {
  if (protocols.queue_bytes > 0 && bytes <= protocols.queue_bytes) return MessageProtocol::Queue;
  return bytes <= protocols.eager_threshold ? MessageProtocol::Eager : MessageProtocol::Rendezvous;
}

MessageProtocol protocol_of(const Call& send, const MessageProtocols& protocols) {
  switch (send.mode) {
    case Call::Mode::Synchronous:
      return MessageProtocol::Rendezvous;
    case Call::Mode::Buffered:  // never waits for its receive: the queue when it fits, else the buffer
      return protocol_by_size(send.bytes, protocols) == MessageProtocol::Queue ? MessageProtocol::Queue
                                                                               : MessageProtocol::Eager;
    case Call::Mode::Standard:
      break;
  }
  return protocol_by_size(send.bytes, protocols);
}

// Before blocking on a rendezvous send, the library completes the receives already posted in the same
// context: its partner may be waiting for one of them (the progress MPI makes inside any blocking call).
// Contexts as MPI's communicators: the program's tags (>= 0) are one, each collective (its own negative
// tag) another, so a receive the program posted before a collective is not forced to complete inside it
// (its sender may send only after the collective).
void MessageExpander::serve_posted_receives(const Call& site, int tag, std::vector<Op>& out) {
  auto context = [](int t) { return t < 0 && t != kAnyTag ? t : 0; };
  Emitter emit(pe_, out, *flags_);
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.call.kind != Call::Kind::Recv || context(it->second.call.tag) != context(tag)) {
      ++it;
      continue;
    }
    emit.receive(it->second.matched, site);
    it = pending_.erase(it);
  }
}

void MessageExpander::finish_request(const Posted& p, const Call& site, std::vector<Op>& out) {
  if (p.call.kind == Call::Kind::Recv) return Emitter(pe_, out, *flags_).receive(p.matched, site);
  if (p.matched.protocol == MessageProtocol::Rendezvous) serve_posted_receives(site, p.call.tag, out);
  Emitter(pe_, out, *flags_).send_finish(p.call, p.matched, site);
}

void MessageExpander::feed(const Call& c, const Matched& m, std::vector<Op>& out) {
  Emitter emit(pe_, out, *flags_);
  switch (c.kind) {
    case Call::Kind::Shmem:
      emit.passthrough(c);
      break;
    case Call::Kind::Send:
      emit.send_start(c, m);
      if (c.blocking)
        finish_request({c, m}, c, out);
      else
        pending_[c.request] = {c, m};
      break;
    case Call::Kind::Recv:
      if (c.blocking)
        emit.receive(m, c);
      else
        pending_[c.request] = {c, m};
      break;
    case Call::Kind::WaitRequest: {
      auto it = pending_.find(c.request);
      if (it == pending_.end()) break;  // already completed while serving an earlier wait
      const Posted p = std::move(it->second);
      pending_.erase(it);
      finish_request(p, c, out);
      break;
    }
    case Call::Kind::WaitAll: {  // its receives before its sends
      std::map<int, Posted> all;
      all.swap(pending_);
      for (const auto& [request, p] : all)
        if (p.call.kind == Call::Kind::Recv) finish_request(p, c, out);
      for (const auto& [request, p] : all)
        if (p.call.kind == Call::Kind::Send) finish_request(p, c, out);
      break;
    }
  }
}

void MessageExpander::finish(std::vector<Op>& out) {
  std::map<int, Posted> left;
  left.swap(pending_);
  for (const auto& [request, p] : left) finish_request(p, p.call, out);  // by the program's end (finalize)
}

namespace {
// `owned`, when given, is `programs` itself, whose PEs' calls are freed as soon as they are expanded
// (a large trace's calls and their operations are never all held at once).
std::vector<Op> expand(const std::vector<std::vector<Call>>& programs, const MessageProtocols& protocols,
                       InternTable& flags, size_t* null_receives, std::vector<std::vector<Call>>* owned) {
  std::vector<std::vector<Matched>> matched = match(programs, protocols);
  if (null_receives) {
    *null_receives = 0;
    for (const auto& pe : matched)
      for (const Matched& m : pe) *null_receives += m.null;
  }
  std::vector<Op> ops;
  for (size_t pe = 0; pe < programs.size(); ++pe) {
    MessageExpander expander(static_cast<int>(pe), flags);
    for (size_t i = 0; i < programs[pe].size(); ++i) expander.feed(programs[pe][i], matched[pe][i], ops);
    expander.finish(ops);
    std::vector<Matched>().swap(matched[pe]);
    if (owned) std::vector<Call>().swap((*owned)[pe]);
  }
  return ops;
}
}  // namespace

std::vector<Op> expand_messages(const std::vector<std::vector<Call>>& programs, const MessageProtocols& protocols,
                                InternTable& flags, size_t* null_receives) {
  return expand(programs, protocols, flags, null_receives, nullptr);
}

std::vector<Op> expand_messages(std::vector<std::vector<Call>>&& programs, const MessageProtocols& protocols,
                                InternTable& flags, size_t* null_receives) {
  return expand(programs, protocols, flags, null_receives, &programs);
}

}  // namespace t3sim::core
