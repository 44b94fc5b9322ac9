#include "sim/report/sweep_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/output/results_writer.hpp"
#include "sim/io/study/sweep_spec.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/link_heatmap.hpp"
#include "sim/report/report_style.hpp"
#include "sim/report/sweep_axes_plot.hpp"
#include "sim/study/driver_check.hpp"
#include "sim/study/sweep_parts.hpp"
#include "sim/study/sweep_rows.hpp"

namespace t3sim::report {
namespace {

struct Row {
  std::vector<std::string> cells;
  int index = 0, pes = 0;
  double bytes = 0;
  std::string machine, workload;
  std::string variant;  // the other columns that vary over the study, as "placement random:7, AXIS VALUE"
  double median = 0, min = 0, max = 0, link_utilisation = 0;
  std::optional<double> p05, p95;
};

std::vector<Row> read_rows(const std::string& csv) {
  std::vector<Row> rows;
  for (const auto& [id, line] : study::read_sweep_rows(csv)) {
    Row r;
    r.cells = study::split_csv_line(line);
    if (r.cells.size() < 21) continue;
    r.index = std::stoi(r.cells[0]);
    r.machine = r.cells[1];
    r.workload = r.cells[2];
    // An empty cell (no bandwidth: an I/O run) reads as 0.
    auto number = [&](size_t i) { return r.cells[i].empty() ? 0.0 : std::stod(r.cells[i]); };
    r.pes = std::stoi(r.cells[3]);
    r.bytes = number(5);
    r.min = number(7);
    r.median = number(8);
    r.max = number(10);
    r.link_utilisation = number(12);
    if (!r.cells[18].empty() && !r.cells[19].empty()) {
      r.p05 = std::stod(r.cells[18]);
      r.p95 = std::stod(r.cells[19]);
    }
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.index < b.index; });
  return rows;
}

// Each row's variant: the values of the columns besides machine, workload, PEs and size that take more
// than one value over the study (placement, each axis), so that each variant gets a line of its own
// instead of two points at one x joined into a zigzag. Columns by the study's header.
void name_variants(std::vector<Row>& rows, const std::vector<std::string>& header) {
  std::vector<size_t> candidates;  // placement, then the axes: between main_job_end_us and id
  for (size_t c = 0; c < header.size(); ++c)
    if (header[c] == "placement") candidates.push_back(c);
  const auto axes_from = std::find(header.begin(), header.end(), "main_job_end_us");
  if (axes_from != header.end())
    for (size_t c = static_cast<size_t>(axes_from - header.begin()) + 1; c + 1 < header.size(); ++c)
      candidates.push_back(c);
  std::vector<size_t> varying;
  for (size_t c : candidates) {
    std::set<std::string> values;
    for (const auto& r : rows)
      if (c < r.cells.size()) values.insert(r.cells[c]);
    if (values.size() > 1) varying.push_back(c);
  }
  for (auto& r : rows)
    for (size_t c : varying)
      r.variant += (r.variant.empty() ? "" : ", ") + header[c] + " " + (c < r.cells.size() ? r.cells[c] : "");
}

// Job sizes on the x axis: by value on a log scale, unless two neighbours would crowd (closer than a
// factor 1.25, like 512 and 532): then as evenly spaced labelled categories.
struct XAxis {
  bool categories = false;
  std::map<int, int> position;  // pes -> category position
  std::string setup;            // gnuplot lines
  double x(int pes) const { return categories ? position.at(pes) : pes; }
};

XAxis x_axis(const std::set<int>& pes) {
  XAxis a;
  std::vector<int> v(pes.begin(), pes.end());
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] < 1.25 * v[i - 1]) a.categories = true;
  if (a.categories) {
    std::string tics;
    for (size_t i = 0; i < v.size(); ++i) {
      a.position[v[i]] = static_cast<int>(i);
      tics += fmt::format("{}'{}' {}", i ? ", " : "", v[i], i);
    }
    a.setup = fmt::format("set xtics ({})\nset xrange [-0.4:{}.4]\n", tics, v.size() - 1);
  } else if (v.size() == 1) {
    a.setup = fmt::format("set logscale x 2\nset xrange [{}:{}]\nset xtics ({})\n", v[0] / 1.5, v[0] * 1.5, v[0]);
  } else {
    std::string tics;
    for (size_t i = 0; i < v.size(); ++i) tics += fmt::format("{}{}", i ? ", " : "", v[i]);
    a.setup =
        fmt::format("set logscale x 2\nset xrange [{}:{}]\nset xtics ({})\n", v.front() / 1.2, v.back() * 1.2, tics);
  }
  return a;
}

