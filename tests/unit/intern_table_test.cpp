#include "sim/core/support/intern_table.hpp"

#include <gtest/gtest.h>

using t3sim::core::InternTable;
using t3sim::core::kNoName;
using t3sim::core::kUnknownName;

TEST(InternTable, IdsAreDenseInFirstUseOrder) {
  InternTable t;
  EXPECT_EQ(t.intern("send"), 0);
  EXPECT_EQ(t.intern("recv"), 1);
  EXPECT_EQ(t.intern("send"), 0);  // the same name, the same id
  EXPECT_EQ(t.intern("wait"), 2);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.name(0), "send");
  EXPECT_EQ(t.name(1), "recv");
  EXPECT_EQ(t.name(2), "wait");
}

TEST(InternTable, TheEmptyNameIsNoName) {
  InternTable t;
  EXPECT_EQ(t.intern(""), kNoName);
  EXPECT_EQ(t.size(), 0u);  // not stored
  EXPECT_EQ(t.name(kNoName), "");
  EXPECT_EQ(t.find(""), kNoName);
}

TEST(InternTable, FindNeverAddsAndAnUnknownNameMatchesNoId) {
  InternTable t;
  const auto swap = t.intern("swap");
  EXPECT_EQ(t.find("swap"), swap);
  EXPECT_EQ(t.find("exchange"), kUnknownName);
  EXPECT_NE(t.find("exchange"), kNoName);  // an unknown name is not the empty one
  EXPECT_EQ(t.size(), 1u);
}

TEST(InternTable, CopiesKeepTheirIds) {
  InternTable a;
  a.intern("x");
  InternTable b = a;
  EXPECT_EQ(b.intern("y"), 1);
  EXPECT_EQ(a.find("y"), kUnknownName);
  EXPECT_EQ(b.find("x"), 0);
}
