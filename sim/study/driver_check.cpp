#include "sim/study/driver_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "sim/analysis/bench_verdict.hpp"
#include "sim/core/support/seeded_permutation.hpp"
#include "sim/study/sweep_rows.hpp"

namespace t3sim::study {
namespace {

// Any fixed number: it only has to be the same from run to run.
constexpr uint64_t kCheckSeed = 32;

// The cells of a row by column name; an empty cell (a figure the run has not) is absent.
std::map<std::string, double> cells_by_name(const std::string& row, const std::vector<std::string>& header) {
  const std::vector<std::string> cells = split_csv_line(row);
  std::map<std::string, double> out;
  for (size_t i = 0; i < header.size() && i < cells.size(); ++i) {
    if (cells[i].empty()) continue;
    try {
      size_t used = 0;
      const double v = std::stod(cells[i], &used);
      if (used == cells[i].size()) out[header[i]] = v;
    } catch (const std::exception&) {  // a text cell (machine, busiest link, an axis label)
    }
  }
  return out;
}

std::optional<CheckedFigure> figure(const std::map<std::string, double>& study,
                                    const std::map<std::string, double>& check, const std::string& column) {
  const auto s = study.find(column), c = check.find(column);
  if (s == study.end() || c == check.end() || c->second <= 0) return std::nullopt;
  return CheckedFigure{s->second, c->second};
}

std::string percent(double x) { return fmt::format("{:+.1f}%", 100 * x); }

}  // namespace

std::vector<PointToCheck> check_points(const std::vector<io::SweepPoint>& points, double fraction,
                                       const std::string& driver) {
  if (!(fraction > 0 && fraction <= 1))
    throw std::invalid_argument(fmt::format("--check: a fraction of the points in (0, 1], not {}", fraction));
  std::vector<const io::SweepPoint*> eligible;
  for (const auto& p : points)
    if (driver_name(p.settings.driver) != driver) eligible.push_back(&p);
  const int n = static_cast<int>(eligible.size());
  const int take = std::min(n, static_cast<int>(std::ceil(fraction * n - 1e-9)));
  std::vector<int> order = core::seeded_permutation(n, kCheckSeed);
  order.resize(static_cast<size_t>(take));
  std::sort(order.begin(), order.end());
  std::vector<PointToCheck> out;
  for (int i : order) {
    const io::SweepPoint& own = *eligible[static_cast<size_t>(i)];
    out.push_back({own.id(), own});
    out.back().point.settings.driver = driver;
  }
  return out;
}

std::string check_rows_file(const std::string& dir, const std::string& driver) {
  return dir + "/check-" + driver + ".csv";
}

std::string check_differences_file(const std::string& dir, const std::string& driver) {
  return dir + "/check-" + driver + "-differences.csv";
}

DriverCheck compare_rows(const std::vector<PointToCheck>& checked, const std::map<std::string, std::string>& study,
                         const std::map<std::string, std::string>& check, const std::string& header,
                         const std::string& driver) {
  const std::vector<std::string> columns = split_csv_line(header);
  DriverCheck out;
  out.driver = driver;
  for (const auto& [study_id, p] : checked) {
    const auto c = check.find(p.id());
    if (c == check.end()) continue;
    const auto s = study.find(study_id);
    if (s == study.end()) continue;
    const auto sv = cells_by_name(s->second, columns), cv = cells_by_name(c->second, columns);
    const auto makespan = figure(sv, cv, "makespan_us");
    if (!makespan) continue;
    CheckedPoint cp;
    cp.index = p.index;
    cp.id = study_id;
    cp.makespan_us = *makespan;
    cp.pe_median_MBps = figure(sv, cv, "pe_MBps_median");
    cp.pe_min_MBps = figure(sv, cv, "pe_MBps_min");
    const auto lo = sv.find("pe_MBps_median_p05"), hi = sv.find("pe_MBps_median_p95");
    if (lo != sv.end() && hi != sv.end()) cp.pe_median_band = std::make_pair(lo->second, hi->second);
    out.points.push_back(cp);
  }
  return out;
}

std::string check_differences_csv(const DriverCheck& c) {
  std::string text =
      "index,makespan_us,makespan_us_check,makespan_difference,pe_MBps_median,pe_MBps_median_check,"
      "pe_MBps_median_difference,pe_MBps_min,pe_MBps_min_check,pe_MBps_min_difference,pe_MBps_median_p05,"
      "pe_MBps_median_p95,check_inside_band,id\n";
  auto cells = [](const std::optional<CheckedFigure>& f) {
    return f ? fmt::format("{:.3f},{:.3f},{:.4f}", f->study, f->check, f->difference()) : std::string(",,");
  };
  for (const auto& p : c.points) {
    const std::string band = p.pe_median_band
                                 ? fmt::format("{:.3f},{:.3f},{}", p.pe_median_band->first, p.pe_median_band->second,
                                               p.check_inside_band() ? "yes" : "no")
                                 : std::string(",,");
    text += fmt::format("{},{},{},{},{},{}\n", p.index, cells(p.makespan_us), cells(p.pe_median_MBps),
                        cells(p.pe_min_MBps), band, p.id);
  }
  return text;
}

DriverCheck read_check_differences(const std::string& path, const std::string& driver) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read the check's differences");
  DriverCheck out;
  out.driver = driver;
  std::string line;
  std::getline(in, line);  // the header
  auto number = [&](const std::string& cell) {
    try {
      return std::stod(cell);
    } catch (const std::exception&) {
      throw std::runtime_error(path + ": not a number in '" + line + "'");
    }
  };
  auto read_figure = [&](const std::vector<std::string>& c, size_t at) -> std::optional<CheckedFigure> {
    if (c[at].empty()) return std::nullopt;
    return CheckedFigure{number(c[at]), number(c[at + 1])};
  };
  while (std::getline(in, line)) {
    const std::vector<std::string> c = split_csv_line(line);
    if (c.size() != 14) throw std::runtime_error(path + ": a line of " + std::to_string(c.size()) + " cells, not 14");
    CheckedPoint p;
    p.index = static_cast<int>(number(c[0]));
    const auto makespan = read_figure(c, 1);
    if (!makespan) throw std::runtime_error(path + ": no makespan in '" + line + "'");
    p.makespan_us = *makespan;
    p.pe_median_MBps = read_figure(c, 4);
    p.pe_min_MBps = read_figure(c, 7);
    if (!c[10].empty()) p.pe_median_band = std::make_pair(number(c[10]), number(c[11]));
    p.id = c[13];
    out.points.push_back(p);
  }
  return out;
}

