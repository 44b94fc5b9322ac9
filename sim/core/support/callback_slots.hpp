// Callbacks parked under small integer ids, reused once taken: what the calendar's heap records and
// the solver transport's flows point at, so heaps and flows move ints instead of std::function.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

namespace t3sim::core {

class CallbackSlots {
 public:
  using Callback = std::function<void()>;

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

 private:
  std::vector<Callback> slots_;
  std::vector<int> free_;
};

}  // namespace t3sim::core
