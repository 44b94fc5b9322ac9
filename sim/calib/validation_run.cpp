#include "sim/calib/validation_run.hpp"

#include <cmath>
#include <set>
#include <stdexcept>

#include "sim/analysis/pe_bandwidth.hpp"
#include "sim/analysis/swap_statistics.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/core/program/swap_pattern.hpp"
#include "sim/core/program/traffic_pattern.hpp"

namespace t3sim::calib {

double predicted_duration(const core::RunResult& run, const std::string& label, double bytes) {
  const core::NameId id = run.labels.find(label);
  for (const auto& r : run.records)
    if (r.label == id && r.bytes == bytes) return r.duration();
  throw std::runtime_error("run of '" + run.workload + "' has no record '" + label + "' of " +
                           std::to_string(static_cast<long long>(bytes)) + " bytes");
}

double label_span(const core::RunResult& run, const std::string& label) {
  const core::NameId id = run.labels.find(label);
  double first = INFINITY, last = -INFINITY;
  for (const auto& r : run.records) {
    if (r.label != id) continue;
    if (r.repeats != 1)  // a summed record's end is its first start plus the durations, not when it ended
      throw std::runtime_error("record '" + label + "' of '" + run.workload +
                               "' sums repetitions: a span needs each call's own records (no repeat block)");
    first = std::min(first, r.start);
    last = std::max(last, r.end);
  }
  if (!(last >= first)) throw std::runtime_error("run of '" + run.workload + "' has no record '" + label + "'");
  return last - first;
}

double predicted_value(const calib::MeasuredCase& c, const core::RunResult& run) {
  if (c.statistic == calib::Statistic::RecordDuration) return predicted_duration(run, c.record, c.bytes) * 1e6;
  if (c.statistic == calib::Statistic::LabelSpan) return label_span(run, c.record) * 1e6;
  if (c.statistic == calib::Statistic::MainJobEnd) return run.main_job_end;
  if (c.statistic == calib::Statistic::AcceptedFlits || c.statistic == calib::Statistic::AcceptedFlitsMin) {
    const core::PacketRunStats& p = run.packet;
    if (!p.present) throw std::runtime_error("case " + c.id + " needs the packet driver's measures (driver: packet)");
    if (p.window_end <= p.window_begin)
      throw std::runtime_error("case " + c.id +
                               ": the run measured no period after its warm-up with every source "
                               "backlogged (more messages, or more outstanding_puts)");
    return c.statistic == calib::Statistic::AcceptedFlits ? p.accepted_flits_per_cycle : p.accepted_flits_per_cycle_min;
  }
  if (c.statistic == calib::Statistic::PeBandwidthMedian || c.statistic == calib::Statistic::PeBandwidthMin) {
    // The pattern's exchange at the case's size (its run has one size: the row's); a swap pattern's
    // operations are its swaps.
    auto measured = analysis::pe_bandwidths(run, core::kExchangeLabel);
    if (measured.empty()) measured = analysis::pe_bandwidths(run, core::kSwapLabel);
    for (const auto& [it, m] : measured) {
      if (m.bytes != c.bytes && c.bytes > 0) continue;
      if (m.per_pe.empty()) break;
      const analysis::Distribution d = analysis::distribution_of(m.per_pe);
      return (c.statistic == calib::Statistic::PeBandwidthMedian ? d.median : d.min) / 1e6;
    }
    throw std::runtime_error("case " + c.id + ": the run of '" + run.workload + "' has no exchange" +
                             (c.bytes > 0 ? " of " + std::to_string(static_cast<long long>(c.bytes)) + " bytes" : ""));
  }
  if (run.swap_iterations <= 0)
    throw std::runtime_error("case " + c.id + " needs a swap statistic, but '" + run.workload + "' is no swap pattern");
  const analysis::SwapStatistics st = analysis::swap_statistics(run, run.swap_iterations);
  switch (c.statistic) {
    case calib::Statistic::PeakBandwidth:
      return st.peak_bandwidth / 1e6;
    case calib::Statistic::EstimatedLatency:
      if (!std::isfinite(st.estimated_latency))
        throw std::runtime_error("case " + c.id + ": the swap sizes lack 4096 B or 8192 B for the latency estimate");
      return st.estimated_latency * 1e6;
    case calib::Statistic::ModelMaxRelErrorPct:
      return st.model_max_rel_error * 100;
    case calib::Statistic::RecordDuration:
    case calib::Statistic::LabelSpan:
    case calib::Statistic::MainJobEnd:
    case calib::Statistic::AcceptedFlits:
    case calib::Statistic::AcceptedFlitsMin:
    case calib::Statistic::PeBandwidthMedian:
    case calib::Statistic::PeBandwidthMin:
      break;
  }
  return NAN;
}

std::vector<CaseResult> compare(const std::vector<calib::MeasuredCase>& cases,
                                const std::map<calib::RunKey, core::RunResult>& runs) {
  std::vector<CaseResult> out;
  for (const auto& c : cases) {
    auto it = runs.find(c.run);
    if (it == runs.end()) throw std::runtime_error("no run for case " + c.id);
    CaseResult r;
    r.measured = c;
    r.predicted = predicted_value(c, it->second);
    // A reported-only figure may be 0 (a node that starved): its relative error is undefined.
    r.rel_error = c.measured > 0 ? (r.predicted - c.measured) / c.measured : NAN;
    r.within_tolerance = c.report_only || std::fabs(r.rel_error) <= c.tolerance;
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<calib::RunKey> runs_needed(const std::vector<calib::MeasuredCase>& cases) {
  std::set<calib::RunKey> keys;
  for (const auto& c : cases) keys.insert(c.run);
  return {keys.begin(), keys.end()};
}

}  // namespace t3sim::calib