std::string check_summary_text(const DriverCheck& c, const std::string& study_driver) {
  std::string text = fmt::format("checked {} point{} under --driver {}; {} against {}, largest difference:\n",
                                 c.points.size(), c.points.size() == 1 ? "" : "s", c.driver, study_driver, c.driver);
  auto largest = [&](const char* name, auto get) {
    const CheckedPoint* worst = nullptr;
    double worst_diff = 0;
    std::vector<double> sizes;  // |difference| of every point that has the figure
    for (const auto& p : c.points) {
      const std::optional<CheckedFigure> f = get(p);
      if (!f) continue;
      sizes.push_back(std::abs(f->difference()));
      if (!worst || std::abs(f->difference()) > std::abs(worst_diff)) {
        worst = &p;
        worst_diff = f->difference();
      }
    }
    if (!worst) return;
    text += fmt::format("  {:<20} {:>8} at point {} ({}); median |difference| {:.1f}%\n", name, percent(worst_diff),
                        worst->index, worst->id, 100 * analysis::median_of(sizes));
  };
  largest("makespan", [](const CheckedPoint& p) { return std::optional<CheckedFigure>(p.makespan_us); });
  largest("per-PE median MB/s", [](const CheckedPoint& p) { return p.pe_median_MBps; });
  largest("slowest PE MB/s", [](const CheckedPoint& p) { return p.pe_min_MBps; });
  const auto banded = std::count_if(c.points.begin(), c.points.end(),
                                    [](const CheckedPoint& p) { return p.pe_median_band.has_value(); });
  if (banded > 0)
    text += fmt::format(
        "  the {} per-PE median lies inside the study's 5-95% band at {} of {} points\n", c.driver,
        std::count_if(c.points.begin(), c.points.end(), [](const CheckedPoint& p) { return p.check_inside_band(); }),
        banded);
  return text;
}

}  // namespace t3sim::study
