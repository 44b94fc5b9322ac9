// `sweep --check`: which points are run again, how their rows are paired with the study's, and the
// differences file read back (study/driver_check.hpp). The whole command: tests/sweep_check.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sim/study/driver_check.hpp"

namespace t3sim {
namespace {

std::vector<io::SweepPoint> points(int n) {
  std::vector<io::SweepPoint> out;
  for (int i = 0; i < n; ++i) {
    io::SweepPoint p;
    p.index = i;
    p.machine = "m.yaml";
    p.workload = "w.yaml";
    p.placement = "contiguous";
    p.pes = 8 << i % 3;
    p.bytes = 1024.0 * (i + 1);
    out.push_back(p);
  }
  return out;
}

TEST(DriverCheck, TakesTheFractionRoundedUpInPointOrderUnderTheCheckDriver) {
  const auto all = points(10);
  const auto chosen = study::check_points(all, 0.25, "packet");
  ASSERT_EQ(chosen.size(), 3u);  // ceil(2.5)
  for (size_t i = 0; i < chosen.size(); ++i) {
    const auto& c = chosen[i];
    EXPECT_EQ(c.point.settings.driver, "packet");
    EXPECT_EQ(c.point.id(), c.study_id + "|driver=packet");
    EXPECT_EQ(c.study_id, all[static_cast<size_t>(c.point.index)].id());
    if (i > 0) {
      EXPECT_LT(chosen[i - 1].point.index, c.point.index);
    }
  }
  EXPECT_EQ(study::check_points(all, 1.0, "packet").size(), 10u);
  EXPECT_EQ(study::check_points(all, 0.01, "packet").size(), 1u);
  EXPECT_EQ(study::check_points(all, 0.3, "packet").size(), 3u);  // 3.0000000000000004 is 3
}

TEST(DriverCheck, TheSameFractionTheSamePointsAndASmallerOneASubset) {
  const auto all = points(40);
  auto indices = [&](double f) {
    std::set<int> s;
    for (const auto& c : study::check_points(all, f, "packet")) s.insert(c.point.index);
    return s;
  };
  EXPECT_EQ(indices(0.2), indices(0.2));
  const auto small = indices(0.1), large = indices(0.5);
  for (int i : small) EXPECT_TRUE(large.count(i)) << i;
  // Not simply the first points: a fixed-seed shuffle spreads them over the study.
  EXPECT_NE(small, (std::set<int>{0, 1, 2, 3}));
}

TEST(DriverCheck, PointsAlreadyUnderTheDriverAreNotChecked) {
  auto all = points(6);
  for (size_t i = 0; i < all.size(); i += 2) all[i].settings.driver = "packet";
  const auto chosen = study::check_points(all, 1.0, "packet");
  ASSERT_EQ(chosen.size(), 3u);
  for (const auto& c : chosen) EXPECT_EQ(c.point.index % 2, 1);
  all[1].settings.driver = all[3].settings.driver = all[5].settings.driver = "packet";
  EXPECT_TRUE(study::check_points(all, 1.0, "packet").empty());
  // "fast" and "" are one driver.
  EXPECT_TRUE(study::check_points(points(3), 1.0, "fast").empty());
}

TEST(DriverCheck, AFractionOutsideZeroToOneIsRefused) {
  for (double f : {0.0, -0.5, 1.5})
    EXPECT_THROW(study::check_points(points(4), f, "packet"), std::invalid_argument) << f;
}

// sweep.csv's columns as the comparison finds them: by name, wherever they are.
const std::string kHeader =
    "index,machine,workload,pes,placement,bytes,makespan_us,pe_MBps_min,pe_MBps_median,pe_MBps_mean,pe_MBps_max,"
    "pair_MBps_median,max_link_utilisation,busiest_link,bisection_utilisation,transfers,makespan_us_p05,"
    "makespan_us_p95,pe_MBps_median_p05,pe_MBps_median_p95,id";

std::string row(int index, double makespan, double min, double median, const std::string& band, const std::string& id) {
  return std::to_string(index) + ",m,w,8,contiguous,1024," + std::to_string(makespan) + "," + std::to_string(min) +
         "," + std::to_string(median) + ",0,0,0,0.5,x+,0.1,8," + band + "," + id;
}

TEST(DriverCheck, PairsTheStudysRowWithTheChecksAndSaysTheDifference) {
  const auto chosen = study::check_points(points(4), 1.0, "packet");
  std::map<std::string, std::string> study, check;
  const auto& a = chosen[0];
  const auto& b = chosen[1];
  study[a.study_id] = row(0, 100, 50, 80, "90,110,70,90", a.study_id);
  check[a.point.id()] = row(0, 200, 25, 40, ",,,", a.point.id());
  study[b.study_id] = row(1, 100, 50, 80, ",,,", b.study_id);
  check[b.point.id()] = row(1, 80, 60, 100, ",,,", b.point.id());
  // chosen[2] has a study row but no check row (its run failed), chosen[3] neither: both left out.
  study[chosen[2].study_id] = row(2, 1, 1, 1, ",,,", chosen[2].study_id);
  const study::DriverCheck c = study::compare_rows(chosen, study, check, kHeader, "packet");
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_DOUBLE_EQ(c.points[0].makespan_us.difference(), -0.5);
  EXPECT_DOUBLE_EQ(c.points[0].pe_median_MBps->difference(), 1.0);
  EXPECT_DOUBLE_EQ(c.points[0].pe_min_MBps->difference(), 1.0);
  ASSERT_TRUE(c.points[0].pe_median_band);
  EXPECT_FALSE(c.points[0].check_inside_band());  // 40 outside 70..90
  EXPECT_DOUBLE_EQ(c.points[1].makespan_us.difference(), 0.25);
  EXPECT_DOUBLE_EQ(c.points[1].pe_median_MBps->difference(), -0.2);
  EXPECT_FALSE(c.points[1].pe_median_band);

  const std::string summary = study::check_summary_text(c, "fast");
  EXPECT_NE(summary.find("checked 2 points under --driver packet"), std::string::npos) << summary;
  EXPECT_NE(summary.find("per-PE median MB/s    +100.0% at point 0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("makespan               -50.0% at point 0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("inside the study's 5-95% band at 0 of 1 points"), std::string::npos) << summary;

  // The differences file reads back as written.
  const std::string path = testing::TempDir() + "/check-packet-differences.csv";
  std::ofstream(path) << study::check_differences_csv(c);
  const study::DriverCheck back = study::read_check_differences(path, "packet");
  EXPECT_EQ(study::check_differences_csv(back), study::check_differences_csv(c));
  EXPECT_EQ(study::check_summary_text(back, "fast"), summary);
}

TEST(DriverCheck, ABrokenDifferencesFileIsRefusedNamingIt) {
  const std::string path = testing::TempDir() + "/broken-differences.csv";
  std::ofstream(path) << "header\n1,2,3\n";
  try {
    study::read_check_differences(path, "packet");
    FAIL() << "accepted a line of 3 cells";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": a line of 3 cells, not 14"), std::string::npos) << e.what();
  }
  std::ofstream(path) << "header\nx,1,2,0.1,,,,,,,,,,id\n";
  EXPECT_THROW(study::read_check_differences(path, "packet"), std::runtime_error);
  std::ofstream(path) << "header\n1,,,,,,,,,,,,,id\n";
  EXPECT_THROW(study::read_check_differences(path, "packet"), std::runtime_error);
  EXPECT_THROW(study::read_check_differences(path + ".missing", "packet"), std::runtime_error);
}

}  // namespace
}  // namespace t3sim
