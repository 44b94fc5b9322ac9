// A heat map of link utilisation over the torus, drawn with gnuplot: one panel per dimension, each
// node a cell (rows y; columns x, with the z planes side by side), its value the busier of its + and -
// links along that dimension over the run.
#pragma once
#include <string>

#include "sim/core/machine_spec.hpp"
#include "sim/core/traffic_report.hpp"

namespace t3sim::cli {

// Writes STEM.links.svg (with STEM.links.dat and .gp). Returns "" or why no plot was made.
std::string plot_link_heatmap(const core::MachineSpec& m, const core::TrafficReport& t, const std::string& stem);

}  // namespace t3sim::cli