std::string size_text(double bytes) {
  if (bytes >= 1048576 && std::fmod(bytes, 1048576) == 0) return fmt::format("{:.0f} MiB", bytes / 1048576);
  if (bytes >= 1024 && std::fmod(bytes, 1024) == 0) return fmt::format("{:.0f} KiB", bytes / 1024);
  return fmt::format("{:.0f} B", bytes);
}

struct MachineInfo {
  std::string path;
  core::MachineSpec spec;
};

// The machines' parameters: value, range and where each comes from.
std::string machines_html(const std::vector<MachineInfo>& machines) {
  std::string out;
  for (const auto& mi : machines) {
    const core::MachineSpec& m = mi.spec;
    out +=
        fmt::format("<h3>{}</h3>\n<p class=\"meta\">{} &mdash; <code>{}</code>; torus {}, {} PEs</p>\n",
                    html_escape(m.name), html_escape(m.doc), html_escape(mi.path),
                    html_escape(fmt::format("{}x{}x{}", m.torus().dims()[0], m.torus().dims()[1], m.torus().dims()[2])),
                    m.pe_count());
    HtmlTable t;
    t.id = "machine-" + m.name;
    t.header = {"parameter", "value", "range", "range from", "provenance"};
    auto row = [&](const std::string& path, const std::string& value) {
      const auto u = m.uncertainty.find(path);
      const auto p = m.provenance.find(path);
      t.rows.push_back({path, value, u == m.uncertainty.end() ? "-" : core::range_text(path, u->second),
                        u == m.uncertainty.end() ? "" : u->second.why, p == m.provenance.end() ? "" : p->second});
    };
    auto add = [&](const std::string& path, double value, core::Quantity q) {
      row(path, core::format_quantity(value, q));
    };
    for (const auto& d : core::node_params()) add("node." + d.key, d.get(m.node), d.quantity);
    for (const auto& d : core::network_params()) add("network." + d.key, d.get(m.network), d.quantity);
    for (const auto& path : core::enum_param_paths())  // the packet driver's named rules (arbitration ...)
      row(path, core::enum_param_value(m, path));
    if (m.has_io())
      for (const auto& d : core::io_params()) add("io." + d.key, d.get(m.io), d.quantity);
    if (const core::SoftwareProfile* p = m.find_profile(m.default_profile))
      for (const auto& d : core::profile_params())
        add("software.profiles." + p->name + "." + d.key, d.get(*p), d.quantity);
    out += table_html(t);
  }
  return out;
}

// The heat map of the most loaded point, from the traffic report its run wrote (`run --traffic`).
std::string heatmap_html(const std::string& dir, const std::vector<io::SweepPoint>& points, const Row& busiest,
                         const std::string& files) {
  const auto it =
      std::find_if(points.begin(), points.end(), [&](const io::SweepPoint& p) { return p.index == busiest.index; });
  if (it == points.end()) return "<p>(the most loaded point is not in the study any more)</p>\n";
  const std::string traffic_path = study::point_traffic_file(dir, busiest.index);
  if (!std::filesystem::exists(traffic_path))
    return "<p>(no heat map: " + html_escape(traffic_path) +
           " is missing; its run did not write a traffic report, as runs before t3sim wrote them did not)</p>\n";
  analysis::TrafficReport traffic;
  traffic.links = io::links_of_traffic_json(io::read_whole_file(traffic_path), traffic_path);
  const std::string stem = files + "/busiest-point";
  const std::string note = plot_link_heatmap(io::load_machine(it->machine), traffic, stem);
  const std::string svg_path = note.empty() ? stem + ".links.svg" : "";
  const std::string& link = busiest.cells[13];
  // The panels hold the torus's links: a node's injection or ejection link is not among them, so say so.
  const bool off_panels = link.rfind("inject.", 0) == 0 || link.rfind("eject.", 0) == 0;
  const std::string caption = fmt::format(
      "Link utilisation over the run of the most loaded point (#{}: {} on {}, {} PEs, {}; busiest link {} at "
      "{:.1f}%{}), "
      "the busier direction of each link, x/y/z links in three panels.",
      busiest.index, busiest.workload, busiest.machine, busiest.pes, size_text(busiest.bytes), link,
      100 * busiest.link_utilisation,
      off_panels
          ? fmt::format(", the {} link of node {}: not drawn, the panels show torus links only",
                        link.rfind("inject.", 0) == 0 ? "injection" : "ejection", link.substr(link.find('.') + 1))
          : "");
  return figure_html("heatmap",
                     svg_path.empty() ? "" : inline_gnuplot_svg(svg_path, "heatmap", {"x links", "y links", "z links"}),
                     {"x links", "y links", "z links"}, html_escape(caption));
}

}  // namespace

