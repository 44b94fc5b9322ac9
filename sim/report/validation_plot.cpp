#include "sim/report/validation_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "sim/io/files/atomic_file.hpp"
#include "sim/report/report_style.hpp"

namespace t3sim::report {
namespace {

std::string run_gnuplot(const std::string& script_path, const std::string& script) {
  io::write_file_atomically(script_path, script);
  if (std::system(("gnuplot '" + script_path + "'").c_str()) != 0) return "gnuplot failed on " + script_path;
  return "";
}

}  // namespace

std::string plot_validation(const std::vector<calib::CaseResult>& results, const std::string& dir) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    return "no plots: gnuplot is not installed (apt-get install gnuplot-nox)";
  std::filesystem::create_directories(dir);
  std::map<std::string, std::vector<const calib::CaseResult*>> by_suite;
  for (const auto& r : results)
    if (!r.measured.report_only) by_suite[r.measured.suite].push_back(&r);
  for (const auto& [suite, cases] : by_suite) {
    const std::string stem = dir + "/" + suite;
    // Parity: one block per unit, so bandwidths and times do not share an axis.
    std::map<std::string, std::string> blocks;
    std::set<double> tolerances;
    double lo = 1e300, hi = 0;
    for (const auto* c : cases) {
      blocks[c->measured.unit] += fmt::format("{:.6g} {:.6g}\n", c->measured.measured, c->predicted);
      tolerances.insert(c->measured.tolerance);
      lo = std::min({lo, c->measured.measured, c->predicted});
      hi = std::max({hi, c->measured.measured, c->predicted});
    }
    std::vector<std::string> units;
    for (const auto& [unit, rows] : blocks) units.push_back(unit);
    // The suite's own tolerances (it was +-10% for every suite), each with its own dash.
    std::string bands;
    int dash = 2;
    for (double t : tolerances)
      bands += fmt::format(", (1+{0})*x title '+-{1:.0f}%' dt {2}, (1-{0})*x notitle dt {2}", t, 100 * t, dash++);
    std::string data, plot;
    int index = 0;
    for (const auto& [unit, rows] : blocks) {
      data += rows + "\n\n";
      plot += fmt::format("{}'{}-parity.dat' index {} using 1:2 with points pt 7 ps 0.8 title 'cases ({})'",
                          index ? ", " : "", stem, index, unit);
      ++index;
    }
    io::write_file_atomically(stem + "-parity.dat", data);
    std::string note = run_gnuplot(
        stem + "-parity.gp",
        fmt::format(
            "set terminal svg size 700,640 dynamic noenhanced font 'sans,12'\nset output '{0}-parity.svg'\n"
            "set title '{1}: predicted against measured'\nset xlabel 'measured ({3})'\nset ylabel 'predicted ({3})'\n"
            "set logscale xy\nset grid\nset key top left\nset xrange [{4}:{5}]\nset yrange [{4}:{5}]\n"
            "set xtics {6}\nset ytics {6}\nplot {2}, x title 'predicted = measured' lw 1.5{7}\n",
            stem, suite, plot, units_text(units), lo / 1.3, hi * 1.3, log_tics(lo / 1.3, hi * 1.3), bands));
    if (!note.empty()) return note;

    // Rate against size, for cases that are durations of a given size.
    std::map<std::string, std::map<double, std::pair<double, double>>> series;  // profile/metric -> bytes -> rates
    double least = 1e300, most = 0;
    for (const auto* c : cases)
      if (c->measured.bytes > 0 && c->measured.unit == "us") {
        series[c->measured.run.profile + " " + c->measured.metric][c->measured.bytes] = {
            c->measured.bytes / c->measured.measured, c->measured.bytes / c->predicted};
        least = std::min(least, c->measured.bytes);
        most = std::max(most, c->measured.bytes);
      }
    if (series.empty()) continue;
    data.clear();
    plot.clear();
    index = 0;
    for (const auto& [name, points] : series) {
      for (const auto& [bytes, rates] : points)
        data += fmt::format("{:.0f} {:.6g} {:.6g}\n", bytes, rates.first, rates.second);
      data += "\n\n";
      plot += fmt::format(
          "{0}'{1}-rate.dat' index {2} using 1:2 with points pt 7 lc {2} title '{3} measured', "
          "'{1}-rate.dat' index {2} using 1:3 with lines lc {2} title '{3} predicted'",
          index ? ", " : "", stem, index, name);
      ++index;
    }
    io::write_file_atomically(stem + "-rate.dat", data);
    note = run_gnuplot(
        stem + "-rate.gp",
        fmt::format("set terminal svg size 900,600 dynamic noenhanced font 'sans,12'\nset output '{0}-rate.svg'\n"
                    "set title '{1}: rate against message size'\nset xlabel 'message size (log scale)'\n"
                    "set ylabel 'rate (MB/s)'\nset logscale x 2\n{3}set grid\nset key outside right\nplot {2}\n",
                    stem, suite, plot, binary_size_axis(least, most)));
    if (!note.empty()) return note;
  }
  return "";
}

}  // namespace t3sim::report
