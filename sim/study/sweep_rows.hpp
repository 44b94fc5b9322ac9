// The rows of a study's results: the sweep.csv format, shared by the local sweep, the tasks of a Slurm
// job array (each appending to a part file of its own) and `sweep --collect`, which merges the parts.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/io/study/sweep_spec.hpp"

namespace t3sim::study {

// Complete rows of a results file by point id. A line without its newline (half-written) or with too
// few fields is dropped, and so is the header; a missing file has none. (The header is
// io::sweep_header: the measured columns, the axes' columns of a study with axes, the id.)
std::map<std::string, std::string> read_sweep_rows(const std::string& path);

// The cells of a sweep.csv line (no quoting: no cell holds a comma); a trailing comma is an empty last cell.
std::vector<std::string> split_csv_line(const std::string& line);

// The row of one point from its `run --summary` JSON line.
std::string sweep_row(const io::SweepPoint& p, const std::string& summary_json);

// The point index a row starts with.
int row_index(const std::string& row);

// The row with its index field set to `index`: rows are matched to points by id, and a study whose
// lists grew renumbers its points, so a row found by id takes the point's current index.
std::string reindexed(const std::string& row, int index);

// Cuts a half-written last line (no newline) off a file that will be appended to, so that the next line
// starts on a line of its own; a missing file is left missing.
void drop_torn_last_line(const std::string& path);

// Appends one line and its newline with a single write, then fsync: a kill leaves whole lines and at
// most one half-written last line, which read_sweep_rows drops.
void append_line_durably(const std::string& path, const std::string& line);

// The header and `rows` in point order (by index, then id: rows of points the study no longer has may
// share an index with a current one, and both are kept): the bytes of a finished study's sweep.csv.
std::string sweep_csv_text(const std::map<std::string, std::string>& rows, const std::string& header);

}  // namespace t3sim::study
