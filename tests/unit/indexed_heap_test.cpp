// The solver transport's indexed heap against a sorted reference under random sets, moves and
// removals: the top is always the smallest (time, sequence), and each id has one key.
#include "sim/core/support/indexed_heap.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

namespace t3sim::core {
namespace {

TEST(IndexedHeap, TopIsTheSmallestKeyUnderRandomMovesAndRemovals) {
  std::mt19937_64 rng(7);
  IndexedHeap heap;
  std::map<int, std::pair<double, uint64_t>> keys;  // the reference: id -> key
  uint64_t seq = 0;
  for (int step = 0; step < 20000; ++step) {
    const int id = static_cast<int>(rng() % 64);
    if (rng() % 4 == 0) {
      heap.erase(id);
      keys.erase(id);
    } else {
      const double time = static_cast<double>(rng() % 50);  // many equal times: sequence decides
      heap.set(id, time, seq);
      keys[id] = {time, seq++};
    }
    ASSERT_EQ(heap.empty(), keys.empty());
    for (int probe = 0; probe < 64; ++probe) ASSERT_EQ(heap.contains(probe), keys.count(probe) == 1);
    if (keys.empty()) continue;
    auto best = keys.begin();
    for (auto it = keys.begin(); it != keys.end(); ++it)
      if (it->second < best->second) best = it;
    ASSERT_EQ(heap.top(), best->first);
    ASSERT_EQ(heap.top_time(), best->second.first);
    ASSERT_EQ(heap.top_sequence(), best->second.second);
  }
}

TEST(IndexedHeap, ErasingAnAbsentIdChangesNothing) {
  IndexedHeap heap;
  heap.erase(3);
  EXPECT_TRUE(heap.empty());
  heap.set(5, 1.0, 0);
  heap.erase(4);
  heap.erase(100);
  EXPECT_EQ(heap.top(), 5);
}

}  // namespace
}  // namespace t3sim::core
