#include "sim/report/sweep_plot.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <cstdlib>
#include <fstream>
#include <map>
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
  // bytes -> (machine, workload) -> pes -> (median, min, max)
  std::map<long long, std::map<std::pair<std::string, std::string>, std::map<int, std::tuple<double, double, double>>>>
      series;
  while (std::getline(in, line)) {
    const auto c = study::split_csv_line(line);
    if (c.size() < 11 || c[8].empty()) continue;  // no bandwidth: a workload without sizes of its own
    series[std::stoll(c[5])][{c[1], c[2]}][std::stoi(c[3])] = {std::stod(c[8]), std::stod(c[7]), std::stod(c[10])};
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
      plot += fmt::format("{}'{}.dat' index {} using 1:2:3:4 with yerrorlines lw 2 title '{} on {}'",
                          index ? ", " : "plot ", stem, index, key.second, key.first);
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
