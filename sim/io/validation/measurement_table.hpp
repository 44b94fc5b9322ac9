// A CSV measurement file: '#' comment lines (provenance), one header line, then rows of plain cells
// (no quoting). Every cell remembers its line and column for error messages.
#pragma once
#include <string>
#include <vector>

#include "sim/io/files/input_error.hpp"

namespace t3sim::io {

class MeasurementTable {
 public:
  static MeasurementTable read(const std::string& path);

  size_t row_count() const { return rows_.size(); }
  const std::vector<std::string>& columns() const { return header_; }
  // Index of a column; throws InputError naming the header line when it is absent.
  size_t column(const std::string& name) const;
  const std::string& cell(size_t row, size_t col) const { return rows_[row].cells[col]; }
  // The cell as a finite number > 0; throws InputError at the cell otherwise.
  // The cell as a number > 0 (>= 0 when zero_allowed: a reported-only figure may be 0).
  double positive_number(size_t row, size_t col, bool zero_allowed = false) const;
  SourcePos cell_pos(size_t row, size_t col) const;

 private:
  struct Row {
    int line = 0;
    std::vector<std::string> cells;
    std::vector<int> columns;  // 1-based column of each cell
  };
  std::string file_;
  int header_line_ = 0;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

}  // namespace t3sim::io
