// The HTML report of a what-if study (`t3sim report DIR`, `sweep --report`): what was run (the
// machines' parameters with their ranges and provenance, workloads, job sizes, placements, sizes, the
// t3sim version and command), the sortable results table, per-PE bandwidth against job size per message
// size (one colour per pattern across the page, the link rate and each PE's put rate as reference lines,
// 5-95% bands when the study has them), the link-utilisation heat map of the most loaded point, and
// the points checked under another driver (sweep --check) with their differences.
#pragma once
#include <string>

namespace t3sim::report {

// What a sweep records so that its report can say what was run: DIR/sweep-manifest.json. `check` > 0:
// the sweep also ran that fraction of its points under `check_driver` (sweep --check), and the report
// shows how far the study's figures are from that driver's.
void write_sweep_manifest(const std::string& dir, const std::string& spec, int uncertainty, double check = 0,
                          const std::string& check_driver = "");

// Writes DIR/report.html (and its plots under DIR/report-files/) from DIR/sweep-manifest.json and
// DIR/sweep.csv; returns the page's path. Throws std::runtime_error naming what is missing.
std::string write_sweep_report(const std::string& dir);

}  // namespace t3sim::report
