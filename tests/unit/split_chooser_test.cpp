// SplitChooser (core/packet/split_chooser.hpp): it times splitting and not splitting in turn, keeps the
// faster by wall time per unit of work for its hold, then times both again; a probe without work says
// nothing, and splitting is kept.
#include "sim/core/packet/split_chooser.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace t3sim::core {
namespace {

// Feeds pieces of `work` units until the chooser's mode changes or `limit` pieces went by; each piece
// takes `split_ns` when split, `one_ns` when not. Returns the pieces fed.
int feed(SplitChooser& c, double work, int64_t split_ns, int64_t one_ns, int limit) {
  const bool mode = c.split();
  int n = 0;
  while (c.split() == mode && n < limit) {
    c.record(work, c.split() ? split_ns : one_ns);
    ++n;
  }
  return n;
}

TEST(SplitChooser, KeepsSplittingWhenThatIsFaster) {
  SplitChooser c(100, 4, 4);
  EXPECT_TRUE(c.split());
  EXPECT_EQ(feed(c, 10, 10, 20, 1000), 10);  // the split probe: 100 ns
  EXPECT_FALSE(c.split());                   // then one thread is timed
  EXPECT_EQ(feed(c, 10, 10, 20, 1000), 5);
  EXPECT_TRUE(c.split());  // and splitting, the faster, is held: 400 ns, then probed again at once
  EXPECT_EQ(c.decisions(), 1);
  EXPECT_EQ(c.one_wins(), 0);
  EXPECT_EQ(feed(c, 10, 10, 20, 1000), 50);  // hold (40 pieces) and the next split probe (10)
  EXPECT_FALSE(c.split());
}

TEST(SplitChooser, HoldsOneThreadWhenThatIsFaster) {
  SplitChooser c(100, 4, 4);
  feed(c, 10, 30, 20, 1000);
  EXPECT_FALSE(c.split());
  EXPECT_EQ(feed(c, 10, 30, 20, 1000), 5 + 20);  // its probe (5 pieces), then its hold (400 ns)
  EXPECT_EQ(c.decisions(), 1);
  EXPECT_EQ(c.one_wins(), 1);
  EXPECT_TRUE(c.split());  // the next probe
}

TEST(SplitChooser, AConfirmedChoiceIsHeldTwiceAsLongUntilItFlips) {
  SplitChooser c(100, 2, 8);
  // Pieces of 10 units, 10 ns split and 20 ns on one thread: the runs of split pieces between the
  // one-thread probes (5 pieces each) are the hold (2, 4, 8, 8 probes' lengths of 10 pieces) and the next
  // split probe (10 pieces).
  std::vector<int> runs;
  for (int k = 0; k < 5; ++k) {
    runs.push_back(feed(c, 10, 10, 20, 1000));
    EXPECT_EQ(feed(c, 10, 10, 20, 1000), 5);
  }
  EXPECT_EQ(runs, (std::vector<int>{10, 30, 50, 90, 90}));
  // Now one thread is faster (30 ns split): the hold of splitting runs out (800 ns: 27 pieces) and the
  // split probe (4) times it, then the choice flips and its hold starts again at 2 (200 ns).
  EXPECT_EQ(feed(c, 10, 30, 20, 1000), 27 + 4);
  EXPECT_EQ(feed(c, 10, 30, 20, 1000), 15);  // the one-thread probe (5) and its hold (10)
  EXPECT_EQ(c.one_wins(), 1);
}

TEST(SplitChooser, JudgesByTimePerUnitOfWorkNotPerPiece) {
  // Split pieces take longer but carry three times the work: splitting is faster per unit.
  SplitChooser c(300, 4);
  c.record(30, 150);
  c.record(30, 150);
  EXPECT_FALSE(c.split());
  c.record(10, 100);
  c.record(10, 100);
  c.record(10, 100);
  EXPECT_TRUE(c.split());
  EXPECT_EQ(c.one_wins(), 0);
}

TEST(SplitChooser, AProbeWithoutWorkKeepsSplitting) {
  SplitChooser c(100, 4);
  c.record(0, 100);  // the split probe saw no work
  EXPECT_FALSE(c.split());
  c.record(0, 100);  // nor did the other
  EXPECT_TRUE(c.split());
  EXPECT_EQ(c.one_wins(), 0);
}

}  // namespace
}  // namespace t3sim::core
