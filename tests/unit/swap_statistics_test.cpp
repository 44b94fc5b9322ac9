#include <gtest/gtest.h>

#include <cmath>

#include "sim/analysis/swap_statistics.hpp"
#include "sim/core/program/swap_pattern.hpp"

using namespace t3sim::core;
using namespace t3sim::analysis;

namespace {

// A run whose swap of B bytes takes alpha + B/bw on PE 0 (PE 1 slightly faster), 2 swaps per size.
RunResult synthetic(double alpha, double bw, bool bend_small) {
  RunResult r;
  int index = 0;
  double now = 0;
  for (double b : {2048.0, 4096.0, 8192.0, 1048576.0}) {
    for (int pe : {0, 1}) {
      double t = alpha + b / bw;
      if (pe == 1) t *= 0.9;
      if (bend_small && b == 2048.0) t *= 1.5;
      OpRecord rec;
      rec.label = r.labels.intern(kSwapLabel);
      rec.pe = pe;
      rec.iteration = index;
      rec.bytes = b;
      rec.start = now;
      rec.end = now + 2 * t;  // two swaps
      r.records.push_back(rec);
    }
    now += 1;
    ++index;
  }
  return r;
}

}  // namespace

TEST(SwapStatistics, LinearCurveGivesItsParameters) {
  const SwapStatistics st = swap_statistics(synthetic(7e-6, 330e6, false), 2);
  ASSERT_EQ(st.curve.size(), 4u);
  EXPECT_NEAR(st.estimated_latency, 7e-6, 1e-15);
  EXPECT_NEAR(st.peak_bandwidth, 1048576.0 / (7e-6 + 1048576.0 / 330e6), 1e-3);
  EXPECT_LT(st.model_max_rel_error, 0.01);
}

TEST(SwapStatistics, ModelErrorSeesADeviation) {
  const SwapStatistics st = swap_statistics(synthetic(7e-6, 330e6, true), 2);
  EXPECT_NEAR(st.model_max_rel_error, 1.0 - 1.0 / 1.5, 0.02);
}

TEST(SwapStatistics, LatencyNeedsThe512And1024WordPoints) {
  RunResult r = synthetic(7e-6, 330e6, false);
  r.records.erase(r.records.begin() + 2, r.records.begin() + 4);  // drop 4096 B
  EXPECT_TRUE(std::isnan(t3sim::analysis::swap_statistics(r, 2).estimated_latency));
}
