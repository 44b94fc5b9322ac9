// A study's axes (sim/io/study/sweep_axes.hpp): every combination is a point, labelled in its id, and its run
// gets the study's settings overlaid by its axis values'; the I/O nodes in service shrink the machine's
// file servers.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sim/core/machine/job_placement.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/study/sweep_spec.hpp"

namespace {

using t3sim::io::SweepPoint;

std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/" + name; }

bool has_pair(const std::vector<std::string>& args, const std::string& option, const std::string& value) {
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == option && args[i + 1] == value) return true;
  return false;
}

TEST(SweepAxes, EveryCombinationIsAPointWithItsLabelsInItsId) {
  const auto spec = t3sim::io::load_sweep(data("sweep/axes.yaml"));
  ASSERT_EQ(spec.axes.size(), 3u);
  const auto points = t3sim::io::sweep_points(spec);
  ASSERT_EQ(points.size(), 16u);  // 2 PE counts x 2 x 2 x 2
  std::set<std::string> ids;
  for (const auto& p : points) ids.insert(p.id());
  EXPECT_EQ(ids.size(), points.size());
  // The last axis varies fastest.
  EXPECT_EQ(points[0].id(), "io_valid.yaml|md_small.yaml|4|contiguous|0|buffering=none|io_nodes=1|background=quiet");
  EXPECT_EQ(points[1].labels.back().second, "busy");
  EXPECT_EQ(points[2].labels[1].second, "2");
  EXPECT_EQ(t3sim::io::sweep_header(spec).substr(t3sim::io::sweep_header(spec).rfind("main_job_end_us")),
            "main_job_end_us,buffering,io_nodes,background,id");
}

TEST(SweepAxes, APointRunsWithItsValuesSettings) {
  const auto points = t3sim::io::sweep_points(t3sim::io::load_sweep(data("sweep/axes.yaml")));
  const SweepPoint& p = points[5];  // 4 PEs, iobuf 64KiB, 1 I/O node, busy
  const auto args = p.request().to_argv();
  EXPECT_TRUE(has_pair(args, "--set", "buffering=iobuf"));
  EXPECT_TRUE(has_pair(args, "--param", "io.iobuf_size=64KiB"));
  EXPECT_TRUE(has_pair(args, "--param", "io.nodes_in_service=1"));
  EXPECT_TRUE(has_pair(args, "--background-set", "think=1ms"));
  EXPECT_TRUE(std::find(args.begin(), args.end(), "--background") != args.end());
  EXPECT_TRUE(std::find(args.begin(), args.end(), "--size") == args.end());  // no sizes: the workload's own
  EXPECT_TRUE(std::find(args.begin(), args.end(), "--summary") != args.end());
  const auto quiet = points[4].request().to_argv();
  EXPECT_TRUE(std::find(quiet.begin(), quiet.end(), "--background") == quiet.end());
}

TEST(SweepAxes, AnAxisValueOverridesTheStudysSettings) {
  t3sim::io::RunSettings study;
  study.sets = {{"buffering", "none"}, {"steps", "10"}};
  t3sim::io::RunSettings value;
  value.sets = {{"buffering", "iobuf"}};
  value.params = {{"io.iobuf_size", "64KiB"}};
  const auto both = study.overlaid(value);
  EXPECT_EQ(both.sets.at("buffering"), "iobuf");
  EXPECT_EQ(both.sets.at("steps"), "10");
  EXPECT_EQ(both.params.at("io.iobuf_size"), "64KiB");
}

TEST(SweepAxes, TheDefaultStudiesKeepTheirIdsAndHeader) {
  const auto spec = t3sim::io::load_sweep(data("sweep/small.yaml"));
  EXPECT_EQ(t3sim::io::sweep_points(spec)[0].id(), "valid.yaml|sweep_shift.yaml|4|contiguous|1024");
  EXPECT_EQ(t3sim::io::sweep_header(spec).find("main_job_end_us"), std::string::npos);
}

TEST(IoNodesInService, OnlyTheFirstNServeFiles) {
  auto m = t3sim::io::load_machine(data("machine/io_valid.yaml"));
  EXPECT_EQ(m.io_node_count(), 2);
  EXPECT_EQ(m.disk_count(), 2);
  m.io.nodes_in_service = 1;
  EXPECT_EQ(m.io_node_count(), 1);
  EXPECT_EQ(m.disk_count(), 1);
  const auto placement = t3sim::core::JobPlacement::contiguous(m, 4).with_io_nodes(m);
  EXPECT_EQ(placement.size(), 5);  // 4 PEs and one I/O node endpoint
  EXPECT_FALSE(m.io_inconsistency().has_value());
  m.io.nodes_in_service = 3;
  ASSERT_TRUE(m.io_inconsistency().has_value());
  EXPECT_EQ(m.io_inconsistency()->first, "io.nodes_in_service");
}

}  // namespace
