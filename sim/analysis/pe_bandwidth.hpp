// Per-PE bandwidth of a run, per measurement (size): for each PE, the bytes its own calls moved (puts
// it sent, gets it pulled) over the time its part of the measurement took (its first to its last
// operation of the pattern's label). PEs that moved nothing are left out. The traffic report's
// per-PE figures and the validation statistics pe_bandwidth_median_MBps / pe_bandwidth_min_MBps.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/core/run/results.hpp"

namespace t3sim::analysis {

struct MeasurementBandwidth {
  double bytes = 0;            // message size of the measurement (its largest record)
  double span = 0;             // s from its first to its last operation
  std::vector<double> per_pe;  // bytes/s, in PE order
};

// By iteration (one per message size). `label` selects the pattern's operations ("" every operation);
// `job_pes` >= 0 keeps the PEs below it and the transfers between them (the main job beside a
// background job).
std::map<int, MeasurementBandwidth> pe_bandwidths(const core::RunResult& run, const std::string& label,
                                                  int job_pes = -1);

}  // namespace t3sim::analysis
