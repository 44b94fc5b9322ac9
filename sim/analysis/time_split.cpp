#include "sim/analysis/time_split.hpp"

#include <algorithm>
#include <map>

namespace t3sim::analysis {
namespace {
// The PEs reported: those below `job_pes`, or all when it is negative.
int reported_pes(const core::RunResult& run, int job_pes) { return job_pes < 0 ? run.pes : std::min(job_pes, run.pes); }
}  // namespace

std::vector<PeTime> time_split(const core::RunResult& run, int job_pes) {
  const int n = reported_pes(run, job_pes);
  std::vector<PeTime> split(static_cast<size_t>(std::max(n, 0)));
  for (int pe = 0; pe < n; ++pe) split[static_cast<size_t>(pe)].pe = pe;
  for (const core::OpRecord& r : run.records) {
    if (r.pe < 0 || r.pe >= n) continue;
    PeTime& t = split[static_cast<size_t>(r.pe)];
    switch (r.kind) {
      case core::OpKind::Compute:
        t.compute += r.duration();
        break;
      case core::OpKind::Put:
      case core::OpKind::Get:
      case core::OpKind::Atomic:
      case core::OpKind::Overhead:
      case core::OpKind::MpiSend:
      case core::OpKind::MpiRecv:
      case core::OpKind::MpiCollective:
      case core::OpKind::Write:
      case core::OpKind::Read:
      case core::OpKind::Close:
        t.communication += r.duration();
        break;
      case core::OpKind::Wait:
      case core::OpKind::Quiet:
      case core::OpKind::Barrier:
        t.waiting += r.duration();
        break;
    }
    t.end = std::max(t.end, run.summed ? run.last_end[static_cast<size_t>(r.pe)] : r.end);
  }
  return split;
}

std::vector<LabelTime> time_by_label(const core::RunResult& run, int job_pes) {
  const int n = reported_pes(run, job_pes);
  std::map<core::NameId, LabelTime> by_label;
  std::map<std::pair<core::NameId, int>, double> per_pe;
  for (const core::OpRecord& r : run.records) {
    if (r.pe < 0 || r.pe >= n) continue;
    LabelTime& t = by_label[r.label];
    t.operations += r.repeats;
    t.total += r.duration();
    double& mine = per_pe[{r.label, r.pe}];
    mine += r.duration();
    t.max_pe = std::max(t.max_pe, mine);
  }
  std::vector<LabelTime> out;
  for (auto& [label, t] : by_label) {
    t.label = run.labels.name(label);
    out.push_back(t);
  }
  // By name first (ids follow first use), so that equal totals keep the names' order.
  std::sort(out.begin(), out.end(), [](const LabelTime& a, const LabelTime& b) { return a.label < b.label; });
  std::stable_sort(out.begin(), out.end(), [](const LabelTime& a, const LabelTime& b) { return a.total > b.total; });
  return out;
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

}  // namespace t3sim::analysis