// The points the sweep ran again under another driver (sweep --check): what the check says, and a row
// per point. "" when the sweep ran no check.
std::string check_html(const std::string& dir, const std::string& driver, const io::SweepSpec& spec) {
  if (driver.empty()) return "";
  const std::string path = study::check_differences_file(dir, driver);
  if (!std::filesystem::exists(path)) return "";
  const study::DriverCheck check = study::read_check_differences(path, driver);
  HtmlTable t;
  t.id = "check";
  t.header = {"index",
              "makespan (us)",
              driver + " makespan (us)",
              "difference",
              "per-PE median (MB/s)",
              driver + " median",
              "difference",
              "slowest PE (MB/s)",
              driver + " slowest",
              "difference",
              "point"};
  auto cells = [](const std::optional<study::CheckedFigure>& f) -> std::vector<std::string> {
    if (!f) return {"", "", ""};
    return {fmt::format("{:.3f}", f->study), fmt::format("{:.3f}", f->check),
            fmt::format("{:+.1f}%", 100 * f->difference())};
  };
  for (const auto& p : check.points) {
    std::vector<std::string> row = {std::to_string(p.index)};
    for (const auto& f : {std::optional<study::CheckedFigure>(p.makespan_us), p.pe_median_MBps, p.pe_min_MBps})
      for (auto& c : cells(f)) row.push_back(c);
    row.push_back(p.id);
    t.rows.push_back(row);
  }
  const std::string study_driver = study::driver_name(spec.common.driver);
  return fmt::format(
             "<h2>Checked under --driver {}</h2>\n<p>Points drawn at random (a fixed seed) and run again "
             "under the {} driver: difference = (study &minus; {}) / {}.</p>\n<pre>{}</pre>\n",
             html_escape(driver), html_escape(driver), html_escape(driver), html_escape(driver),
             html_escape(study::check_summary_text(check, study_driver))) +
         table_html(t);
}

void write_sweep_manifest(const std::string& dir, const std::string& spec, int uncertainty, double check,
                          const std::string& check_driver) {
  nlohmann::ordered_json j;
  j["spec"] = std::filesystem::absolute(spec).lexically_normal().string();
  j["t3sim"] = T3SIM_VERSION;
  std::string command = "t3sim sweep " + spec + " --out " + dir;
  if (uncertainty > 0) command += " --uncertainty " + std::to_string(uncertainty);
  if (check > 0) command += fmt::format(" --check {} --check-driver {}", check, check_driver);
  j["command"] = command;
  j["uncertainty"] = uncertainty;
  if (check > 0) {
    j["check"] = check;
    j["check_driver"] = check_driver;
  }
  io::write_file_atomically(dir + "/sweep-manifest.json", j.dump(1) + "\n");
}

