// Run results as text: a table for people, CSV and JSON for programs (and the JSON read back, which
// is how `t3sim validate` collects the runs it starts in child processes). Fixed column order and
// number formats, so the same run gives byte-identical files.
#pragma once
#include <string>

#include "sim/analysis/time_split.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/core/run/results.hpp"
#include "sim/protocol/run_summary.hpp"

namespace t3sim::io {

std::string results_table(const core::RunResult& r);
// A run in brief (what `run` prints without --ops; a trace may have millions of operations): makespan,
// the main job's end and file I/O when there are any, operations, the per-PE time split over PEs, the
// PEs that waited most, and the time under each label (share of the mean PE's end). `source`: "trace"
// or "workload", as the header line names it.
std::string trace_summary(const core::RunResult& r, const std::vector<analysis::PeTime>& split,
                          const std::string& source = "trace");
// One row per PE: pe,compute_s,communication_s,waiting_s,end_s.
std::string time_split_csv(const std::vector<analysis::PeTime>& split);
std::string results_csv(const core::RunResult& r);
// The traffic report of a pattern run, for people and as a JSON object's text.
std::string traffic_summary(const analysis::TrafficReport& t);
std::string traffic_json(const analysis::TrafficReport& t);
// The links of what traffic_json wrote (name, bytes, utilisation; dimension and direction from the
// name: "n12.y-" is y, minus; "inject.n3" and "eject.n3" none), busiest first as written; throws
// std::runtime_error naming `name` on a text that is not one.
std::vector<analysis::LinkLoad> links_of_traffic_json(const std::string& text, const std::string& name);
// What `run --summary` prints (protocol/run_summary.hpp): the run's identity, makespan, per-size
// bandwidths, busiest link, bisection and counts.
protocol::RunSummary run_summary(const core::RunResult& r, const analysis::TrafficReport& t);
// Every data movement, one CSV row each (src,dst,bytes,start_s,end_s,iteration).
std::string transfers_csv(const core::RunResult& r);

// For a swap-pattern run: the swap curve and the PSTSWM page's statistics ("" otherwise).
// The main job's end when a background job outlasts it, and the file I/O counts (empty without either).
std::string io_summary(const core::RunResult& r);
std::string swap_summary(const core::RunResult& r);
std::string results_json(const core::RunResult& r);
// Throws std::runtime_error on text that is not a results JSON.
core::RunResult parse_results_json(const std::string& text);
// The inverse of transfers_csv; throws std::runtime_error naming the line of a malformed row.
std::vector<core::Transfer> parse_transfers_csv(const std::string& text, const std::string& name);

}  // namespace t3sim::io
