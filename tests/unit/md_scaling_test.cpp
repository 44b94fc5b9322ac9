// The MD workload's strong scaling (MdRunSpec::sized_for_pes): compute divided by the job's growth,
// halo bytes by its 2/3 power; the gather and the frame are the system's and stay.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/program/file_io_workloads.hpp"

namespace {

using t3sim::core::MdRunSpec;
using t3sim::core::OpKind;
using t3sim::core::Workload;

struct MdOps {
  double compute = 0, halo = 0, gather = 0, frame = 0;
};

MdOps first_ops(int pes, int sized_for) {
  Workload w;
  w.pes = pes;
  MdRunSpec s;
  s.steps = 10;
  s.frame_interval = 10;
  s.step_compute = 1e-3;
  s.sized_for_pes = sized_for;
  s.halo_bytes = 2048;
  s.gather_bytes = 65536;
  s.frame_bytes = 200000;
  s.record_bytes = 81;
  t3sim::core::append_md_run(w, s);
  MdOps out;
  for (const auto& op : w.ops) {
    const std::string label = w.labels.name(op.label);
    if (op.kind == OpKind::Compute && out.compute == 0) out.compute = op.seconds;
    if (label == "halo" && out.halo == 0) out.halo = op.bytes;
    if (label == "gather" && out.gather == 0) out.gather = op.bytes;
    if (op.kind == OpKind::Write) out.frame = op.bytes;
  }
  return out;
}

TEST(MdScaling, OwnSizeIsUnchanged) {
  const MdOps own = first_ops(8, 0), same = first_ops(8, 8);
  EXPECT_DOUBLE_EQ(own.compute, 1e-3);
  EXPECT_DOUBLE_EQ(own.halo, 2048);
  EXPECT_DOUBLE_EQ(same.compute, own.compute);
  EXPECT_DOUBLE_EQ(same.halo, own.halo);
}

TEST(MdScaling, TwiceThePesHalvesComputeAndShrinksHalosByTwoThirdsPower) {
  const MdOps scaled = first_ops(8, 4);
  EXPECT_DOUBLE_EQ(scaled.compute, 0.5e-3);
  EXPECT_DOUBLE_EQ(scaled.halo, std::round(2048 * std::pow(0.5, 2.0 / 3.0)));  // 1290 B
  EXPECT_DOUBLE_EQ(scaled.gather, 65536.0 / 8);                                // the system's bytes over 8 PEs
  EXPECT_DOUBLE_EQ(scaled.frame, 200000);
}

TEST(MdScaling, FewerPesComputeMore) {
  const MdOps scaled = first_ops(4, 8);
  EXPECT_DOUBLE_EQ(scaled.compute, 2e-3);
  EXPECT_DOUBLE_EQ(scaled.halo, std::round(2048 * std::pow(2.0, 2.0 / 3.0)));
}

}  // namespace
