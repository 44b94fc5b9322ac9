#include "sim/analysis/pe_bandwidth.hpp"

#include <algorithm>

namespace t3sim::analysis {

std::map<int, MeasurementBandwidth> pe_bandwidths(const core::RunResult& run, const std::string& label, int job_pes) {
  struct PeSpan {
    double start = 1e300, end = -1e300;
  };
  std::map<int, std::map<int, PeSpan>> spans;  // iteration -> pe -> span
  std::map<int, double> size_of;
  const core::NameId wanted = run.labels.find(label);
  for (const auto& r : run.records) {
    if (!label.empty() && r.label != wanted) continue;
    PeSpan& s = spans[r.iteration][r.pe];
    s.start = std::min(s.start, r.start);
    s.end = std::max(s.end, run.summed ? run.last_end[static_cast<size_t>(r.pe)] : r.end);
    size_of[r.iteration] = std::max(size_of[r.iteration], r.bytes);
  }
  std::map<int, std::map<int, double>> sent;  // iteration -> pe -> bytes
  for (const auto& t : run.transfers)
    if (job_pes < 0 || (t.src < job_pes && t.dst < job_pes)) sent[t.iteration][t.mover()] += t.bytes_moved();
  std::map<int, MeasurementBandwidth> out;
  for (const auto& [it, per_pe] : spans) {
    MeasurementBandwidth& m = out[it];
    m.bytes = size_of[it];
    double first = 1e300, last = -1e300;
    for (const auto& [pe, span] : per_pe) {
      first = std::min(first, span.start);
      last = std::max(last, span.end);
      const double bytes = sent[it][pe];
      if (bytes > 0 && span.end > span.start) m.per_pe.push_back(bytes / (span.end - span.start));
    }
    m.span = last - first;
  }
  return out;
}

}  // namespace t3sim::analysis
