#include "sim/report/sweep_plot.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "sim/io/files/atomic_file.hpp"
#include "sim/report/sweep_axes_plot.hpp"
#include "sim/study/sweep_rows.hpp"

namespace t3sim::report {
namespace {

bool have_gnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

}  // namespace

std::string plot_sweep(const std::string& csv, const std::string& dir, const io::SweepSpec& spec) {
  if (!have_gnuplot()) return "no plots: gnuplot is not installed (apt-get install gnuplot-nox)";
  if (!spec.plot.x.empty()) return plot_study_axes(csv, dir, spec).failure;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  const std::vector<std::string> header = study::split_csv_line(line);
  std::vector<std::vector<std::string>> cells;
  while (std::getline(in, line)) {
    auto c = study::split_csv_line(line);
    if (c.size() < 11 || c[8].empty()) continue;  // no bandwidth: a workload without sizes of its own
    cells.push_back(std::move(c));
  }
  // Besides machine and workload, every column that varies over the study (placement, the axes: between
  // main_job_end_us and id) names a line of its own: two placements are two lines, not one zigzag.
  std::vector<size_t> varying;
  const auto axes_from = std::find(header.begin(), header.end(), "main_job_end_us");
  for (size_t col = 4; col + 1 < header.size(); ++col) {
    const bool candidate =
        col == 4 || (axes_from != header.end() && col > static_cast<size_t>(axes_from - header.begin()));
    std::set<std::string> values;
    for (const auto& c : cells) values.insert(col < c.size() ? c[col] : "");
    if (candidate && values.size() > 1) varying.push_back(col);
  }
  // bytes -> line name -> pes -> (median, min, max)
  std::map<long long, std::map<std::string, std::map<int, std::tuple<double, double, double>>>> series;
  for (const auto& c : cells) {
    std::string name = c[2] + " on " + c[1];
    for (size_t col : varying) name += ", " + header[col] + " " + (col < c.size() ? c[col] : "");
    series[std::stoll(c[5])][name][std::stoi(c[3])] = {std::stod(c[8]), std::stod(c[7]), std::stod(c[10])};
  }
  for (const auto& [bytes, lines] : series) {
    const std::string stem = fmt::format("{}/pe-bandwidth-{}B", dir, bytes);
    std::string data, plot;
    int index = 0;
    int least = 1 << 30, most = 0;
    for (const auto& [key, points] : lines) {
      for (const auto& [pes, v] : points) {
        least = std::min(least, pes);
        most = std::max(most, pes);
      }
      for (const auto& [pes, v] : points)
        data += fmt::format("{} {:.3f} {:.3f} {:.3f}\n", pes, std::get<0>(v), std::get<1>(v), std::get<2>(v));
      data += "\n\n";  // gnuplot data blocks are separated by two blank lines
      plot += fmt::format("{}'{}.dat' index {} using 1:2:3:4 with yerrorlines lw 2 title '{}'", index ? ", " : "plot ",
                          stem, index, key);
      ++index;
    }
    io::write_file_atomically(stem + ".dat", data);
    io::write_file_atomically(
        stem + ".gp",
        fmt::format("set terminal svg size 900,560 dynamic noenhanced font 'sans,12'\nset output '{}.svg'\n"
                    "set title 'Per-PE bandwidth, {} B messages (median, bars min..max)'\n"
                    "set xlabel 'PEs in the job'\nset ylabel 'MB/s per PE'\nset logscale x 2\nset grid\n"
                    "set key top right\nset yrange [0:*]\n{}{}\n",
                    stem, bytes,
                    // one PE count (a ping-pong study): a range around it, or gnuplot warns of an empty range
                    least == most ? fmt::format("set xrange [{}:{}]\n", least / 2.0, most * 2.0)
                                  : "set autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n",
                    plot));
    if (std::system(("gnuplot '" + stem + ".gp'").c_str()) != 0) return "gnuplot failed on " + stem + ".gp";
  }
  return "";
}

}  // namespace t3sim::report
