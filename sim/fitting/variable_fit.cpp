#include "sim/fitting/variable_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "sim/calib/validation_run.hpp"
#include "sim/child/child_run.hpp"
#include "sim/core/support/units.hpp"

namespace t3sim::fitting {
namespace {

core::Quantity quantity_of(const calib::FitVariable& v) {
  if (v.quantity_text == "size") return core::Quantity::Size;
  if (v.quantity_text == "bandwidth") return core::Quantity::Bandwidth;
  return core::Quantity::Time;
}

bool covers(const calib::FitVariable& v, const calib::MeasuredCase& c) {
  return calib::row_matches(v.where, c.row) &&
         std::find(v.metrics.begin(), v.metrics.end(), c.metric) != v.metrics.end();
}

void set_value(const calib::FitVariable& v, calib::RunKey& key, const std::string& text) {
  (v.background ? key.background_variables : key.variables)[v.variable] = text;
}

// Mean relative error of `cases` with the variable at `text`.
double mean_error(const calib::SuiteSpec& suite, const calib::FitVariable& v, std::vector<calib::MeasuredCase> cases,
                  const std::string& text) {
  for (auto& c : cases) set_value(v, c.run, text);
  const auto runs = child::run_cases_in_children(suite, cases);
  double sum = 0;
  for (const auto& r : calib::compare(cases, runs)) sum += r.rel_error;
  return sum / static_cast<double>(cases.size());
}

}  // namespace

std::vector<VariableFit> fit_suite_variables(const calib::SuiteSpec& suite, std::vector<calib::MeasuredCase> cases,
                                             bool check_only) {
  std::vector<VariableFit> out;
  for (const auto& v : suite.fit_variables) {
    const core::Quantity q = quantity_of(v);
    std::map<std::string, std::vector<size_t>> groups;  // row value ("" for one value) -> covered cases
    for (size_t i = 0; i < cases.size(); ++i)
      if (covers(v, cases[i])) groups[v.per_row_column.empty() ? "" : cases[i].row.at(v.per_row_column)].push_back(i);
    if (groups.empty()) throw std::runtime_error("fit variable '" + v.variable + "' covers no case of " + suite.id);
    for (const auto& [row, members] : groups) {
      std::vector<calib::MeasuredCase> group;
      for (size_t i : members) group.push_back(cases[i]);
      VariableFit fit{v.variable, row, "", 0, 0, false};
      auto eval = [&](double value) {
        ++fit.evaluations;
        const std::string text = core::format_quantity(value, q);
        const double e = mean_error(suite, v, group, text);
        std::cout << fmt::format("    {}{} = {:<12} mean rel err {:+.5f}\n", v.variable,
                                 row.empty() ? "" : "[" + v.per_row_column + "=" + row + "]", text, e);
        return e;
      };
      std::string in_file;
      if (auto it = suite.fitted.find(v.variable); it != suite.fitted.end() && it->second.count(row))
        in_file = it->second.at(row);
      if (!in_file.empty()) {  // the file's value: kept when it still meets the cases
        const auto value = core::parse_quantity(in_file, q, nullptr);
        if (value) {
          fit.value = core::format_quantity(*value, q);
          fit.mean_rel_error = eval(*value);
          fit.matches_file = std::fabs(fit.mean_rel_error) <= kVariableTolerance;
        }
      }
      if (!check_only && !fit.matches_file) {
        // Illinois regula falsi on x = log(value): f changes sign over the bounds.
        double a = std::log(v.low), b = std::log(v.high);
        double fa = eval(v.low), fb = eval(v.high);
        if (fa * fb > 0)
          throw std::runtime_error(fmt::format(
              "{}: no value of {} in {} .. {} meets its cases (mean rel err {:+.4f} and {:+.4f} at the bounds)",
              suite.id, v.variable, core::format_quantity(v.low, q), core::format_quantity(v.high, q), fa, fb));
        int side = 0;
        double x = a, fx = fa;
        for (int it = 0; it < 30; ++it) {
          x = (a * fb - b * fa) / (fb - fa);
          fx = eval(std::exp(x));
          if (std::fabs(fx) <= kVariableTolerance / 2 || b - a < 1e-9) break;
          if (fx * fb > 0) {
            b = x, fb = fx;
            if (side == -1) fa /= 2;
            side = -1;
          } else {
            a = x, fa = fx;
            if (side == 1) fb /= 2;
            side = 1;
          }
        }
        fit.value = core::format_quantity(std::exp(x), q);
        fit.mean_rel_error = fx;
      }
      // Later variables see it: a per-row value on its row's cases; one value of the main job on every
      // case (as validate runs them: cases_loader.cpp).
      if (!v.per_row_column.empty() || v.background)
        for (size_t i : members) set_value(v, cases[i].run, fit.value);
      else
        for (auto& c : cases) set_value(v, c.run, fit.value);
      out.push_back(fit);
    }
  }
  return out;
}

std::string fitted_text(const std::vector<VariableFit>& fits) {
  std::map<std::string, std::vector<std::string>> per_row;
  std::vector<std::string> items;
  for (const auto& f : fits) {
    if (f.row.empty())
      items.push_back(f.variable + ": " + f.value);
    else
      per_row[f.variable].push_back("\"" + f.row + "\": " + f.value);
  }
  for (const auto& [name, rows] : per_row) {
    std::string text;
    for (const auto& r : rows) text += (text.empty() ? "" : ", ") + r;
    items.push_back(name + ": {" + text + "}");
  }
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return "{" + out + "}";
}

}  // namespace t3sim::fitting
