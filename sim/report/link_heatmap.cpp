#include "sim/report/link_heatmap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "sim/io/files/atomic_file.hpp"

namespace t3sim::report {

std::string plot_link_heatmap(const core::MachineSpec& m, const analysis::TrafficReport& t, const std::string& stem) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    return "no heat map: gnuplot is not installed (apt-get install gnuplot-nox)";
  const core::Torus torus = m.torus();
  const core::Coord d = torus.dims();
  // util[dim][node]: the busier direction.
  std::vector<std::vector<double>> util(3, std::vector<double>(static_cast<size_t>(torus.node_count()), 0.0));
  for (const auto& l : t.links) {
    if (l.dim < 0 || l.name.size() < 2 || l.name[0] != 'n') continue;
    const int node = std::stoi(l.name.substr(1, l.name.find('.') - 1));
    double& u = util[static_cast<size_t>(l.dim)][static_cast<size_t>(node)];
    u = std::max(u, l.utilisation);
  }
  const int columns = d[2] * (d[0] + 1) - 1;  // z planes side by side, one empty column between
  std::string data;
  for (int dim = 0; dim < 3; ++dim) {
    for (int y = 0; y < d[1]; ++y) {
      for (int c = 0; c < columns; ++c) {
        const int z = c / (d[0] + 1), x = c % (d[0] + 1);
        data += x == d[0] ? "NaN" : fmt::format("{:.4f}", 100 * util[dim][torus.node_id({x, y, z})]);
        data += c + 1 < columns ? " " : "\n";
      }
    }
    data += "\n\n";
  }
  io::write_file_atomically(stem + ".links.dat", data);
  // The panels hold torus links only: when the busiest link is a node's injection or ejection link
  // (links are listed busiest first), the title says where it is.
  std::string busiest;
  if (!t.links.empty() && t.links[0].dim < 0)
    busiest =
        fmt::format("\\nbusiest link {} at {:.1f}%: a node's {} link, not drawn here", t.links[0].name,
                    100 * t.links[0].utilisation, t.links[0].name.rfind("inject.", 0) == 0 ? "injection" : "ejection");
  // Whole-number ticks, at most about a dozen: a narrow axis (2 rows) would get 0, 0.5, 1 from gnuplot.
  const auto step = [](int n) { return std::max(1, (n + 11) / 12); };
  std::string script = fmt::format(
      "set terminal svg size {},{} dynamic noenhanced font 'sans,11'\nset output '{}.links.svg'\n"
      "set multiplot layout 3,1 title \"link utilisation % over the run (columns: x within each z plane, z = "
      "0..{}){}\"\n"
      "set cbrange [0:100]\nset palette rgbformulae 22,13,-31\nset xlabel 'x + (X+1) z'\nset ylabel 'y'\n"
      "unset key\nset size ratio -1\nset datafile missing 'NaN'\nset xrange [-0.5:{}]\nset yrange [-0.5:{}]\n"
      "set xtics 0,{}\nset ytics 0,{}\nset format x '%.0f'\nset format y '%.0f'\n",
      std::clamp(12 * columns + 220, 480, 2400), std::clamp(3 * (14 * d[1] + 90), 480, 2400), stem, d[2] - 1, busiest,
      columns - 0.5, d[1] - 0.5, step(columns), step(d[1]));
  for (int dim = 0; dim < 3; ++dim)
    script += fmt::format("set title '{} links'\nplot '{}.links.dat' index {} matrix with image pixels\n", "xyz"[dim],
                          stem, dim);
  script += "unset multiplot\n";
  io::write_file_atomically(stem + ".links.gp", script);
  // 2>/dev/null: gnuplot warns about the NaN gap columns, which are meant.
  if (std::system(("gnuplot '" + stem + ".links.gp' 2>/dev/null").c_str()) != 0)
    return "gnuplot failed on " + stem + ".links.gp";
  return "";
}

}  // namespace t3sim::report
