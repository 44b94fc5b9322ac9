// Point selections (`sweep --points`) and what Slurm's commands print, read without a cluster.
#include <gtest/gtest.h>

#include "sim/io/files/input_error.hpp"
#include "sim/study/point_selection.hpp"
#include "sim/study/slurm_text.hpp"
#include "tests/unit/rejection_case.hpp"

namespace t3sim {
namespace {

using Ints = std::vector<int>;

TEST(PointSelection, IndicesAndRangesSortedAndDistinct) {
  EXPECT_EQ(study::parse_point_selection("0..3", 10), (Ints{0, 1, 2, 3}));
  EXPECT_EQ(study::parse_point_selection("7,2,5..6,2", 10), (Ints{2, 5, 6, 7}));
  EXPECT_EQ(study::parse_point_selection("9", 10), (Ints{9}));
  EXPECT_EQ(study::parse_point_selection("4..4", 10), (Ints{4}));
}

TEST(PointSelection, FormatIsTheShortestListAndParsesBack) {
  EXPECT_EQ(study::format_point_selection({0, 1, 2, 3, 5, 7, 8}), "0..3,5,7..8");
  EXPECT_EQ(study::format_point_selection({4}), "4");
  EXPECT_EQ(study::format_point_selection({}), "");
  const Ints scattered = {0, 2, 3, 4, 9, 11, 12};
  EXPECT_EQ(study::parse_point_selection(study::format_point_selection(scattered), 13), scattered);
}

TEST(PointSelection, GroupsOfAtMostKInOrder) {
  const auto g = study::group_points({1, 2, 3, 4, 5, 9, 10}, 3);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0], (Ints{1, 2, 3}));
  EXPECT_EQ(g[1], (Ints{4, 5, 9}));
  EXPECT_EQ(g[2], (Ints{10}));
  EXPECT_EQ(study::group_points({1, 2}, 1).size(), 2u);
  EXPECT_TRUE(study::group_points({}, 4).empty());
  EXPECT_THROW(study::group_points({1}, 0), std::invalid_argument);
}

class PointSelectionRejects : public testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(PointSelectionRejects, NamesTheOptionAndTheItem) {
  const auto& [text, regex] = GetParam();
  try {
    study::parse_point_selection(text, 10);
    FAIL() << text << " was accepted";
  } catch (const io::InputError& e) {
    EXPECT_TRUE(std::regex_search(std::string(e.what()), std::regex(regex))) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rules, PointSelectionRejects,
    testing::Values(std::make_pair("", "--points: .*not ''"), std::make_pair("1,,2", "--points: .*not ''"),
                    std::make_pair("a", "--points: .*not 'a'"), std::make_pair("-1", "--points: .*not '-1'"),
                    std::make_pair("3..", "--points: .*not ''"), std::make_pair("5..2", "range '5..2' is empty"),
                    std::make_pair("10", "index 10 is past the study's last point \\(9"),
                    std::make_pair("8..12", "index 12 is past"),
                    std::make_pair("12345678901", "index '12345678901' is out of range")));

TEST(SlurmText, ArrayTaskLists) {
  EXPECT_EQ(study::expand_task_ids("2-5,7"), (Ints{2, 3, 4, 5, 7}));
  EXPECT_EQ(study::expand_task_ids("2-3%2"), (Ints{2, 3}));  // the throttle is not a task
  EXPECT_EQ(study::expand_task_ids("4"), (Ints{4}));
  EXPECT_TRUE(study::expand_task_ids("N/A").empty());
  EXPECT_TRUE(study::expand_task_ids("").empty());
}

TEST(SlurmText, SacctStatesPerTask) {
  const auto s = study::parse_sacct_states("12_0|COMPLETED\n12_1|CANCELLED by 0\n12_[2-3%1]|PENDING\n13|RUNNING\nx\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s.at("12_0"), "COMPLETED");
  EXPECT_EQ(s.at("12_1"), "CANCELLED");
  EXPECT_EQ(s.at("12_2"), "PENDING");
  EXPECT_EQ(s.at("12_3"), "PENDING");
}

TEST(SlurmText, ScontrolRecordsPerTask) {
  // two records as `scontrol show job -o 7` prints them (abridged), one of them the still-pending rest
  const auto s = study::parse_scontrol_states(
      "JobId=9 ArrayJobId=7 ArrayTaskId=1 ArrayTaskThrottle=1 JobName=x JobState=COMPLETED Reason=None\n"
      "JobId=7 ArrayJobId=7 ArrayTaskId=2-4%1 JobName=x JobState=PENDING Reason=JobArrayTaskLimit\n"
      "JobId=20 JobName=plain JobState=RUNNING\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s.at("7_1"), "COMPLETED");
  EXPECT_EQ(s.at("7_4"), "PENDING");
}

TEST(SlurmText, SbatchJobId) {
  EXPECT_EQ(study::parse_sbatch_job_id("42\n"), "42");
  EXPECT_EQ(study::parse_sbatch_job_id("42;cluster\n"), "42");
  EXPECT_EQ(study::parse_sbatch_job_id("Submitted batch job 42\n"), "");
  EXPECT_EQ(study::parse_sbatch_job_id(""), "");
}

}  // namespace
}  // namespace t3sim
