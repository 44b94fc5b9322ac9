#include "sim/core/time_split.hpp"

#include <algorithm>

namespace t3sim::core {

std::vector<PeTime> time_split(const RunResult& run, int job_pes) {
  const int n = job_pes < 0 ? run.pes : std::min(job_pes, run.pes);
  std::vector<PeTime> split(static_cast<size_t>(std::max(n, 0)));
  for (int pe = 0; pe < n; ++pe) split[static_cast<size_t>(pe)].pe = pe;
  for (const OpRecord& r : run.records) {
    if (r.pe < 0 || r.pe >= n) continue;
    PeTime& t = split[static_cast<size_t>(r.pe)];
    switch (r.kind) {
      case OpKind::Compute:
        t.compute += r.duration();
        break;
      case OpKind::Put:
      case OpKind::Get:
      case OpKind::Atomic:
      case OpKind::Overhead:
        t.communication += r.duration();
        break;
      case OpKind::Wait:
      case OpKind::Quiet:
      case OpKind::Barrier:
        t.waiting += r.duration();
        break;
    }
    t.end = std::max(t.end, r.end);
  }
  return split;
}

TimeSplitSummary summarise(const std::vector<PeTime>& split) {
  std::vector<double> compute, communication, waiting, end;
  for (const PeTime& t : split) {
    compute.push_back(t.compute);
    communication.push_back(t.communication);
    waiting.push_back(t.waiting);
    end.push_back(t.end);
  }
  return {distribution_of(compute), distribution_of(communication), distribution_of(waiting), distribution_of(end)};
}

}  // namespace t3sim::core
