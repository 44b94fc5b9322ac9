#include "sim/study/sweep_rows.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "sim/io/files/atomic_file.hpp"

namespace t3sim::study {
namespace {

size_t count_fields(const std::string& line) {
  return static_cast<size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

// Every study's columns (those of a study without axes); the four band columns are empty without
// --uncertainty. A function: io's column names are another file's static, initialised in no set order.
size_t measured_columns() {
  static const size_t n = count_fields(io::sweep_header(io::SweepSpec{}));
  return n;
}

}  // namespace

std::map<std::string, std::string> read_sweep_rows(const std::string& path) {
  std::map<std::string, std::string> rows;
  std::ifstream in(path, std::ios::binary);
  if (!in) return rows;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string::npos) break;  // a half-written last line
    const std::string line = text.substr(start, nl - start);
    start = nl + 1;
    // A header, or a row of an older format (a study's own rows have its axes' columns too).
    if (line.rfind("index,", 0) == 0 || count_fields(line) < measured_columns()) continue;
    rows[line.substr(line.rfind(',') + 1)] = line;
  }
  return rows;
}

std::string sweep_row(const io::SweepPoint& p, const std::string& summary_json) {
  const auto j = nlohmann::json::parse(summary_json);
  const auto& t = j.at("traffic");
  // A workload without messages of a size of their own (an MD run, file I/O) has no bandwidth cells.
  std::string bandwidth = ",,,,";
  if (!t.at("sizes").empty()) {
    const auto& size = t.at("sizes").at(0);
    const auto& pe = size.at("pe_bandwidth_Bps");
    bandwidth =
        fmt::format("{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}", pe.at("min").get<double>() / 1e6,
                    pe.at("median").get<double>() / 1e6, pe.at("mean").get<double>() / 1e6,
                    pe.at("max").get<double>() / 1e6, size.at("pair_bandwidth_Bps").at("median").get<double>() / 1e6);
  }
  std::string bands = ",,,";
  if (j.contains("uncertainty")) {  // 5-95% over the samples (run --uncertainty)
    const auto& u = j.at("uncertainty");
    const auto& m = u.at("makespan_s");
    const auto& b = u.at("sizes").at(0).at("pe_bandwidth_median_Bps");
    bands = fmt::format("{:.3f},{:.3f},{:.3f},{:.3f}", m.at("p05").get<double>() * 1e6, m.at("p95").get<double>() * 1e6,
                        b.at("p05").get<double>() / 1e6, b.at("p95").get<double>() / 1e6);
  }
  const double makespan = t.at("makespan_s").get<double>();
  std::string axes;  // a study with axes: when the main job ended (a background job runs on), and the labels
  if (!p.labels.empty()) {
    axes = fmt::format(",{:.3f}", j.value("main_job_end_s", makespan) * 1e6);
    for (const auto& [axis, label] : p.labels) axes += "," + label;
  }
  return fmt::format("{},{},{},{},{},{:.0f},{:.3f},{},{:.4f},{},{:.4f},{},{}{},{}", p.index,
                     j.at("machine").get<std::string>(), j.at("workload").get<std::string>(), p.pes, p.placement,
                     p.bytes, makespan * 1e6, bandwidth, t.at("max_link_utilisation").get<double>(),
                     t.at("busiest_link").get<std::string>(), t.at("bisection").at("utilisation").get<double>(),
                     t.at("transfers").get<size_t>(), bands, axes, p.id());
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

int row_index(const std::string& row) { return std::stoi(row.substr(0, row.find(','))); }

std::string reindexed(const std::string& row, int index) { return std::to_string(index) + row.substr(row.find(',')); }

void drop_torn_last_line(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  const std::string text = io::read_whole_file(path);
  if (text.empty() || text.back() == '\n') return;
  const size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  std::filesystem::resize_file(path, keep);
}

void append_line_durably(const std::string& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) throw std::runtime_error(path + ": cannot append");
  const std::string text = line + "\n";
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error(path + ": write failed");
}

std::string sweep_csv_text(const std::map<std::string, std::string>& rows, const std::string& header) {
  std::map<std::pair<int, std::string>, std::string> ordered;
  for (const auto& [id, line] : rows) ordered[{row_index(line), id}] = line;
  std::string text = header + "\n";
  for (const auto& [index, line] : ordered) text += line + "\n";
  return text;
}

}  // namespace t3sim::study