std::string write_sweep_report(const std::string& dir) {
  const std::string manifest_path = dir + "/sweep-manifest.json";
  if (!std::filesystem::exists(manifest_path))
    throw std::runtime_error(manifest_path + " is missing: is " + dir + " the --out folder of a t3sim sweep?");
  const auto manifest = nlohmann::json::parse(io::read_whole_file(manifest_path));
  const std::string spec_path = manifest.at("spec").get<std::string>();
  const io::SweepSpec spec = io::load_sweep(spec_path);
  const auto points = io::sweep_points(spec);
  std::vector<Row> rows = read_rows(dir + "/sweep.csv");
  if (rows.empty()) throw std::runtime_error(dir + "/sweep.csv has no results to report");
  name_variants(rows, study::split_csv_line(io::sweep_header(spec)));
  std::vector<std::string> variants;  // in the order the study's points first take them
  for (const auto& r : rows)
    if (std::find(variants.begin(), variants.end(), r.variant) == variants.end()) variants.push_back(r.variant);
  const std::string files = dir + "/report-files";
  std::filesystem::create_directories(files);

  std::vector<MachineInfo> machines;
  std::map<std::string, const core::MachineSpec*> machine_by_name;
  for (const auto& path : spec.machines) machines.push_back({path, io::load_machine(path)});
  for (const auto& mi : machines) machine_by_name[mi.spec.name] = &mi.spec;

  // One colour per pattern for the whole page, in the order the study lists them.
  std::vector<std::string> patterns;
  for (const auto& r : rows)
    if (std::find(patterns.begin(), patterns.end(), r.workload) == patterns.end()) patterns.push_back(r.workload);
  std::set<int> pes;
  std::set<double> sizes;
  std::set<std::string> machine_names;
  for (const auto& r : rows) {
    pes.insert(r.pes);
    sizes.insert(r.bytes);
    machine_names.insert(r.machine);
  }
  const XAxis axis = x_axis(pes);
  const bool bands = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.p05.has_value(); });
  const std::vector<std::string> dash = {"1", "2", "3", "4", "5"};

  std::string plots;
  int figure_number = 0;
  if (!spec.plot.x.empty()) {  // a study with axes: its own figures instead of per-PE bandwidth
    const StudyFigures study = plot_study_axes(dir + "/sweep.csv", files, spec);
    if (!study.failure.empty()) throw std::runtime_error(study.failure);
    for (const auto& f : study.figures) {
      const std::string id = fmt::format("study-{}", ++figure_number);
      plots += figure_html(id, inline_gnuplot_svg(f.svg, id, f.series), f.series, html_escape(f.caption));
    }
    sizes.clear();
    machine_names.clear();
  }
  // Message sizes with bandwidth to plot (a workload of no sizes of its own, an MD run, has none).
  for (auto it = sizes.begin(); it != sizes.end();)
    it = std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return r.bytes == *it && !r.cells[8].empty(); })
             ? std::next(it)
             : sizes.erase(it);
  for (double bytes : sizes) {
    const std::string stem = fmt::format("{}/pe-bandwidth-{:.0f}B", files, bytes);
    std::string data, plot;
    std::vector<std::string> series;
    int block = 0, machine_number = 0;
    for (const auto& machine : machine_names) {
      for (const auto& pattern : patterns) {
        for (size_t v = 0; v < variants.size(); ++v) {
          std::string lines;
          for (const auto& r : rows)
            if (r.bytes == bytes && r.machine == machine && r.workload == pattern && r.variant == variants[v])
              lines += fmt::format("{} {:.3f} {:.3f} {:.3f} {} {}\n", axis.x(r.pes), r.median, r.min, r.max,
                                   r.p05 ? fmt::format("{:.3f}", *r.p05) : "NaN",
                                   r.p95 ? fmt::format("{:.3f}", *r.p95) : "NaN");
          if (lines.empty()) continue;
          data += lines + "\n\n";
          const std::string colour = pattern_colour(pattern, patterns);
          const std::string name = (machine_names.size() > 1 ? pattern + " on " + machine : pattern) +
                                   (variants[v].empty() ? "" : ", " + variants[v]);
          if (bands) {
            plot += fmt::format(
                "'{}.dat' index {} using 1:5:6 with filledcurves lc rgb '{}' fs transparent solid 0.18 "
                "noborder title '{} 5-95%', ",
                stem, block, colour, name);
            series.push_back(name + " 5-95%");
          }
          // A variant's own point shape (filled circle, square, triangle, diamond, ...) and dash: same colour per
          // pattern. Two variants with equal values still overlap: the legend names both.
          const int shape[] = {7, 5, 9, 13, 11, 15};
          plot += fmt::format(
              "'{}.dat' index {} using 1:2:3:4 with yerrorlines lw 2 pt {} ps 0.7 dt {} lc rgb '{}' "
              "title '{}', ",
              stem, block, shape[v % 6],
              dash[(static_cast<size_t>(machine_number) * variants.size() + v) % dash.size()], colour, name);
          series.push_back(name);
          ++block;
        }
      }
      ++machine_number;
    }
    // Reference lines: what the bandwidth should be read against.
    machine_number = 0;
    for (const auto& machine : machine_names) {
      const auto it = machine_by_name.find(machine);
      if (it == machine_by_name.end()) continue;
      const core::MachineSpec& m = *it->second;
      const std::string suffix = machine_names.size() > 1 ? " (" + machine + ")" : "";
      plot += fmt::format("{:.3f} with lines lw 1.5 dt 2 lc rgb '#555555' title 'link rate {:.0f} MB/s{}', ",
                          m.network.link_bandwidth / 1e6, m.network.link_bandwidth / 1e6, suffix);
      series.push_back(fmt::format("link rate {:.0f} MB/s{}", m.network.link_bandwidth / 1e6, suffix));
      if (const core::SoftwareProfile* p = m.find_profile(m.default_profile)) {
        plot += fmt::format("{:.3f} with lines lw 1.5 dt 4 lc rgb '#999999' title 'PE put rate {:.0f} MB/s{}', ",
                            p->put_bandwidth / 1e6, p->put_bandwidth / 1e6, suffix);
        series.push_back(fmt::format("PE put rate {:.0f} MB/s{}", p->put_bandwidth / 1e6, suffix));
      }
      ++machine_number;
    }
    plot.resize(plot.size() - 2);
    io::write_file_atomically(stem + ".dat", data);
    io::write_file_atomically(
        stem + ".gp",
        fmt::format(
            "set terminal svg size 1000,520 noenhanced font 'sans,12' background '#ffffff'\n"
            "set output '{}.svg'\nset title 'Per-PE bandwidth, {} messages (median; bars: min..max over PEs{})'\n"
            "set xlabel 'PEs in the job{}'\nset ylabel 'per-PE bandwidth (MB/s)'\n{}set grid\n"
            "set key outside right top vertical Left reverse samplen 2\nset yrange [0:*]\n"
            "set datafile missing 'NaN'\nplot {}\n",
            stem, size_text(bytes), bands ? "; band: 5-95% over the parameter ranges" : "",
            axis.categories ? " (labelled categories: the sizes crowd on a log axis)" : " (log scale)", axis.setup,
            plot));
    if (std::system(("gnuplot '" + stem + ".gp' 2>/dev/null").c_str()) != 0)
      throw std::runtime_error("gnuplot failed on " + stem + ".gp");
    const std::string id = fmt::format("bandwidth-{}", ++figure_number);
    plots += figure_html(id, inline_gnuplot_svg(stem + ".svg", id, series), series,
                         html_escape(fmt::format("{} messages: each PE's bandwidth (its bytes over the run's "
                                                 "makespan), against the job size.",
                                                 size_text(bytes))));
  }
  // Several machines (what-ifs of one machine: routings, failures, clocks): per-PE bandwidth by
  // machine, one group of bars per pattern, each machine at its largest job size in the study; a bar
  // per machine and variant (placement, axis values), so that no variant is silently left out.
  if (machine_names.size() > 1) {
    const std::vector<std::pair<std::string, std::string>> bar_order = [&] {
      std::vector<std::pair<std::string, std::string>> order;  // (machine, variant), as first met
      for (const auto& r : rows)
        if (std::find(order.begin(), order.end(), std::make_pair(r.machine, r.variant)) == order.end())
          order.emplace_back(r.machine, r.variant);
      return order;
    }();
    for (double bytes : sizes) {
      const std::string stem = fmt::format("{}/pe-bandwidth-by-machine-{:.0f}B", files, bytes);
      std::string data = "# pattern, then per machine and variant: median min max (MB/s)\n";
      for (const auto& pattern : patterns) {
        data += pattern;  // a label of one word (workload names have no spaces)
        for (const auto& [machine, variant] : bar_order) {
          const Row* at = nullptr;
          for (const auto& r : rows)
            if (r.bytes == bytes && r.machine == machine && r.variant == variant && r.workload == pattern &&
                (!at || r.pes > at->pes))
              at = &r;
          data += at ? fmt::format(" {:.3f} {:.3f} {:.3f}", at->median, at->min, at->max) : " NaN NaN NaN";
        }
        data += "\n";
      }
      std::string plot;
      std::vector<std::string> series;
      for (size_t k = 0; k < bar_order.size(); ++k) {
        const auto& [machine, variant] = bar_order[k];
        const std::string name = variant.empty() ? machine : machine + ", " + variant;
        plot += fmt::format("{}'{}.dat' using {}:{}:{}{} title '{}'", k ? ", " : "", stem, 2 + 3 * k, 3 + 3 * k,
                            4 + 3 * k, k == 0 ? ":xtic(1)" : "", name);
        series.push_back(name);
      }
      io::write_file_atomically(stem + ".dat", data);
      io::write_file_atomically(
          stem + ".gp",
          fmt::format("set terminal svg size 1100,560 noenhanced font 'sans,12' background '#ffffff'\n"
                      "set output '{}.svg'\nset title 'Per-PE bandwidth by machine, {} messages (median; bars: "
                      "min..max over PEs; each machine at its largest job size)'\n"
                      "set ylabel 'per-PE bandwidth (MB/s)'\nset grid ytics\nset yrange [0:*]\n"
                      "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
                      "set style fill solid 0.7 border -1\nset boxwidth 0.9\nset xtics nomirror rotate by -20\n"
                      "set key outside right top vertical Left reverse samplen 2\nset datafile missing 'NaN'\n"
                      "plot {}\n",
                      stem, size_text(bytes), plot));
      if (std::system(("gnuplot '" + stem + ".gp' 2>/dev/null").c_str()) != 0)
        throw std::runtime_error("gnuplot failed on " + stem + ".gp");
      const std::string id = fmt::format("bandwidth-{}", ++figure_number);
      plots += figure_html(id, inline_gnuplot_svg(stem + ".svg", id, series), series,
                           html_escape(fmt::format("{} messages: each machine's per-PE bandwidth by pattern, side "
                                                   "by side (what-ifs of one machine: routings, failed links, ...).",
                                                   size_text(bytes))));
    }
  }

  HtmlTable results;
  results.id = "results";
  results.header = study::split_csv_line(io::sweep_header(spec));
  for (const auto& r : rows) results.rows.push_back(r.cells);
  const Row& busiest = *std::max_element(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.link_utilisation < b.link_utilisation || (a.link_utilisation == b.link_utilisation && a.index > b.index);
  });

  std::string legend;
  for (const auto& p : patterns)
    legend += fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>{} &nbsp; ",
                          pattern_colour(p, patterns), html_escape(p));
  const auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  };
  std::vector<std::string> sizes_text;
  for (double b : spec.sizes) sizes_text.push_back(size_text(b));
  if (sizes_text.empty()) sizes_text.push_back("each workload's own");
  std::string axes_text;  // the study's own axes and their values
  for (const auto& a : spec.axes) {
    std::vector<std::string> labels;
    for (const auto& v : a.values) labels.push_back(v.label);
    axes_text += "<li>" + html_escape(a.name) + ": " + html_escape(join(labels)) + "</li>";
  }
  if (!axes_text.empty())
    axes_text = "<p>The study's axes (every combination was run):</p><ul>" + axes_text + "</ul>\n";
  std::vector<std::string> pes_text;
  for (int p : pes) pes_text.push_back(std::to_string(p));
  std::string workloads;
  for (const auto& w : spec.workloads) workloads += "<li><code>" + html_escape(w) + "</code></li>";
  for (const auto& w : spec.traces) workloads += "<li><code>" + html_escape(w) + "</code> (trace)</li>";
  std::string body = fmt::format(
      "<h1>t3sim study {}</h1>\n<p class=\"meta\">t3sim {} &mdash; <code>{}</code> &mdash; {} points of {} in "
      "<code>{}</code></p>\n",
      html_escape(spec.name), html_escape(manifest.at("t3sim").get<std::string>()),
      html_escape(manifest.at("command").get<std::string>()), rows.size(), points.size(), html_escape(spec_path));
  body += "<h2>What was run</h2>\n";
  body += fmt::format("<p>Job sizes: {} PEs. Placements: {}. Message sizes: {}.{}</p>\n<p>Workloads:</p><ul>{}</ul>\n",
                      join(pes_text), html_escape(join(spec.placements)), join(sizes_text),
                      bands ? fmt::format(" Each point was also run {} times over the machines' parameter ranges "
                                          "(the 5-95% bands).",
                                          manifest.value("uncertainty", 0))
                            : "",
                      workloads);
  body += axes_text + machines_html(machines);
  if (spec.plot.x.empty())
    body += "<h2>Per-PE bandwidth</h2>\n<p>" + legend + "</p>\n" + series_toggles_html(patterns) + plots;
  else
    body += "<h2>" + html_escape(spec.name) + "</h2>\n" + plots;
  body += "<h2>Most loaded point</h2>\n" + heatmap_html(dir, points, busiest, files);
  body += check_html(dir, manifest.value("check_driver", std::string()), spec);
  body += fmt::format(
              "<h2>Results</h2>\n<p>{} points (click a column to sort). Bandwidths in MB/s, times in &micro;s, "
              "utilisations as fractions of the link rate.</p>\n",
              rows.size()) +
          table_html(results);
  const std::string page = dir + "/report.html";
  io::write_file_atomically(page, page_html("t3sim study " + spec.name, body));
  return page;
}

}  // namespace t3sim::report
