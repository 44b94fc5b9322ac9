// Message matching for a replay that generates each PE's operations as it reaches them (the streamed
// trace replay): built from every PE's calls, PE by PE, after which the calls can be freed, it keeps
// per point-to-point message only what its receiver needs (the sender's bytes and protocol: 16 bytes,
// and the receive's 8 while building), and gives every send and receive the same match as
// expand_messages's whole-program matching (message_layer.hpp), in the same order.
//
// A collective's messages (negative tags, message_layer.hpp) are not stored: within one collective
// every rank expands the same algorithm, so a receive's message is, as a rule, the size the receiver
// itself names. The index checks that rule without holding the messages: per collective instance it
// sums a hash of (source, destination, k-th message between them, bytes, protocol) over the sends and
// subtracts it over the receives; resolve() fails unless every sum is zero (then ranks disagree on a
// collective's size, and an index that holds those collectives' messages matches them exactly).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/core/messages/message_layer.hpp"

namespace t3sim::core {

class MessageIndex {
 public:
  // `exact_collectives`: the tags of collectives whose messages are held as point-to-point ones are
  // (from an earlier index's disagreeing_collectives()).
  explicit MessageIndex(const MessageProtocols& protocols, std::set<int> exact_collectives = {})
      : protocols_(protocols), exact_(std::move(exact_collectives)) {}
  // PE `pe`'s calls in program order, in as many batches as the caller likes; PEs in order 0, 1, ...
  void add(int pe, const std::vector<Call>& calls);
  // Pairs every receive with its send: the named ones per channel in order, then the wildcards in
  // program order, as expand_messages. False when a message has no partner, a receive is smaller than
  // its message, or a collective's sides disagree: the whole-program path then names the call.
  bool resolve();
  // After a resolve() that failed: the collectives (tags) whose sides disagree on a message's size,
  // which an index made with them as exact_collectives matches exactly (a receive may be larger than
  // its message: MPI allows it).
  const std::set<int>& disagreeing_collectives() const { return disagreeing_; }
  // Receives from any source that no send was left for (MPI_PROC_NULL): known after resolve().
  size_t null_receives() const { return null_receives_; }
  // The match of PE pe's send or receive `c`, its calls taken in program order.
  Matched next(int pe, const Call& c);
  // One operation per distinct (pe, peer, kind, message_data) the calls can expand to, in that order
  // (OpSource::for_each_peer_operation).
  void for_each_peer_operation(const std::function<void(const Op&)>& f) const;
  // Point-to-point messages held.
  size_t messages() const { return messages_; }

 private:
  struct Message {
    double bytes = 0;
    MessageProtocol protocol = MessageProtocol::Eager;
  };
  struct Channel {
    std::vector<Message> sends;       // in the sender's program order
    std::vector<double> named_bytes;  // the named receives' own sizes, until resolve() checks them
    size_t named = 0;                 // receives naming this source and tag
    size_t taken = 0;                 // sends after the named ones taken by wildcards
    size_t served = 0;                // named receives matched so far by next()
  };
  struct Wildcard {
    int pe = 0;
    int source = kAnySource;
    int tag = kAnyTag;
    double bytes = 0;
    bool maybe_null = false;
  };
  using ChannelKey = std::tuple<int, int, int>;  // (source, destination, tag)
  bool is_collective(const Call& c) const {
    return c.tag < 0 && c.tag != kAnyTag && c.peer != kAnySource && !exact_.count(c.tag);
  }
  void note_peer_operation(int pe, int peer, OpKind kind, bool message_data);

  MessageProtocols protocols_;
  std::set<int> exact_, disagreeing_;
  std::map<ChannelKey, Channel> channels_;
  std::vector<Wildcard> wildcards_;
  std::vector<std::deque<Matched>> wildcard_matches_;  // per PE, in program order
  std::unordered_map<int, uint64_t> collective_sums_;  // per collective tag
  // The PE being added, and its collective messages so far per (peer, tag): the k-th between two PEs.
  int adding_ = -1;
  std::map<std::pair<int, int>, int> sent_, received_;
  // (pe, peer, kind, message_data) packed in 64 bits; sorted and made unique whenever it has doubled
  // since the last time, so it holds at most twice the distinct ones (8 bytes each).
  std::vector<uint64_t> peer_keys_;
  size_t peer_keys_unique_ = 0;
  void unique_peer_keys();
  size_t null_receives_ = 0;
  size_t messages_ = 0;
};

}  // namespace t3sim::core
