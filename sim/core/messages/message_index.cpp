#include "sim/core/messages/message_index.hpp"

#include <algorithm>
#include <cstring>

namespace t3sim::core {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {  // splitmix64 of the running hash and the next field
  uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t message_hash(int source, int destination, int k, double bytes, MessageProtocol protocol) {
  uint64_t bits = 0;
  std::memcpy(&bits, &bytes, sizeof bits);
  uint64_t h = mix(0, static_cast<uint32_t>(source));
  h = mix(h, static_cast<uint32_t>(destination));
  h = mix(h, static_cast<uint32_t>(k));
  h = mix(h, bits);
  return mix(h, static_cast<uint64_t>(protocol));
}

}  // namespace

// 24 bits for each PE (t3sim's limit is below 2^20 ranks), 8 for the kind, 1 for message_data.
void MessageIndex::note_peer_operation(int pe, int peer, OpKind kind, bool message_data) {
  if (peer < 0 || peer == pe) return;
  peer_keys_.push_back((static_cast<uint64_t>(pe) << 40) | (static_cast<uint64_t>(peer) << 16) |
                       (static_cast<uint64_t>(kind) << 1) | (message_data ? 1 : 0));
  if (peer_keys_.size() >= 2 * peer_keys_unique_ + 4096) unique_peer_keys();
}

void MessageIndex::unique_peer_keys() {
  std::sort(peer_keys_.begin(), peer_keys_.end());
  peer_keys_.erase(std::unique(peer_keys_.begin(), peer_keys_.end()), peer_keys_.end());
  peer_keys_unique_ = peer_keys_.size();
}

void MessageIndex::for_each_peer_operation(const std::function<void(const Op&)>& f) const {
  for (const uint64_t key : peer_keys_) {  // unique since resolve()
    Op op;
    op.pe = static_cast<int>(key >> 40);
    op.peer = static_cast<int>((key >> 16) & 0xffffff);
    op.kind = static_cast<OpKind>((key >> 1) & 0xff);
    op.message_data = (key & 1) != 0;
    f(op);
  }
}

void MessageIndex::add(int pe, const std::vector<Call>& calls) {
  if (wildcard_matches_.size() <= static_cast<size_t>(pe)) wildcard_matches_.resize(static_cast<size_t>(pe) + 1);
  if (pe != adding_) {  // the k-th message of a collective between two PEs: counted on each side
    adding_ = pe;
    sent_.clear();
    received_.clear();
  }
  for (const Call& c : calls) {
    if (c.kind == Call::Kind::Shmem) {
      if (Workload::peer_is_pe(c.op)) note_peer_operation(pe, c.op.peer, c.op.kind, c.op.message_data);
      continue;
    }
    if (c.kind == Call::Kind::Send) {
      // Whatever its protocol: the envelope (or data) put, the receiver's pull and its answer.
      note_peer_operation(pe, c.peer, OpKind::Put, false);
      note_peer_operation(c.peer, pe, OpKind::Put, false);
      note_peer_operation(c.peer, pe, OpKind::Get, true);
      const MessageProtocol protocol = protocol_of(c, protocols_);
      if (is_collective(c)) {
        const int k = sent_[{c.peer, c.tag}]++;
        collective_sums_[c.tag] += message_hash(pe, c.peer, k, c.bytes, protocol);
      } else {
        channels_[{pe, c.peer, c.tag}].sends.push_back({c.bytes, protocol});
        ++messages_;
      }
    } else if (c.kind == Call::Kind::Recv) {
      if (is_collective(c)) {
        const int k = received_[{c.peer, c.tag}]++;
        collective_sums_[c.tag] -= message_hash(c.peer, pe, k, c.bytes, protocol_by_size(c.bytes, protocols_));
      } else if (c.peer == kAnySource || c.tag == kAnyTag) {
        wildcards_.push_back({pe, c.peer, c.tag, c.bytes, c.maybe_null});
      } else {
        Channel& ch = channels_[{c.peer, pe, c.tag}];
        ch.named_bytes.push_back(c.bytes);
        ++ch.named;
      }
    }
  }
}

bool MessageIndex::resolve() {
  unique_peer_keys();
  peer_keys_.shrink_to_fit();
  for (const auto& [tag, sum] : collective_sums_)
    if (sum != 0) disagreeing_.insert(tag);
  if (!disagreeing_.empty()) return false;
  std::unordered_map<int, uint64_t>().swap(collective_sums_);
  for (auto& [key, ch] : channels_) {
    if (ch.named > ch.sends.size()) return false;
    for (size_t k = 0; k < ch.named; ++k)
      if (ch.named_bytes[k] < ch.sends[k].bytes) return false;
    std::vector<double>().swap(ch.named_bytes);
  }
  // The channels into each PE, in (source, tag) order: where a wildcard looks, as expand_messages.
  std::map<int, std::vector<std::pair<ChannelKey, Channel*>>> into;
  for (auto& [key, ch] : channels_) into[std::get<1>(key)].push_back({key, &ch});
  for (const Wildcard& w : wildcards_) {
    Matched m;
    m.null = true;
    for (auto& [key, ch] : into[w.pe]) {
      const auto& [source, destination, tag] = key;
      if (ch->named + ch->taken == ch->sends.size()) continue;
      if ((w.source != kAnySource && w.source != source) || (w.tag != kAnyTag && w.tag != tag)) continue;
      const Message& msg = ch->sends[ch->named + ch->taken++];
      if (w.bytes < msg.bytes) return false;
      m = {msg.bytes, source, tag, msg.protocol, false};
      break;
    }
    if (m.null && !w.maybe_null) return false;
    null_receives_ += m.null;
    wildcard_matches_[static_cast<size_t>(w.pe)].push_back(m);
  }
  std::vector<Wildcard>().swap(wildcards_);
  for (const auto& [key, ch] : channels_)
    if (ch.named + ch.taken != ch.sends.size()) return false;
  return true;
}

Matched MessageIndex::next(int pe, const Call& c) {
  if (c.kind == Call::Kind::Send) return {c.bytes, pe, c.tag, protocol_of(c, protocols_), false};
  if (c.kind != Call::Kind::Recv) return {};
  // A collective's sends are standard ones (collectives.hpp): their protocol is their size's.
  if (is_collective(c)) return {c.bytes, c.peer, c.tag, protocol_by_size(c.bytes, protocols_), false};
  if (c.peer == kAnySource || c.tag == kAnyTag) {
    auto& q = wildcard_matches_[static_cast<size_t>(pe)];
    const Matched m = q.front();
    q.pop_front();
    return m;
  }
  Channel& ch = channels_.at({c.peer, pe, c.tag});
  const Message& msg = ch.sends[ch.served++];
  return {msg.bytes, c.peer, c.tag, msg.protocol, false};
}

}  // namespace t3sim::core
