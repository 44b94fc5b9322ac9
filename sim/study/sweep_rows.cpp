#include "sim/study/sweep_rows.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "sim/io/files/atomic_file.hpp"
#include "sim/protocol/run_summary.hpp"

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
  const protocol::RunSummary run = protocol::run_summary_from_json(summary_json, "point " + std::to_string(p.index));
  // A workload without messages of a size of their own (an MD run, file I/O) has no bandwidth cells.
  std::string bandwidth = ",,,,";
  if (!run.sizes.empty()) {
    const auto& pe = run.sizes[0].pe_bandwidth_Bps;
    bandwidth = fmt::format("{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}", pe.min / 1e6, pe.median / 1e6, pe.mean / 1e6,
                            pe.max / 1e6, run.sizes[0].pair_bandwidth_Bps.median / 1e6);
  }
  std::string bands = ",,,";
  if (run.uncertainty) {  // 5-95% over the samples (run --uncertainty)
    const auto& m = run.uncertainty->makespan_s;
    const auto& b = run.uncertainty->sizes.at(0).pe_bandwidth_median_Bps;
    bands = fmt::format("{:.3f},{:.3f},{:.3f},{:.3f}", m.p05 * 1e6, m.p95 * 1e6, b.p05 / 1e6, b.p95 / 1e6);
  }
  std::string axes;  // a study with axes: when the main job ended (a background job runs on), and the labels
  if (!p.labels.empty()) {
    axes = fmt::format(",{:.3f}", run.main_job_end_s.value_or(run.makespan_s) * 1e6);
    for (const auto& [axis, label] : p.labels) axes += "," + label;
  }
  return fmt::format("{},{},{},{},{},{:.0f},{:.3f},{},{:.4f},{},{:.4f},{},{}{},{}", p.index, run.machine, run.workload,
                     p.pes, p.placement, p.bytes, run.makespan_s * 1e6, bandwidth, run.max_link_utilisation,
                     run.busiest_link, run.bisection.utilisation, run.transfers, bands, axes, p.id());
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
