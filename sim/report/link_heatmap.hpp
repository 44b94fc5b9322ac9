// A heat map of link utilisation over the torus, drawn with gnuplot: one panel per dimension, each
// node a cell (rows y; columns x, with the z planes side by side), its value the busier of its + and -
// links along that dimension over the run.
#pragma once
#include <string>

#include "sim/analysis/traffic_report.hpp"
#include "sim/core/machine/machine_spec.hpp"

namespace t3sim::report {

// Writes STEM.links.svg (with STEM.links.dat and .gp). Returns "" or why no plot was made.
std::string plot_link_heatmap(const core::MachineSpec& m, const analysis::TrafficReport& t, const std::string& stem);

}  // namespace t3sim::report
