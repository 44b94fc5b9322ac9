// A calendar of callbacks by simulated time: the closed-form transport's whole clock, and the solver
// transport's own queue under SimGrid's clock. Events due at the same time run in the order they
// were scheduled (a sequence number breaks ties), so runs are deterministic. The heap holds small
// records (time, sequence, slot); the callbacks stay in slots, so sifting moves no std::function.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/core/support/callback_slots.hpp"

namespace t3sim::core {

class EventCalendar {
 public:
  using Callback = std::function<void()>;

  void schedule(double time, Callback then) {
    const int slot = slots_.put(std::move(then));
    heap_.push_back({time, seq_++, slot});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  bool empty() const { return heap_.empty(); }
  // Time of the earliest event (only when not empty).
  double next_time() const { return heap_.front().time; }
  // Removes and returns the earliest event's callback.
  Callback pop() {
    const int slot = heap_.front().slot;
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    heap_.pop_back();
    return slots_.take(slot);
  }
  size_t size() const { return heap_.size(); }
  // Time and sequence of the earliest event, to merge with another queue that draws its sequence
  // numbers from take_sequence() (the solver transport's completions).
  uint64_t next_sequence() const { return heap_.front().seq; }
  uint64_t take_sequence() { return seq_++; }

 private:
  struct Event {
    double time;
    uint64_t seq;
    int slot;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::vector<Event> heap_;  // min-heap by (time, seq)
  CallbackSlots slots_;
  uint64_t seq_ = 0;
};

}  // namespace t3sim::core
