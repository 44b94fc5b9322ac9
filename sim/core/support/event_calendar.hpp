// A calendar of callbacks by simulated time: the closed-form and packet transports' whole clock, and
// the solver transport's own queue under SimGrid's clock. Events due at the same time run in the order
// they were scheduled (a sequence number breaks ties), so runs are deterministic. The queues hold
// small records (time, sequence, task): a Task (task.hpp) as it is, a std::function parked in a slot,
// so sifting moves no std::function.
//
// Most events of a run come with one of a few delays (a zero-delay hand-over, a path latency of a few
// hop counts): events scheduled with the same delay from a clock that does not go back are due in the
// order they were scheduled, so each such delay has a lane, a first-in first-out queue, and only the
// lanes' heads are compared. Every other event goes to a binary heap. The order events come out in is
// the one (time, sequence) order either way: lanes only make finding the earliest cheaper.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "sim/core/support/callback_slots.hpp"
#include "sim/core/support/task.hpp"

namespace t3sim::core {

class EventCalendar {
 public:
  using Callback = std::function<void()>;

  EventCalendar() { lane_hint_.fill(-1); }
  // Schedules `then` at `time` (on the heap).
  void schedule(double time, Callback then) { add(time, slots_.park(std::move(then)), kHeap); }
  void schedule(double time, Task then) { add(time, then, kHeap); }
  // Schedules `then` at now + delay: the same as schedule(now + delay, then), in a lane of its delay.
  void schedule_after(double now, double delay, Callback then) {
    add(now + delay, slots_.park(std::move(then)), lane_for(delay));
  }
  void schedule_after(double now, double delay, Task then) { add(now + delay, then, lane_for(delay)); }
  bool empty() const { return heap_.empty() && heads_.empty(); }
  // Time of the earliest event (only when not empty).
  double next_time() const { return earliest().time; }
  // Removes the earliest event; returns its task (run it: it runs the event's callback).
  Task pop() {
    Task task;
    if (heap_first()) {
      task = heap_.front().task;
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
    } else {
      task = heads_.front().task;
      pop_lane_head();
    }
    return task;
  }
  size_t size() const {
    size_t n = heap_.size() + heads_.size();
    for (const Lane& l : lanes_) n += l.items.size() - l.head;
    return n;
  }
  // Time and sequence of the earliest event, to merge with another queue that draws its sequence
  // numbers from take_sequence() (the solver transport's completions).
  uint64_t next_sequence() const { return earliest().seq; }
  uint64_t take_sequence() { return seq_++; }

 private:
  struct Event {
    double time;
    uint64_t seq;
    Task task;
    int lane;  // in heads_: whose head it is
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  // Events of one delay, in the order scheduled (which is their (time, sequence) order); its first
  // not yet popped is in heads_ rather than here.
  struct Lane {
    std::vector<Event> items;
    size_t head = 0;       // items before it have been popped or moved to heads_
    double last_time = 0;  // its last event's (when not idle)
    bool idle = true;      // no event (none in heads_ either): free for another delay
  };
  static constexpr int kHeap = -1;  // add(): to the heap, not a lane
  static constexpr size_t kMaxLanes = 16;
  static constexpr size_t kCompactAt = 1024;
  static constexpr int kHintBits = 6;

  bool heap_first() const { return heads_.empty() || (!heap_.empty() && heads_.front() > heap_.front()); }
  const Event& earliest() const { return heap_first() ? heap_.front() : heads_.front(); }
  // The lane of `delay`: its own, an idle one taken over, a new one, or kHeap (all lanes busy).
  int lane_for(double delay) {
    int& hint = lane_hint_[hint_index(delay)];
    if (hint >= 0 && delays_[static_cast<size_t>(hint)] == delay) return hint;
    for (size_t i = 0; i < delays_.size(); ++i)
      if (delays_[i] == delay) return hint = static_cast<int>(i);
    size_t l = 0;
    while (l < lanes_.size() && !lanes_[l].idle) ++l;
    if (l == kMaxLanes) return kHeap;
    if (l == lanes_.size()) {
      lanes_.emplace_back();
      delays_.push_back(delay);
    }
    delays_[l] = delay;
    return hint = static_cast<int>(l);
  }
  // A delay's place in lane_hint_: a few bits of a multiplicative hash of its bits.
  static size_t hint_index(double delay) {
    uint64_t bits;
    std::memcpy(&bits, &delay, sizeof bits);
    return static_cast<size_t>((bits * 0x9E3779B97F4A7C15ULL) >> (64 - kHintBits));
  }
  void add(double time, Task then, int lane) {
    const Event e{time, seq_++, then, lane};
    if (lane == kHeap) {
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
      return;
    }
    Lane& l = lanes_[static_cast<size_t>(lane)];
    if (l.idle) {  // its head, at once
      l.idle = false;
      l.last_time = time;
      heads_.push_back(e);
      std::push_heap(heads_.begin(), heads_.end(), std::greater<>());
    } else if (l.last_time <= time) {  // behind its last
      l.last_time = time;
      l.items.push_back(e);
    } else {  // due before the lane's last (a clock that stepped back by rounding): not in lane order
      Event h = e;
      h.lane = kHeap;
      heap_.push_back(h);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    }
  }
  // Pops the earliest lane head; the lane's next event (if any) becomes its head.
  void pop_lane_head() {
    Lane& lane = lanes_[static_cast<size_t>(heads_.front().lane)];
    if (lane.head == lane.items.size()) {
      std::pop_heap(heads_.begin(), heads_.end(), std::greater<>());
      heads_.pop_back();
      lane.idle = true;
      return;
    }
    sift_down_head(lane.items[lane.head]);
    if (++lane.head == lane.items.size()) {
      lane.items.clear();
      lane.head = 0;
    } else if (lane.head >= kCompactAt && 2 * lane.head >= lane.items.size()) {  // a lane that never empties
      lane.items.erase(lane.items.begin(), lane.items.begin() + static_cast<std::ptrdiff_t>(lane.head));
      lane.head = 0;
    }
  }

  // Puts `e` in place of heads_'s top and sifts it down (half of a pop and a push).
  void sift_down_head(const Event& e) {
    const size_t n = heads_.size();
    size_t i = 0;
    for (size_t child = 1; child < n; child = 2 * i + 1) {
      if (child + 1 < n && heads_[child] > heads_[child + 1]) ++child;
      if (!(e > heads_[child])) break;
      heads_[i] = heads_[child];
      i = child;
    }
    heads_[i] = e;
  }

  std::vector<Event> heap_;                            // min-heap by (time, seq): events in no lane
  std::vector<Event> heads_;                           // min-heap by (time, seq): each busy lane's first event
  std::vector<Lane> lanes_;                            // at most kMaxLanes
  std::vector<double> delays_;                         // each lane's delay (apart, for a quick search)
  std::array<int, size_t{1} << kHintBits> lane_hint_;  // by hint_index: the lane last found, or -1
  CallbackSlots slots_;                                // the std::function callbacks scheduled
  uint64_t seq_ = 0;
};

}  // namespace t3sim::core
