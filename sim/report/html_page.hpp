// The pieces of t3sim's self-contained HTML reports (`t3sim report`, `sweep --report`,
// `validate --report`): one file, inline CSS, inline SVG from gnuplot, a small inline script (sorting
// tables, hiding series, and a self-check the browser test reads), no network.
#pragma once
#include <string>
#include <vector>

namespace t3sim::report {

std::string html_escape(const std::string& text);

// The SVG of a gnuplot file ready to inline as figure `figure`: prolog dropped, ids made unique to the
// figure, each plot group named by `series` (in plot order, as data-series and its <title>). "" when the
// file is missing.
std::string inline_gnuplot_svg(const std::string& path, const std::string& figure,
                               const std::vector<std::string>& series);

// A <figure> holding an inlined plot, with the series it must show (data-expected, checked in the
// browser against the groups gnuplot drew) and a caption.
std::string figure_html(const std::string& id, const std::string& svg, const std::vector<std::string>& expected,
                        const std::string& caption);

struct HtmlTable {
  std::string id;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // cells as text (escaped here)
  std::vector<std::string> row_classes;        // optional, one per row ("bad" marks a row)
};
// A sortable table (click a header; numbers sort as numbers).
std::string table_html(const HtmlTable& t);

// Checkboxes that hide or show, in every figure, the series whose name starts with each label.
std::string series_toggles_html(const std::vector<std::string>& labels);

// A whole page: title, body, the inline style and script.
std::string page_html(const std::string& title, const std::string& body);

}  // namespace t3sim::report
