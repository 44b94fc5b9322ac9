// A calendar of callbacks by simulated time: the closed-form transport's whole clock, and the solver
// transport's own queue under SimGrid's clock. Events due at the same time run in the order they
// were scheduled (a sequence number breaks ties), so runs are deterministic.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace t3sim::core {

class EventCalendar {
 public:
  using Callback = std::function<void()>;

  void schedule(double time, Callback then) { queue_.push({time, seq_++, std::move(then)}); }
  bool empty() const { return queue_.empty(); }
  // Time of the earliest event (only when not empty).
  double next_time() const { return queue_.top().time; }
  // Removes and returns the earliest event's callback.
  Callback pop() {
    Callback c = std::move(const_cast<Event&>(queue_.top()).then);  // moved out just before pop
    queue_.pop();
    return c;
  }
  size_t size() const { return queue_.size(); }
  // Time and sequence of the earliest event, to merge with another queue that draws its sequence
  // numbers from take_sequence() (the solver transport's completions).
  uint64_t next_sequence() const { return queue_.top().seq; }
  uint64_t take_sequence() { return seq_++; }

 private:
  struct Event {
    double time;
    uint64_t seq;
    Callback then;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  uint64_t seq_ = 0;
};

}  // namespace t3sim::core
