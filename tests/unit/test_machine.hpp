// A small machine built in code for tests: 2 x 3 x 4 torus, 1 PE per node, round numbers.
#pragma once
#include <string>
#include <vector>

#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/program/workload.hpp"

namespace t3sim::test {

inline core::MachineSpec small_machine() {
  core::MachineSpec m;
  m.name = "small";
  m.dims = {2, 3, 4};
  m.node = {1, 100e6, 1};
  m.network = {100e6, 10e-9, 1e-9, 200e6, 200e6, 16};
  core::SoftwareProfile p;
  p.name = "base";
  p.call_overhead = 1e-6;
  p.local_overhead = 0.5e-6;
  p.copy_bandwidth = 400e6;
  p.get_bandwidth = 50e6;
  p.put_bandwidth = 80e6;
  p.barrier_latency = 2e-6;
  m.profiles.push_back(p);
  m.default_profile = "base";
  return m;
}

// How far a run with signalled puts may drift from the uncontended replay, which shares nothing: each
// signalled put's flag word (kFlagWordBytes) is issued while its data is still in flight and takes its
// share of the PE's issue rate (or of the path) in the engine, delaying the data by at most
// kFlagWordBytes / put_bandwidth. The bound adds that over every signalled put of the run.
inline double flag_word_slack(const core::MachineSpec& m, const core::Workload& w) {
  double n = 0;
  for (const auto& op : w.ops)
    if (op.kind == core::OpKind::Put && op.flag != core::kNoName && op.order != core::SignalOrder::OnArrival) ++n;
  return n * core::kFlagWordBytes / m.profiles[0].put_bandwidth;
}

inline core::Workload workload(const std::string& name, int pes, std::vector<core::Op> ops) {
  core::Workload w;
  w.name = name;
  w.pes = pes;
  w.ops = std::move(ops);
  return w;
}

}  // namespace t3sim::test
