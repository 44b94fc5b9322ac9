// Plots a sweep's results with gnuplot (Debian's gnuplot-nox): for each message size, the per-PE
// bandwidth (median, with min..max bars) against the partition size, one line per machine and
// workload, as DIR/pe-bandwidth-<bytes>B.svg. The data and script are kept beside the plot. A study
// with a `plot:` gets its own figures instead (sweep_axes_plot.hpp).
#pragma once
#include <string>

#include "sim/io/study/sweep_spec.hpp"

namespace t3sim::report {

// Returns "" when the plots were made, or a note saying why not (gnuplot missing or failing).
std::string plot_sweep(const std::string& csv, const std::string& dir, const io::SweepSpec& spec);

}  // namespace t3sim::report
