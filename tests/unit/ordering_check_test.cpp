#include <gtest/gtest.h>

#include "sim/calib/ordering_check.hpp"

using namespace t3sim;

namespace {

calib::CaseResult result(const std::string& group, double measured, double predicted) {
  calib::CaseResult r;
  r.measured.suite = "s";
  r.measured.metric = "latency";
  r.measured.row["protocol"] = group;
  r.measured.measured = measured;
  r.predicted = predicted;
  return r;
}

calib::SuiteSpec suite() {
  calib::SuiteSpec s;
  s.id = "s";
  s.orderings.push_back({"protocol", {"latency"}, 0.02});
  return s;
}

}  // namespace

TEST(OrderingCheck, KeepsRecordedOrderAndIgnoresTies) {
  // a ~ b (1% apart, tied), both < c. Predicting b < a is fine; c must stay last.
  const auto r =
      calib::check_orderings(suite(), {result("a", 7.29, 7.0), result("b", 7.23, 6.9), result("c", 9.8, 9.1)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].ok);
  EXPECT_EQ(r[0].measured_order, "b ~ a < c");
}

TEST(OrderingCheck, FailsWhenPredictionsSwapAStrictOrder) {
  const auto r = calib::check_orderings(suite(), {result("a", 7.0, 9.5), result("c", 9.8, 9.1)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].ok);
  EXPECT_EQ(r[0].predicted_order, "c < a");
}
