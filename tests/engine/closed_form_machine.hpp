// The machine and patterns of the engine's closed-form contention tests: links of `link` bytes/s, no
// latency, no software cost, interfaces and PE rates far faster than the links, so one flow per PE runs
// at exactly its max-min share of the links.
#pragma once
#include "../unit/test_machine.hpp"
#include "driver_under_test.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/program/traffic_pattern.hpp"

namespace t3sim::test {

inline core::MachineSpec closed_form_machine(core::Coord dims, double link, int pes_per_node = 1) {
  core::MachineSpec m = small_machine();
  m.dims = dims;
  m.node.pes_per_node = pes_per_node;
  m.network = {link, 0, 0, 1e15, 1e15, 16};
  auto& p = m.profiles[0];
  p.call_overhead = 0;
  p.local_overhead = 0;
  p.put_bandwidth = 1e15;
  p.get_bandwidth = 1e15;
  p.barrier_latency = 0;
  return m;
}

// Every PE to the PE `distance` further along x of the PE grid `grid`.
inline core::PatternSpec x_shift(int distance, const core::Coord& grid) {
  core::PatternSpec s;
  s.kind = core::PatternKind::DimShift;
  s.dim = 0;
  s.distance = distance;
  s.grid = grid;
  return s;
}

// One measurement of `spec` on every PE of m (contiguous), `bytes` per message, under the driver
// under test: its traffic report.
inline analysis::TrafficReport run_closed_form_pattern(const core::MachineSpec& m, const core::PatternSpec& spec,
                                                       double bytes) {
  const int pes = m.pe_count();
  core::Workload w = workload("pattern", pes, {});
  core::append_pattern_measurement(w, spec, pes, bytes, 0);
  const auto placement = core::JobPlacement::contiguous(m, pes);
  const auto run = engine::simulate(m, m.profiles[0], w, placement, driver_under_test());
  return analysis::traffic_report(m, placement, run, core::kExchangeLabel);
}

}  // namespace t3sim::test
