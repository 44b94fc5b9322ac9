// The colours and axes of t3sim's figures: one colour per pattern (workload), the same in every plot of
// a page; ticks a reader can read on log axes and size axes; axis labels in the plotted cases' units.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace t3sim::report {

// A colour-blind-safe palette (Okabe and Ito, 2008), then darker tones for long lists.
inline const std::vector<std::string>& report_palette() {
  static const std::vector<std::string> p = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9",
                                             "#000000", "#F0E442", "#8C564B", "#7F7F7F", "#17BECF", "#BCBD22"};
  return p;
}

// The colour of `name` among `all` (by its position: stable for a page).
inline std::string pattern_colour(const std::string& name, const std::vector<std::string>& all) {
  const auto it = std::find(all.begin(), all.end(), name);
  const size_t i = it == all.end() ? 0 : static_cast<size_t>(it - all.begin());
  return report_palette()[i % report_palette().size()];
}

// Ticks of a log axis over [lo, hi]: the first of 1 / 1-2-5 / 1-1.5-2-3-5-7 per decade that gives at least
// three inside, so a narrow range (the XT3's 80-140 s) still has several labelled ticks, not one or none.
inline std::string log_tics(double lo, double hi) {
  const std::vector<std::vector<double>> steps = {
      {1}, {1, 2, 5}, {1, 1.5, 2, 3, 5, 7}, {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}};
  std::vector<double> tics;
  for (const auto& step : steps) {
    tics.clear();
    for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
      for (double m : step)
        if (const double v = m * std::pow(10.0, e); v >= lo && v <= hi) tics.push_back(v);
    if (tics.size() >= 3) break;
  }
  std::string text;
  for (double v : tics) text += fmt::format("{}'{:g}' {:g}", text.empty() ? "" : ", ", v, v);
  return "(" + text + ")";
}

// The units of the cases on one axis, as the label says them: "s", or "us, MB/s and %" (each case in its own).
inline std::string units_text(const std::vector<std::string>& units) {
  std::string text;
  for (size_t i = 0; i < units.size(); ++i) text += (i == 0 ? "" : i + 1 == units.size() ? " and " : ", ") + units[i];
  return units.size() > 1 ? text + ": each case in its own" : text;
}

// gnuplot lines for a log-2 axis of message sizes from `least` to `most` bytes: ticks at powers of two
// (at most about ten) named in binary units, 8 B, 1 KiB, 64 KiB, 1 MiB. gnuplot's '%.0s%cB' put decimal
// prefixes on binary positions (1024 as "1kB", 65536 as "65.5kB").
inline std::string binary_size_axis(double least, double most) {
  const int first = static_cast<int>(std::floor(std::log2(least))), last = static_cast<int>(std::ceil(std::log2(most)));
  const int step = std::max(1, (last - first + 9) / 10);
  std::string tics;
  for (int e = first; e <= last; e += step) {
    const double v = std::ldexp(1.0, e);
    const std::string label = e >= 20   ? fmt::format("{:g} MiB", v / 1048576)
                              : e >= 10 ? fmt::format("{:g} KiB", v / 1024)
                                        : fmt::format("{:g} B", v);
    tics += fmt::format("{}'{}' {:.0f}", tics.empty() ? "" : ", ", label, v);
  }
  return fmt::format("set xrange [{}:{}]\nset xtics ({})\n", std::ldexp(1.0, first) / 1.5, std::ldexp(1.0, last) * 1.5,
                     tics);
}

}  // namespace t3sim::report
