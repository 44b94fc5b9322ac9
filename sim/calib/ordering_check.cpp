#include "sim/calib/ordering_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace t3sim::calib {
namespace {

struct Group {
  std::string name;
  double measured = 0;
  double predicted = 0;
};

std::string order_text(std::vector<Group> groups, bool by_measured, double tie) {
  auto value = [&](const Group& g) { return by_measured ? g.measured : g.predicted; };
  std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) { return value(a) < value(b); });
  std::string out;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (i > 0) {
      const double a = value(groups[i - 1]), b = value(groups[i]);
      out += (b - a) <= tie * 0.5 * (a + b) ? " ~ " : " < ";
    }
    out += groups[i].name;
  }
  return out;
}

// "<", ">" or "~" (within tie of their mean).
const char* relation(double a, double b, double tie) {
  const double margin = tie * 0.5 * (a + b);
  return b - a > margin ? "<" : a - b > margin ? ">" : "~";
}

}  // namespace

std::vector<OrderingResult> check_paired_orderings(const calib::SuiteSpec& suite,
                                                   const std::vector<CaseResult>& results) {
  std::vector<OrderingResult> out;
  for (const auto& spec : suite.paired_orderings)
    for (const auto& a : results) {
      if (a.measured.suite != suite.id || a.measured.metric != spec.first ||
          !calib::row_matches(spec.where, a.measured.row))
        continue;
      for (const auto& b : results) {
        if (b.measured.suite != suite.id || b.measured.metric != spec.second || b.measured.row != a.measured.row)
          continue;
        const std::string row = a.measured.id.substr(0, a.measured.id.rfind('/'));
        const std::string m = relation(a.measured.measured, b.measured.measured, spec.tie);
        const std::string p = relation(a.predicted, b.predicted, spec.tie);
        out.push_back({suite.id, row.substr(suite.id.size() + 1),
                       fmt::format("{} {:.4g} {} {} {:.4g}", spec.first, a.measured.measured, m, spec.second,
                                   b.measured.measured),
                       fmt::format("{:.4g} {} {:.4g}", a.predicted, p, b.predicted), m == p});
      }
    }
  return out;
}

std::vector<OrderingResult> check_orderings(const calib::SuiteSpec& suite, const std::vector<CaseResult>& results) {
  std::vector<OrderingResult> out;
  for (const auto& spec : suite.orderings) {
    for (const auto& metric : spec.metrics) {
      std::map<std::string, std::pair<Group, int>> sums;
      for (const auto& r : results) {
        if (r.measured.suite != suite.id || r.measured.metric != metric) continue;
        const std::string name = r.measured.row.at(spec.group_column);
        auto& [g, n] = sums[name];
        g.name = name;
        g.measured += r.measured.measured;
        g.predicted += r.predicted;
        ++n;
      }
      std::vector<Group> groups;
      for (auto& [name, gn] : sums) {
        Group g = gn.first;
        g.measured /= gn.second;
        g.predicted /= gn.second;
        groups.push_back(g);
      }
      OrderingResult res{suite.id, metric, order_text(groups, true, spec.tie), order_text(groups, false, spec.tie),
                         true};
      for (const auto& a : groups)
        for (const auto& b : groups) {
          const bool measured_less = (b.measured - a.measured) > spec.tie * 0.5 * (a.measured + b.measured);
          if (measured_less && !(a.predicted < b.predicted)) res.ok = false;
        }
      out.push_back(std::move(res));
    }
  }
  return out;
}

}  // namespace t3sim::calib
