// `t3sim sweep SPEC --check FRACTION`: a share of a study's points run again under another driver (the
// packet network by default), so a study made with the flow model says, on its own points, how far that
// model is from the packet model (issue 32: the model-form error of the cheaper model, measured where the
// study is). The check's rows go to DIR/check-DRIVER.csv in sweep.csv's format (a killed check resumes
// as a sweep does); the differences to DIR/check-DRIVER-differences.csv.
//
// Which points: those whose own driver is not already the check's, shuffled with a fixed seed, the first
// ceil(fraction x their number) of them. A fixed seed, not the point order's every k-th: a study's
// innermost axis would otherwise alias with the stride (half the points of a two-valued axis could all
// be one of its values). The same study and fraction choose the same points.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/io/study/sweep_spec.hpp"

namespace t3sim::study {

// A point of the study to run again: the study's id of it, and the point under the check's driver (its
// id names that driver, so its row never takes the study's place).
struct PointToCheck {
  std::string study_id;
  io::SweepPoint point;
};

// The points to check, in point order. `fraction` in (0, 1]; std::invalid_argument otherwise.
std::vector<PointToCheck> check_points(const std::vector<io::SweepPoint>& points, double fraction,
                                       const std::string& driver);

// A driver's name as the check speaks of it: "" (a study's default) is "fast".
inline std::string driver_name(const std::string& driver) { return driver.empty() ? "fast" : driver; }

// DIR/check-DRIVER.csv: the checked points' rows, sweep.csv's format.
std::string check_rows_file(const std::string& dir, const std::string& driver);
// DIR/check-DRIVER-differences.csv: per checked point, both figures and their relative difference.
std::string check_differences_file(const std::string& dir, const std::string& driver);

// One figure of a point under the study's driver and under the check's; difference = (study - check) /
// check (+0.25: the study's driver says 25% more than the check's).
struct CheckedFigure {
  double study = 0, check = 0;
  double difference() const { return (study - check) / check; }
};

struct CheckedPoint {
  int index = 0;
  std::string id;  // the study's point
  CheckedFigure makespan_us;
  std::optional<CheckedFigure> pe_median_MBps, pe_min_MBps;  // none for a run without message sizes
  // The study's 5-95% band of the per-PE median (sweep --uncertainty), when it has one.
  std::optional<std::pair<double, double>> pe_median_band;
  bool check_inside_band() const {
    return pe_median_band && pe_median_MBps && pe_median_MBps->check >= pe_median_band->first &&
           pe_median_MBps->check <= pe_median_band->second;
  }
};

struct DriverCheck {
  std::string driver;
  std::vector<CheckedPoint> points;  // point order; only those with rows under both drivers
};

// Pairs the study's rows (sweep.csv's, by id) with the check's (by id) for `checked` (check_points'
// answer). `header` is the study's sweep.csv header: the columns are found by name.
DriverCheck compare_rows(const std::vector<PointToCheck>& checked, const std::map<std::string, std::string>& study,
                         const std::map<std::string, std::string>& check, const std::string& header,
                         const std::string& driver);

// The differences file's text (header, then a line per checked point), and the file read back (the
// report's view of the check). read_check_differences throws std::runtime_error naming a bad line.
std::string check_differences_csv(const DriverCheck& c);
DriverCheck read_check_differences(const std::string& path, const std::string& driver);
// What the sweep prints: how many points were checked, the largest difference of each figure and where,
// and how many checked figures lie in the study's bands.
std::string check_summary_text(const DriverCheck& c, const std::string& study_driver);

}  // namespace t3sim::study
