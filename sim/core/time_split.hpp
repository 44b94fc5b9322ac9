// Where each PE's time went, from a run's operation records:
//   compute        compute operations (given seconds, or flops at the node's peak rate)
//   communication  puts, gets, atomics and the message layer's software overhead: the PE is busy moving data
//   waiting        waits on flags (receives, rendezvous), quiets and barriers: the PE waits for others
//   end            when its last operation ended (its final quiet, which only moves the makespan, excluded)
// compute + communication + waiting = end for a PE whose operations run back to back, as they do.
#pragma once
#include <vector>

#include "sim/core/results.hpp"
#include "sim/core/traffic_report.hpp"

namespace t3sim::core {

struct PeTime {
  int pe = 0;
  double compute = 0;        // s
  double communication = 0;  // s
  double waiting = 0;        // s
  double end = 0;            // s
};

// One entry per PE below `job_pes` (every PE when < 0), in PE order.
std::vector<PeTime> time_split(const RunResult& run, int job_pes);

struct TimeSplitSummary {
  Distribution compute, communication, waiting, end;  // over PEs
};
TimeSplitSummary summarise(const std::vector<PeTime>& split);

}  // namespace t3sim::core
