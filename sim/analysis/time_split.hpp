// Where each PE's time went, from a run's operation records:
//   compute        compute operations (given seconds, or flops at the node's peak rate)
//   communication  puts, gets, atomics, the message layer's software overhead and file writes, reads and
//                  closes: the PE is busy moving data
//   waiting        waits on flags (receives, rendezvous), quiets and barriers: the PE waits for others
//   end            when its last operation ended (its final quiet, which only moves the makespan, excluded)
// compute + communication + waiting = end for a PE whose operations run back to back, as they do.
#pragma once
#include <string>
#include <vector>

#include "sim/analysis/traffic_report.hpp"
#include "sim/core/run/results.hpp"

namespace t3sim::analysis {

struct PeTime {
  int pe = 0;
  double compute = 0;        // s
  double communication = 0;  // s
  double waiting = 0;        // s
  double end = 0;            // s
};

// One entry per PE below `job_pes` (every PE when < 0), in PE order.
std::vector<PeTime> time_split(const core::RunResult& run, int job_pes);

// Time per label (a trace's operation or its `label`; a TI trace's MPI call): like an MPI profile.
struct LabelTime {
  std::string label;
  long operations = 0;  // operations under the label, all PEs (a repeated one's repetitions each)
  double total = 0;     // s, summed over PEs
  double max_pe = 0;    // s, the largest one PE spent
};
// Labels by decreasing total time, then name; PEs below `job_pes` (all when < 0).
std::vector<LabelTime> time_by_label(const core::RunResult& run, int job_pes);

struct TimeSplitSummary {
  Distribution compute, communication, waiting, end;  // over PEs
};
TimeSplitSummary summarise(const std::vector<PeTime>& split);

}  // namespace t3sim::analysis
