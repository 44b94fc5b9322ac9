// Callbacks parked under small integer ids, reused once taken: what the calendar's queues and the
// solver transport's flows point at, so queues and flows move ints instead of std::function. A parked
// callback is also a Task (task.hpp) that takes it out and runs it.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/core/support/task.hpp"

namespace t3sim::core {

class CallbackSlots : public TaskHandler {
 public:
  using Callback = std::function<void()>;

  CallbackSlots() = default;
  CallbackSlots(const CallbackSlots&) = delete;  // its tasks point at it
  CallbackSlots& operator=(const CallbackSlots&) = delete;

  // Parks `c`; returns its id (the most recently freed one first).
  int put(Callback c) {
    if (free_.empty()) {
      slots_.push_back(std::move(c));
      return static_cast<int>(slots_.size() - 1);
    }
    const int id = free_.back();
    free_.pop_back();
    slots_[static_cast<std::size_t>(id)] = std::move(c);
    return id;
  }
  // Removes and returns the callback parked under `id`; the id is free again.
  Callback take(int id) {
    Callback c = std::move(slots_[static_cast<std::size_t>(id)]);
    free_.push_back(id);
    return c;
  }
  // Parks `c`; returns the task that takes it out and runs it (once).
  Task park(Callback c) { return Task{this, 0, put(std::move(c))}; }
  void run_task(int, int id) override { take(id)(); }

 private:
  std::vector<Callback> slots_;
  std::vector<int> free_;
};

}  // namespace t3sim::core
