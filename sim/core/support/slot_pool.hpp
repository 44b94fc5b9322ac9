// Records kept under small integer ids, reused once released: what lets a callback or an event carry
// an id instead of the record (an id and `this` fit in std::function's own storage, a record does not,
// so each would cost a heap allocation). A slot's reference is valid only until the next take().
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace t3sim::core {

template <class T>
class SlotPool {
 public:
  // A slot for a new record (the most recently released one first), left as it was: fill it.
  int take() {
    if (free_.empty()) {
      slots_.emplace_back();
      return static_cast<int>(slots_.size()) - 1;
    }
    const int id = free_.back();
    free_.pop_back();
    return id;
  }
  void release(int id) { free_.push_back(id); }
  // The id that take() will return after `pending` more take()s, with no release() in between: what
  // lets an id be handed out now and its record taken later, when no other thread reads the records.
  int id_after(std::size_t pending) const {
    if (pending < free_.size()) return free_[free_.size() - 1 - pending];
    return static_cast<int>(slots_.size() + (pending - free_.size()));
  }
  // Makes room for `n` more take()s without moving the records: until they are taken, a reference to
  // a slot stays valid (what lets another thread read records while this one takes new ones).
  void reserve_takes(std::size_t n) {
    const std::size_t need = slots_.size() + (n > free_.size() ? n - free_.size() : 0);
    if (slots_.capacity() < need) slots_.reserve(std::max(need, 2 * slots_.capacity()));
  }
  T& operator[](int id) { return slots_[static_cast<std::size_t>(id)]; }
  const T& operator[](int id) const { return slots_[static_cast<std::size_t>(id)]; }
  std::size_t size() const { return slots_.size(); }  // slots ever made (taken or free)

 private:
  std::vector<T> slots_;
  std::vector<int> free_;
};

}  // namespace t3sim::core
