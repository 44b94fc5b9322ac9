// SlotPool's ids: released ones reused, newest first, and id_after() naming the id a later take() gives.
#include "sim/core/support/slot_pool.hpp"

#include <gtest/gtest.h>

namespace t3sim::core {
namespace {

TEST(SlotPool, IdAfterNamesTheIdsTheNextTakesGive) {
  SlotPool<int> pool;
  EXPECT_EQ(pool.id_after(0), 0);
  EXPECT_EQ(pool.id_after(2), 2);
  for (int i = 0; i < 5; ++i) pool.take();
  pool.release(1);
  pool.release(3);
  // The free ids newest first, then new slots.
  const int promised[] = {pool.id_after(0), pool.id_after(1), pool.id_after(2), pool.id_after(3)};
  EXPECT_EQ(promised[0], 3);
  EXPECT_EQ(promised[1], 1);
  EXPECT_EQ(promised[2], 5);
  EXPECT_EQ(promised[3], 6);
  for (int id : promised) EXPECT_EQ(pool.take(), id);
  EXPECT_EQ(pool.size(), 7u);
}

}  // namespace
}  // namespace t3sim::core
