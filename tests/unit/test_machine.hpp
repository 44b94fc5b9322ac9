// A small machine built in code for tests: 2 x 3 x 4 torus, 1 PE per node, round numbers.
#pragma once
#include <string>
#include <vector>

#include "sim/core/machine_spec.hpp"
#include "sim/core/workload.hpp"

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

inline core::Workload workload(const std::string& name, int pes, std::vector<core::Op> ops) {
  core::Workload w;
  w.name = name;
  w.pes = pes;
  w.ops = std::move(ops);
  return w;
}

}  // namespace t3sim::test
