#include "sim/io/validation/measurement_table.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "sim/io/files/input_file.hpp"

namespace t3sim::io {
namespace {

void split(const std::string& line, std::vector<std::string>& cells, std::vector<int>& columns) {
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    const size_t end = comma == std::string::npos ? line.size() : comma;
    cells.push_back(line.substr(start, end - start));
    columns.push_back(static_cast<int>(start) + 1);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

}  // namespace

MeasurementTable MeasurementTable::read(const std::string& path) {
  std::istringstream in(read_input_file(path));
  MeasurementTable t;
  t.file_ = path;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (line.find('"') != std::string::npos)
      throw InputError({path, n, static_cast<int>(line.find('"')) + 1}, "", "quoted cells are not supported");
    Row row;
    row.line = n;
    split(line, row.cells, row.columns);
    if (t.header_.empty()) {
      t.header_ = row.cells;
      t.header_line_ = n;
      continue;
    }
    if (row.cells.size() != t.header_.size())
      throw InputError(
          {path, n, 1}, "",
          "row has " + std::to_string(row.cells.size()) + " cells, header has " + std::to_string(t.header_.size()));
    t.rows_.push_back(std::move(row));
  }
  if (t.header_.empty()) throw InputError({path, 0, 0}, "", "is empty (no header line)");
  if (t.rows_.empty()) throw InputError({path, t.header_line_, 1}, "", "has a header but no rows");
  return t;
}

size_t MeasurementTable::column(const std::string& name) const {
  for (size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return i;
  const std::string hint = closest_match(name, header_);
  throw InputError({file_, header_line_, 1}, name,
                   "no such column" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
}

SourcePos MeasurementTable::cell_pos(size_t row, size_t col) const {
  return {file_, rows_[row].line, rows_[row].columns[col]};
}

double MeasurementTable::positive_number(size_t row, size_t col, bool zero_allowed) const {
  const std::string& text = cell(row, col);
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) || !(zero_allowed ? v >= 0 : v > 0))
    throw InputError(cell_pos(row, col), header_[col], zero_allowed ? "must be a number >= 0" : "must be a number > 0",
                     "'" + text + "'");
  return v;
}

}  // namespace t3sim::io
