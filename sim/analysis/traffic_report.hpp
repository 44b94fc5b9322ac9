// What a what-if run says about the network: achieved bandwidths, link loads and the bisection.
//   per-PE bandwidth   : per measurement (size) and PE, the bytes its own calls moved (puts it sent, gets
//                        it pulled) / the time its exchange took (first to last operation of the
//                        pattern's label); PEs that moved nothing skipped
//   per-pair bandwidth : per data movement, bytes / (delivery - start of latency)
//   link load          : bytes over each directed torus link and node interface, summed over the run;
//                        utilisation = bytes / (bandwidth x makespan)
//   bisection          : the cut through the longest torus dimension (between k/2-1 and k/2 and at the
//                        wrap); utilisation = bytes across it / (its links' bandwidth x makespan)
#pragma once
#include <string>
#include <vector>

#include "sim/core/machine/job_placement.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/run/results.hpp"

namespace t3sim::analysis {

struct Distribution {
  int n = 0;
  double min = 0, median = 0, mean = 0, max = 0;
};
Distribution distribution_of(std::vector<double> values);

struct LinkLoad {
  std::string name;  // "n12.y-", "inject.n3", "eject.n3"
  int dim = -1;      // 0..2 for torus links, -1 for node interfaces
  bool plus = true;
  double bytes = 0;
  double utilisation = 0;
};

struct DimensionLoad {
  int dim = 0;
  bool plus = true;
  int links = 0;  // links of this dimension and direction that exist
  double mean_utilisation = 0;
  double max_utilisation = 0;
};

struct SizeReport {
  double bytes = 0;             // message size of the measurement
  double span = 0;              // s from its first to its last operation of the pattern
  Distribution pe_bandwidth;    // bytes/s
  Distribution pair_bandwidth;  // bytes/s
};

struct TrafficReport {
  double makespan = 0;
  std::vector<SizeReport> sizes;
  std::vector<LinkLoad> links;  // every loaded link, by decreasing utilisation then name
  std::vector<DimensionLoad> dimensions;
  int bisection_dim = -1;
  double bisection_bytes = 0;
  double bisection_bandwidth = 0;  // bytes/s across the cut, both directions
  double bisection_utilisation = 0;
};

// `label` selects the pattern's operations ("exchange", "swap"); "" takes every operation (a trace).
// `job_pes` >= 0 keeps the bandwidth figures to PEs below it (the main job when a background job runs
// beside it); link loads and the bisection count every job's traffic.
TrafficReport traffic_report(const core::MachineSpec& m, const core::JobPlacement& placement,
                             const core::RunResult& run, const std::string& label, int job_pes = -1);

}  // namespace t3sim::analysis
