#include "sim/report/sweep_axes_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "sim/io/files/atomic_file.hpp"
#include "sim/study/sweep_rows.hpp"

namespace t3sim::report {
namespace {

using Cells = std::map<std::string, std::string>;  // column name -> cell

std::vector<Cells> read_cells(const std::string& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  const auto header = study::split_csv_line(line);
  std::vector<Cells> rows;
  while (std::getline(in, line)) {
    const auto c = study::split_csv_line(line);
    if (c.size() != header.size()) continue;  // a row of another format
    Cells row;
    for (size_t i = 0; i < c.size(); ++i) row[header[i]] = c[i];
    rows.push_back(row);
  }
  return rows;
}

// The plotted number of a row, or nothing when its cell is empty (no bandwidth in an I/O run).
std::optional<double> y_value(const Cells& row, const std::string& y) {
  const bool seconds = y == "main_job_end_s" || y == "makespan_s";
  const std::string column = seconds ? y.substr(0, y.size() - 2) + "_us" : y;
  const auto it = row.find(column);
  if (it == row.end() || it->second.empty()) return std::nullopt;
  return std::stod(it->second) * (seconds ? 1e-6 : 1.0);
}

// A column's values in the order the study lists them (an axis's labels; PE counts and sizes by value;
// the rest as they first appear).
std::vector<std::string> ordered_values(const io::SweepSpec& spec, const std::vector<Cells>& rows,
                                        const std::string& column) {
  for (const auto& a : spec.axes)
    if (a.name == column) {
      std::vector<std::string> labels;
      for (const auto& v : a.values) labels.push_back(v.label);
      return labels;
    }
  std::vector<std::string> seen;
  for (const auto& r : rows)
    if (std::find(seen.begin(), seen.end(), r.at(column)) == seen.end()) seen.push_back(r.at(column));
  if (column == "pes" || column == "bytes")
    std::sort(seen.begin(), seen.end(),
              [](const std::string& a, const std::string& b) { return std::stod(a) < std::stod(b); });
  return seen;
}

std::string file_safe(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return out;
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

StudyFigures plot_study_axes(const std::string& csv, const std::string& dir, const io::SweepSpec& spec) {
  const auto& plot = spec.plot;
  StudyFigures out;
  const std::vector<Cells> rows = read_cells(csv);
  if (rows.empty()) return {{}, "no plots: " + csv + " has no rows of this study"};
  // Columns that vary but are not placed in a figure: one figure per combination of their values.
  std::vector<std::string> split_by;
  std::vector<std::string> candidates = {"machine", "workload", "pes", "placement", "bytes"};
  for (const auto& a : spec.axes) candidates.push_back(a.name);
  for (const auto& c : candidates) {
    if (c == plot.x || c == plot.series || c == plot.rows || c == plot.columns) continue;
    if (ordered_values(spec, rows, c).size() > 1) split_by.push_back(c);
  }
  auto values_of = [&](const std::string& column) {
    return column.empty() ? std::vector<std::string>{""} : ordered_values(spec, rows, column);
  };
  const auto xs = values_of(plot.x), series = values_of(plot.series), row_values = values_of(plot.rows),
             column_values = values_of(plot.columns);
  std::map<std::string, std::vector<const Cells*>> figures;  // figure key -> its rows
  for (const auto& r : rows) {
    std::string key;
    for (const auto& c : split_by) key += "-" + c + "-" + r.at(c);
    figures[key].push_back(&r);
  }
  const std::string y_label = plot.y == "main_job_end_s" ? "main job's run time (s)"
                              : plot.y == "makespan_s"   ? "makespan (s)"
                                                         : plot.y;
  for (const auto& [key, members] : figures) {
    const std::string stem = dir + "/" + file_safe(plot.y + "-by-" + plot.x + key);
    StudyFigure figure;
    figure.svg = stem + ".svg";
    figure.caption = y_label + " against " + plot.x + (plot.series.empty() ? "" : ", a line per " + plot.series) +
                     (plot.rows.empty() ? "" : ", a row of panels per " + plot.rows) +
                     (plot.columns.empty() ? "" : ", a column per " + plot.columns) +
                     (key.empty() ? "" : " (" + key.substr(1) + ")") + ".";
    auto cell = [&](const Cells& r, const std::string& column) { return column.empty() ? "" : r.at(column); };
    std::string data, script;
    int block = 0;
    std::string xtics;
    for (size_t i = 0; i < xs.size(); ++i) xtics += fmt::format("{}{} {}", i ? ", " : "", quoted(xs[i]), i);
    script += fmt::format(
        "set terminal svg size {},{} dynamic noenhanced font 'sans,11'\nset output '{}.svg'\n"
        "set multiplot layout {},{} title {}\nset grid\nset yrange [0:*]\nset xrange [-0.5:{}]\n"
        "set xtics ({}) rotate by -30\nset key top left font ',9'\nset offsets 0, 0, graph 0.3, 0\n",
        std::max<size_t>(1, column_values.size()) * 420 + 60, std::max<size_t>(1, row_values.size()) * 300 + 40, stem,
        row_values.size(), column_values.size(),
        quoted(spec.name + ": " + y_label + " against " + plot.x + (key.empty() ? "" : " (" + key.substr(1) + ")")),
        xs.size() - 0.5, xtics);
    for (const auto& rv : row_values)
      for (const auto& cv : column_values) {
        std::string title;
        if (!plot.rows.empty()) title += plot.rows + " " + rv;
        if (!plot.columns.empty()) title += (title.empty() ? "" : ", ") + plot.columns + " " + cv;
        std::string curves;
        for (const auto& sv : series) {
          std::string points;
          for (size_t i = 0; i < xs.size(); ++i)
            for (const Cells* r : members)
              if (cell(*r, plot.rows) == rv && cell(*r, plot.columns) == cv && cell(*r, plot.series) == sv &&
                  r->at(plot.x) == xs[i])
                if (const auto y = y_value(*r, plot.y)) points += fmt::format("{} {:.6g}\n", i, *y);
          if (points.empty()) continue;
          data += points + "\n\n";  // gnuplot data blocks are separated by two blank lines
          const std::string name = plot.series.empty() ? plot.y : plot.series + " " + sv;
          curves += fmt::format("{}'{}.dat' index {} using 1:2 with linespoints lw 2 title {}",
                                curves.empty() ? "" : ", ", stem, block++, quoted(name));
          figure.series.push_back(name);
        }
        script +=
            fmt::format("set title {}\nset xlabel {}\nset ylabel {}\n", quoted(title), quoted(plot.x), quoted(y_label));
        script += curves.empty() ? "set key off\nplot [0:1] NaN notitle\nset key\n" : "plot " + curves + "\n";
      }
    script += "unset multiplot\n";
    io::write_file_atomically(stem + ".dat", data);
    io::write_file_atomically(stem + ".gp", script);
    if (std::system(("gnuplot '" + stem + ".gp' 2>/dev/null").c_str()) != 0) {
      out.failure = "gnuplot failed on " + stem + ".gp";
      return out;
    }
    out.figures.push_back(figure);
  }
  return out;
}

}  // namespace t3sim::report
