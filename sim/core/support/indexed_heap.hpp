// A binary min-heap of ids by (time, sequence) in which an id's key is changed or removed in place:
// one live key per id, so a key moved a thousand times leaves no stale records behind (the solver
// transport moves an entry's completion at every rate change of the entry).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace t3sim::core {

class IndexedHeap {
 public:
  bool empty() const { return heap_.empty(); }
  bool contains(int id) const { return id < static_cast<int>(pos_.size()) && pos_[static_cast<std::size_t>(id)] >= 0; }
  int top() const { return heap_.front(); }
  double top_time() const { return key_[static_cast<std::size_t>(heap_.front())].time; }
  uint64_t top_sequence() const { return key_[static_cast<std::size_t>(heap_.front())].seq; }

  // Inserts id with the key, or moves it there.
  void set(int id, double time, uint64_t seq) {
    if (id >= static_cast<int>(pos_.size())) {
      pos_.resize(static_cast<std::size_t>(id) + 1, -1);
      key_.resize(static_cast<std::size_t>(id) + 1);
    }
    key_[static_cast<std::size_t>(id)] = {time, seq};
    int at = pos_[static_cast<std::size_t>(id)];
    if (at < 0) {
      at = static_cast<int>(heap_.size());
      heap_.push_back(id);
      pos_[static_cast<std::size_t>(id)] = at;
    }
    sift_down(sift_up(at));
  }
  void erase(int id) {
    if (!contains(id)) return;
    const int at = pos_[static_cast<std::size_t>(id)];
    const int last = heap_.back();
    heap_.pop_back();
    pos_[static_cast<std::size_t>(id)] = -1;
    if (last == id) return;
    heap_[static_cast<std::size_t>(at)] = last;
    pos_[static_cast<std::size_t>(last)] = at;
    sift_down(sift_up(at));
  }

 private:
  struct Key {
    double time = 0;
    uint64_t seq = 0;
  };
  bool less(int a, int b) const {
    const Key& x = key_[static_cast<std::size_t>(a)];
    const Key& y = key_[static_cast<std::size_t>(b)];
    return x.time != y.time ? x.time < y.time : x.seq < y.seq;
  }
  void place(int at, int id) {
    heap_[static_cast<std::size_t>(at)] = id;
    pos_[static_cast<std::size_t>(id)] = at;
  }
  int sift_up(int at) {
    const int id = heap_[static_cast<std::size_t>(at)];
    while (at > 0) {
      const int parent = (at - 1) / 2;
      if (!less(id, heap_[static_cast<std::size_t>(parent)])) break;
      place(at, heap_[static_cast<std::size_t>(parent)]);
      at = parent;
    }
    place(at, id);
    return at;
  }
  void sift_down(int at) {
    const int id = heap_[static_cast<std::size_t>(at)];
    const int n = static_cast<int>(heap_.size());
    for (;;) {
      int child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && less(heap_[static_cast<std::size_t>(child + 1)], heap_[static_cast<std::size_t>(child)]))
        ++child;
      if (!less(heap_[static_cast<std::size_t>(child)], id)) break;
      place(at, heap_[static_cast<std::size_t>(child)]);
      at = child;
    }
    place(at, id);
  }

  std::vector<int> heap_;
  std::vector<int> pos_;  // per id: its index in heap_, or -1
  std::vector<Key> key_;
};

}  // namespace t3sim::core
