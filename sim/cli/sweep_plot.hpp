// Plots a sweep's results with gnuplot (Debian's gnuplot-nox): for each message size, the per-PE
// bandwidth (median, with min..max bars) against the partition size, one line per machine and
// workload, as DIR/pe-bandwidth-<bytes>B.svg. The data and script are kept beside the plot.
#pragma once
#include <string>

namespace t3sim::cli {

// Returns "" when the plots were made, or a note saying why not (gnuplot missing or failing).
std::string plot_sweep(const std::string& csv, const std::string& dir);

}  // namespace t3sim::cli
