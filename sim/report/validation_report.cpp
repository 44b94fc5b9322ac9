#include "sim/report/validation_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/io/files/atomic_file.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/report_style.hpp"

namespace t3sim::report {
namespace {

using Json = nlohmann::json;

std::string percent(double v) { return std::isfinite(v) ? fmt::format("{:+.2f}%", 100 * v) : "-"; }

void run_gnuplot(const std::string& stem, const std::string& script) {
  io::write_file_atomically(stem + ".gp", script);
  if (std::system(("gnuplot '" + stem + ".gp' 2>/dev/null").c_str()) != 0)
    throw std::runtime_error("gnuplot failed on " + stem + ".gp");
}

// Predicted against measured, log-log, one block per unit; the tolerance band as dashed lines
// (each distinct tolerance of the suite), cases outside their own tolerance in red.
std::string parity_figure(const std::string& suite, const std::vector<const Json*>& cases, const std::string& files,
                          int number) {
  const std::string stem = fmt::format("{}/{}-parity", files, suite);
  std::map<std::string, std::pair<std::string, std::string>> blocks;  // unit -> (inside, outside)
  std::set<double> tolerances;
  double lo = 1e300, hi = 0;
  for (const Json* c : cases) {
    const double m = c->at("measured").get<double>(), p = c->at("predicted").get<double>();
    const std::string line = fmt::format("{:.6g} {:.6g}\n", m, p);
    auto& b = blocks[c->at("unit").get<std::string>()];
    (c->at("within_tolerance").get<bool>() ? b.first : b.second) += line;
    tolerances.insert(c->at("tolerance").get<double>());
    lo = std::min({lo, m, p});
    hi = std::max({hi, m, p});
  }
  std::string data, plot;
  std::vector<std::string> series;
  int index = 0, unit_number = 0;
  for (const auto& [unit, b] : blocks) {
    const std::string colour = report_palette()[static_cast<size_t>(unit_number++) % report_palette().size()];
    for (int outside = 0; outside < 2; ++outside) {
      const std::string& rows = outside ? b.second : b.first;
      if (rows.empty()) continue;
      data += rows + "\n\n";
      const std::string name = fmt::format("cases in {}{}", unit, outside ? ", outside tolerance" : "");
      plot += fmt::format("'{}.dat' index {} using 1:2 with points pt {} ps {} lc rgb '{}' title '{}', ", stem, index,
                          outside ? 9 : 7, outside ? 1.4 : 0.8, outside ? "#D00000" : colour, name);
      series.push_back(name);
      ++index;
    }
  }
  plot += "x with lines lw 1.5 lc rgb '#333333' title 'predicted = measured', ";
  series.push_back("predicted = measured");
  // Each tolerance its own dash and grey (10% and 50% bands were two identical dashed greys).
  const std::vector<std::pair<int, std::string>> looks = {
      {2, "#666666"}, {4, "#999999"}, {3, "#444444"}, {5, "#BBBBBB"}};
  int look = 0;
  for (double t : tolerances) {
    const auto& [dash, grey] = looks[static_cast<size_t>(look++) % looks.size()];
    plot += fmt::format(
        "(1+{0})*x with lines lw 1.5 dt {2} lc rgb '{3}' title '+-{1:.0f}% tolerance', (1-{0})*x with "
        "lines lw 1.5 dt {2} lc rgb '{3}' notitle, ",
        t, 100 * t, dash, grey);
    series.push_back(fmt::format("+-{:.0f}% tolerance", 100 * t));
  }
  std::vector<std::string> units;
  for (const auto& [unit, b] : blocks) units.push_back(unit);
  plot.resize(plot.size() - 2);
  io::write_file_atomically(stem + ".dat", data);
  run_gnuplot(stem,
              fmt::format("set terminal svg size 900,620 noenhanced font 'sans,12' background '#ffffff'\n"
                          "set output '{0}.svg'\nset title '{1}: predicted against measured'\n"
                          "set xlabel 'measured ({2})'\n"
                          "set ylabel 'predicted ({2})'\nset logscale xy\nset grid\n"
                          "set xrange [{3}:{4}]\nset yrange [{3}:{4}]\nset xtics {5}\nset ytics {5}\n"
                          "set size ratio -1\nset key outside right top vertical\nplot {6}\n",
                          stem, suite, units_text(units), lo / 1.3, hi * 1.3, log_tics(lo / 1.3, hi * 1.3), plot));
  // Series with the 'notitle' lower band lines count as unnamed groups: name them after the upper one.
  std::vector<std::string> groups;
  for (const auto& s : series) {
    groups.push_back(s);
    if (s.find("tolerance") != std::string::npos) groups.push_back(s + " (lower)");
  }
  const std::string id = fmt::format("parity-{}", number);
  std::vector<std::string> outside;
  for (const Json* c : cases)
    if (!c->at("within_tolerance").get<bool>()) outside.push_back(c->at("id").get<std::string>());
  std::string caption = "Every case of the suite; dashed: each tolerance the suite's cases carry.";
  caption += outside.empty() ? " No case is outside its tolerance."
                             : fmt::format(" Outside their tolerance ({}): ", outside.size());
  for (size_t i = 0; i < outside.size(); ++i) caption += (i ? ", " : "") + outside[i];
  return figure_html(id, inline_gnuplot_svg(stem + ".svg", id, groups), groups, html_escape(caption));
}

// Rate (bytes / duration) against message size for the suite's duration cases, measured as points and
// predicted as lines, one colour per profile and metric.
std::string rate_figure(const std::string& suite, const std::vector<const Json*>& cases, const std::string& files,
                        int number) {
  std::map<std::string, std::map<double, std::pair<double, double>>> series_data;
  for (const Json* c : cases) {
    const double bytes = c->value("bytes", 0.0);
    if (bytes <= 0 || c->at("unit").get<std::string>() != "us") continue;
    series_data[c->value("profile", std::string()) + " " + c->at("metric").get<std::string>()][bytes] = {
        bytes / c->at("measured").get<double>(), bytes / c->at("predicted").get<double>()};
  }
  if (series_data.empty()) return "";
  std::vector<std::string> names;
  for (const auto& [name, points] : series_data) names.push_back(name);
  const std::string stem = fmt::format("{}/{}-rate", files, suite);
  std::string data, plot;
  std::vector<std::string> series;
  int index = 0;
  for (const auto& [name, points] : series_data) {
    for (const auto& [bytes, rates] : points)
      data += fmt::format("{:.0f} {:.6g} {:.6g}\n", bytes, rates.first, rates.second);
    data += "\n\n";
    const std::string colour = pattern_colour(name, names);
    plot += fmt::format(
        "'{0}.dat' index {1} using 1:2 with points pt 7 ps 0.8 lc rgb '{2}' title '{3} measured', "
        "'{0}.dat' index {1} using 1:3 with lines lw 2 lc rgb '{2}' title '{3} predicted', ",
        stem, index++, colour, name);
    series.push_back(name + " measured");
    series.push_back(name + " predicted");
  }
  plot.resize(plot.size() - 2);
  double least = 1e300, most = 0;
  for (const auto& [name, points] : series_data)
    for (const auto& [bytes, rates] : points) least = std::min(least, bytes), most = std::max(most, bytes);
  io::write_file_atomically(stem + ".dat", data);
  run_gnuplot(stem, fmt::format("set terminal svg size 1000,560 noenhanced font 'sans,12' background '#ffffff'\n"
                                "set output '{}.svg'\nset title '{}: rate against message size'\n"
                                "set xlabel 'message size (log scale)'\nset ylabel 'rate (MB/s)'\n"
                                "set logscale x 2\n{}set grid\nset yrange [0:*]\n"
                                "set key outside right top vertical\nplot {}\n",
                                stem, suite, binary_size_axis(least, most), plot));
  const std::string id = fmt::format("rate-{}", number);
  return figure_html(id, inline_gnuplot_svg(stem + ".svg", id, series), series,
                     "Each duration case as a rate: bytes over the measured and the predicted time.");
}

}  // namespace

std::string validation_json(const std::vector<calib::CaseResult>& results, const std::vector<calib::SuiteStats>& stats,
                            const std::vector<calib::OrderingResult>& orderings, const std::string& cases_file,
                            bool for_report) {
  nlohmann::ordered_json j;
  if (for_report) {
    j["t3sim"] = T3SIM_VERSION;
    j["cases_file"] = cases_file;
  }
  j["cases"] = nlohmann::ordered_json::array();
  for (const auto& r : results) {
    nlohmann::ordered_json c = {
        {"id", r.measured.id},
        {"suite", r.measured.suite},
        {"metric", r.measured.metric},
        {"unit", r.measured.unit},
        {"measured", r.measured.measured},
        {"predicted", r.predicted},
        {"rel_error", std::isfinite(r.rel_error) ? nlohmann::ordered_json(r.rel_error) : nlohmann::ordered_json()},
        {"tolerance", r.measured.tolerance},
        {"within_tolerance", r.within_tolerance}};
    if (for_report) {
      c["bytes"] = r.measured.bytes;
      c["profile"] = r.measured.run.profile;
      c["report_only"] = r.measured.report_only;
      c["tolerance_why"] = r.measured.tolerance_why;
    }
    j["cases"].push_back(c);
  }
  j["suites"] = nlohmann::ordered_json::array();
  for (const auto& s : stats)
    j["suites"].push_back({{"suite", s.suite},
                           {"n", s.n},
                           {"median_rel_error", s.median_rel_error},
                           {"max_rel_error", s.max_rel_error},
                           {"median_target", s.median_target},
                           {"outside_tolerance", s.outside_tolerance},
                           {"orderings_ok", s.orderings_ok},
                           {"passed", s.passed()}});
  j["orderings"] = nlohmann::ordered_json::array();
  for (const auto& o : orderings)
    j["orderings"].push_back({{"suite", o.suite},
                              {"metric", o.metric},
                              {"measured", o.measured_order},
                              {"predicted", o.predicted_order},
                              {"ok", o.ok}});
  return j.dump(1) + "\n";
}

std::string write_validation_report(const std::string& dir) {
  const std::string path = dir + "/validation.json";
  if (!std::filesystem::exists(path))
    throw std::runtime_error(path + " is missing: is " + dir + " the folder of `t3sim validate --report`?");
  const Json j = Json::parse(io::read_whole_file(path));
  const std::string files = dir + "/report-files";
  std::filesystem::create_directories(files);
  std::string body = fmt::format(
      "<h1>t3sim validation</h1>\n<p class=\"meta\">t3sim {} &mdash; cases from <code>{}</code> "
      "&mdash; <code>t3sim validate --report {}</code></p>\n",
      html_escape(j.value("t3sim", std::string("?"))), html_escape(j.value("cases_file", std::string("?"))),
      html_escape(dir));
  HtmlTable suites;
  suites.id = "suites";
  suites.header = {"suite",     "cases",  "median |error|", "target", "max |error|", "outside tolerance",
                   "orderings", "verdict"};
  for (const auto& s : j.at("suites")) {
    suites.rows.push_back({s.at("suite").get<std::string>(), std::to_string(s.at("n").get<int>()),
                           fmt::format("{:.2f}%", 100 * s.at("median_rel_error").get<double>()),
                           fmt::format("<= {:.0f}%", 100 * s.at("median_target").get<double>()),
                           fmt::format("{:.2f}%", 100 * s.at("max_rel_error").get<double>()),
                           std::to_string(s.at("outside_tolerance").get<int>()),
                           s.at("orderings_ok").get<bool>() ? "as measured" : "DIFFER",
                           s.at("passed").get<bool>() ? "PASS" : "FAIL"});
    suites.row_classes.push_back(s.at("passed").get<bool>() ? "" : "bad");
  }
  body += "<h2>Suites</h2>\n" + table_html(suites);
  int number = 0;
  for (const auto& s : j.at("suites")) {
    const std::string suite = s.at("suite").get<std::string>();
    std::vector<const Json*> cases;
    for (const auto& c : j.at("cases"))
      if (c.at("suite").get<std::string>() == suite && !c.value("report_only", false)) cases.push_back(&c);
    if (cases.empty()) continue;
    ++number;
    body += "<h2>" + html_escape(suite) + "</h2>\n" + parity_figure(suite, cases, files, number) +
            rate_figure(suite, cases, files, number);
    std::string orderings;
    for (const auto& o : j.at("orderings"))
      if (o.at("suite").get<std::string>() == suite)
        orderings += fmt::format(
            "<li>by {}: measured {}; predicted {}: <b>{}</b></li>", html_escape(o.at("metric").get<std::string>()),
            html_escape(o.at("measured").get<std::string>()), html_escape(o.at("predicted").get<std::string>()),
            o.at("ok").get<bool>() ? "ok" : "FAIL");
    if (!orderings.empty()) body += "<p>Orderings:</p><ul>" + orderings + "</ul>\n";
  }
  HtmlTable cases;
  cases.id = "cases";
  cases.header = {"case", "unit", "measured", "predicted", "error", "tolerance", "verdict", "why this tolerance"};
  for (const auto& c : j.at("cases")) {
    const bool info = c.value("report_only", false), ok = c.at("within_tolerance").get<bool>();
    cases.rows.push_back({c.at("id").get<std::string>(), c.at("unit").get<std::string>(),
                          fmt::format("{:.3f}", c.at("measured").get<double>()),
                          fmt::format("{:.3f}", c.at("predicted").get<double>()),
                          percent(c.at("rel_error").is_null() ? NAN : c.at("rel_error").get<double>()),
                          fmt::format("{:.0f}%", 100 * c.at("tolerance").get<double>()),
                          info ? "info"
                          : ok ? "ok"
                               : "OUTSIDE",
                          c.value("tolerance_why", std::string())});
    cases.row_classes.push_back(!info && !ok ? "bad" : "");
  }
  body += fmt::format("<h2>Every case</h2>\n<p>{} cases (click a column to sort).</p>\n", j.at("cases").size()) +
          table_html(cases);
  const std::string page = dir + "/report.html";
  io::write_file_atomically(page, page_html("t3sim validation", body));
  return page;
}

}  // namespace t3sim::report
