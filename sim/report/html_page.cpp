#include "sim/report/html_page.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

#include "sim/io/files/atomic_file.hpp"

namespace t3sim::report {
namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
}

// Sorting, hiding series, and the self-check: on load the page records, per figure, the series it
// expects and those gnuplot drew (plot groups with non-empty paths), the table rows, and every script
// error, in <body data-check=...>; tests/report_in_browser.sh reads it from Chromium's DOM.
const char* kScript = R"JS(
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var originalError = console.error;
  console.error = function () { errors.push(Array.prototype.join.call(arguments, ' ')); originalError.apply(console, arguments); };
  function cellValue(row, i) {
    var t = row.cells[i].textContent.trim();
    var n = parseFloat(t.replace(/[^0-9eE+.\-]/g, ''));
    return /^[-+]?[0-9.]/.test(t) && !isNaN(n) ? n : t.toLowerCase();
  }
  function sortBy(table, i) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = table.getAttribute('data-sorted') !== i + '+';
    rows.sort(function (a, b) {
      var x = cellValue(a, i), y = cellValue(b, i);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.setAttribute('data-sorted', i + (asc ? '+' : '-'));
  }
  function hideSeries(label, hidden) {
    document.querySelectorAll('figure g[data-series]').forEach(function (g) {
      if (g.getAttribute('data-series').indexOf(label) === 0) g.style.display = hidden ? 'none' : '';
    });
  }
  window.addEventListener('load', function () {
    document.querySelectorAll('table.sortable th').forEach(function (th) {
      th.addEventListener('click', function () { sortBy(th.closest('table'), th.cellIndex); });
    });
    document.querySelectorAll('input[data-toggle]').forEach(function (box) {
      box.addEventListener('change', function () { hideSeries(box.getAttribute('data-toggle'), !box.checked); });
    });
    var check = { figures: [], tables: [], errors: errors };
    document.querySelectorAll('figure[data-expected]').forEach(function (f) {
      var drawn = [];
      f.querySelectorAll('g[data-series]').forEach(function (g) {
        var inked = Array.prototype.some.call(g.querySelectorAll('path, polyline, polygon, circle, use, image'), function (p) {
          var d = p.getAttribute('d') || p.getAttribute('points') || p.getAttribute('href') || p.getAttribute('xlink:href') || (p.tagName === 'circle' ? 'c' : '');
          return d && d.length > 0;
        });
        if (inked) drawn.push(g.getAttribute('data-series'));
      });
      var svg = f.querySelector('svg');
      var box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      check.figures.push({ id: f.id, expected: JSON.parse(f.getAttribute('data-expected')), drawn: drawn,
                           width: Math.round(box.width), height: Math.round(box.height) });
    });
    document.querySelectorAll('table.sortable').forEach(function (t) {
      check.tables.push({ id: t.id, rows: t.tBodies[0].rows.length });
    });
    document.body.setAttribute('data-check', JSON.stringify(check));
  });
})();
)JS";

const char* kStyle = R"CSS(
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
code, .mono { font-family: monospace; font-size: 0.92em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.86em; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; background: #f3f3f3; user-select: none; }
table.sortable th:hover { background: #e4e4e4; }
tr.bad td { background: #fde2e2; }
.scroll { max-height: 32em; overflow: auto; border: 1px solid #eee; }
figure { margin: 1em 0; } figure svg { width: 100%; height: auto; max-width: 1000px; display: block; }
figcaption { font-size: 0.9em; color: #555; margin-top: 0.3em; }
.toggles label { margin-right: 1em; white-space: nowrap; }
.meta { color: #555; font-size: 0.9em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: middle; margin-right: 0.3em; }
)CSS";

bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string inline_gnuplot_svg(const std::string& path, const std::string& figure,
                               const std::vector<std::string>& series) {
  if (!std::filesystem::exists(path)) return "";
  std::string svg = io::read_whole_file(path);
  const size_t start = svg.find("<svg");
  if (start == std::string::npos) return "";
  svg = svg.substr(start);
  // Name each plot group after its series, in plot order (gnuplot writes gnuplot_plot_1, _2, ...; in a
  // multiplot gnuplot_plot_1a, _1b, ...), each followed by a <title> we replace.
  const std::string opening = "<g id=\"gnuplot_plot_";
  size_t k = 0;
  for (size_t at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1), ++k) {
    const size_t title_end = svg.find("</title>", at);
    if (title_end == std::string::npos) break;
    const std::string name = html_escape(k < series.size() ? series[k] : fmt::format("series {}", k + 1));
    const std::string group =
        fmt::format("<g id=\"{}_plot_{}\" data-series=\"{}\"><title>{}</title>", figure, k + 1, name, name);
    svg.replace(at, title_end + 8 - at, group);
  }
  replace_all(svg, "id=\"gnuplot_", "id=\"" + figure + "_");
  replace_all(svg, "#gnuplot_", "#" + figure + "_");
  return svg;
}

std::string figure_html(const std::string& id, const std::string& svg, const std::vector<std::string>& expected,
                        const std::string& caption) {
  std::string list;
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string escaped;
    for (char c : expected[i]) escaped += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    list += (i ? "," : "") + std::string("\"") + escaped + "\"";
  }
  return fmt::format("<figure id=\"{}\" data-expected=\"{}\">\n{}\n<figcaption>{}</figcaption>\n</figure>\n", id,
                     html_escape("[" + list + "]"), svg.empty() ? "<p>(plot missing: is gnuplot installed?)</p>" : svg,
                     caption);
}

std::string table_html(const HtmlTable& t) {
  std::string out = fmt::format("<div class=\"scroll\"><table class=\"sortable\" id=\"{}\">\n<thead><tr>", t.id);
  for (const auto& h : t.header) out += "<th title=\"click to sort\">" + html_escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string cls =
        r < t.row_classes.size() && !t.row_classes[r].empty() ? " class=\"" + t.row_classes[r] + "\"" : "";
    out += "<tr" + cls + ">";
    for (const auto& cell : t.rows[r])
      out += (looks_numeric(cell) ? "<td class=\"num\">" : "<td>") + html_escape(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string series_toggles_html(const std::vector<std::string>& labels) {
  std::string out = "<p class=\"toggles\">Show in every plot: ";
  for (const auto& l : labels)
    out += fmt::format("<label><input type=\"checkbox\" checked data-toggle=\"{0}\"> {0}</label>", html_escape(l));
  return out + "</p>\n";
}

std::string page_html(const std::string& title, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
      "<style>{}</style>\n<script>{}</script>\n</head>\n<body>\n{}</body>\n</html>\n",
      html_escape(title), kStyle, kScript, body);
}

}  // namespace t3sim::report
