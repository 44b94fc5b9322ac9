#include "sim/fitting/network_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <stdexcept>

#include "sim/calib/bounded_minimiser.hpp"
#include "sim/child/child_run.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"

namespace t3sim::fitting {
namespace {

const core::ParamDecl<core::NetworkParams>& network_decl(const std::string& key) {
  for (const auto& d : core::network_params())
    if (d.key == key && d.fit) return d;
  throw std::logic_error("no fittable network parameter '" + key + "' (the loader checks fit_network)");
}

// Values as --param text: full precision, so a trial is the value the optimiser chose.
std::vector<std::pair<std::string, std::string>> as_params(const std::vector<std::pair<std::string, double>>& values) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, v] : values) out.emplace_back("network." + key, fmt::format("{:.17g}", v));
  return out;
}

}  // namespace

std::vector<calib::CaseResult> evaluate_network(const calib::SuiteSpec& suite, std::vector<calib::MeasuredCase> cases,
                                                const std::vector<std::pair<std::string, double>>& values) {
  const auto params = as_params(values);
  for (auto& c : cases) c.run.params.insert(c.run.params.end(), params.begin(), params.end());
  return calib::compare(cases, child::run_cases_in_children(suite, cases));
}

NetworkFit fit_suite_network(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases) {
  std::vector<calib::MeasuredCase> training;
  for (const auto& c : cases)
    if (c.fitted && !c.report_only) training.push_back(c);
  if (training.size() < suite.fit_network.size())
    throw std::runtime_error("suite " + suite.id + ": " + std::to_string(training.size()) +
                             " training cases cannot fit " + std::to_string(suite.fit_network.size()) +
                             " parameters (fit_where picks the rows)");
  std::vector<double> x, lo, hi;
  for (const auto& key : suite.fit_network) {
    const auto& d = network_decl(key);
    x.push_back(d.fit->start);
    lo.push_back(d.fit->lower);
    hi.push_back(d.fit->upper);
  }
  // Sum of squared log-ratios over the training cases: relative and symmetric.
  auto objective = [&](const std::vector<double>& trial) {
    std::vector<std::pair<std::string, double>> values;
    for (size_t i = 0; i < trial.size(); ++i) values.emplace_back(suite.fit_network[i], trial[i]);
    double sum = 0;
    for (const auto& r : evaluate_network(suite, training, values)) {
      const double l = std::log1p(r.rel_error);
      sum += l * l;
    }
    return sum;
  };
  const calib::BoundedMinimum best = calib::minimise_in_box(objective, x, lo, hi, 30, 20, 1e-4);
  x = best.x;

  NetworkFit fit;
  for (size_t i = 0; i < x.size(); ++i) fit.params.emplace_back(suite.fit_network[i], x[i]);
  fit.evaluations = best.evaluations;
  for (auto& r : evaluate_network(suite, cases, fit.params))
    (r.measured.fitted ? fit.training : fit.held_back).push_back(std::move(r));
  return fit;
}

std::vector<RowValue> fit_each_row(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases) {
  const std::string key = suite.fit_network.at(0);
  const auto& d = network_decl(key);
  std::vector<std::string> order;  // rows in file order
  std::map<std::string, std::vector<calib::MeasuredCase>> by_row;
  for (const auto& c : cases) {
    if (c.report_only) continue;
    const std::string row = c.id.substr(0, c.id.rfind('/'));
    if (!by_row.count(row)) order.push_back(row);
    by_row[row].push_back(c);
  }
  auto fit_row = [&](const std::string& row) {
    const std::vector<calib::MeasuredCase>& row_cases = by_row.at(row);
    auto objective = [&](const std::vector<double>& x) {
      double sum = 0;
      for (const auto& r : evaluate_network(suite, row_cases, {{key, x[0]}})) {
        const double l = std::log1p(r.rel_error);
        sum += l * l;
      }
      return sum;
    };
    RowValue v;
    v.row = row;
    v.trained = row_cases.front().fitted;
    v.sensitive = std::fabs(objective({d.fit->lower}) - objective({d.fit->upper})) > 1e-4;
    if (v.sensitive)
      v.value = calib::minimise_in_box(objective, {d.fit->start}, {d.fit->lower}, {d.fit->upper}, 15, 10, 1e-3).x[0];
    return v;
  };
  // Two rows at a time (each evaluation of a row is one child run): the machines have 2 cores.
  std::vector<RowValue> out;
  for (size_t i = 0; i < order.size(); i += 2) {
    std::vector<std::future<RowValue>> running;
    for (size_t k = i; k < std::min(order.size(), i + 2); ++k)
      running.push_back(std::async(std::launch::async, fit_row, order[k]));
    for (auto& f : running) out.push_back(f.get());
  }
  return out;
}

int record_suite(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases, bool write) {
  if (suite.record_driver.empty())
    throw io::InputError({suite.data_path, 0, 0}, "record_driver",
                         "suite '" + suite.id + "' names no record_driver: its data are recorded measurements");
  calib::SuiteSpec as_recorded = suite;
  as_recorded.driver = suite.record_driver;
  const auto runs = child::run_cases_in_children(as_recorded, cases);
  // Figure by row (the cases come in row order, one per metric) and metric column.
  std::map<std::string, size_t> column_of_metric;
  std::vector<std::map<std::string, std::string>> figures;  // per row: column -> text
  std::vector<std::map<std::string, std::string>> rows;
  for (const auto& c : cases) {
    if (rows.empty() || rows.back() != c.row) {
      rows.push_back(c.row);
      figures.emplace_back();
    }
    const double v = calib::predicted_value(c, runs.at(c.run));
    for (const auto& m : suite.metrics)
      if (m.id == c.metric) figures.back()[m.column] = fmt::format("{:.6g}", v);
  }
  std::ifstream in(suite.data_path);
  std::ostringstream out;
  const std::string note = "# figures by `t3sim calibrate --suite " + suite.id + " --record` (driver " +
                           suite.record_driver + "); the other columns by hand";
  std::string line;
  std::vector<std::string> header;
  size_t row = 0;
  int written = 0;
  bool noted = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '#') {
      if (line.rfind("# figures by `t3sim calibrate", 0) == 0) continue;  // replaced below
      out << line << "\n";
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      if (!noted) out << note << "\n";
      noted = true;
      out << line << "\n";
      continue;
    }
    if (row >= figures.size()) throw std::runtime_error(suite.data_path + ": more rows than cases");
    for (size_t col = 0; col < header.size() && col < cells.size(); ++col) {
      auto it = figures[row].find(header[col]);
      if (it == figures[row].end()) continue;
      cells[col] = it->second;
      ++written;
    }
    ++row;
    for (size_t col = 0; col < cells.size(); ++col) out << (col ? "," : "") << cells[col];
    out << "\n";
  }
  if (write) io::write_file_atomically(suite.data_path, out.str());
  return written;
}

}  // namespace t3sim::fitting
