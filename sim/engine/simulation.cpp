#include "sim/engine/simulation.hpp"

#include <xbt/log.h>

#include <stdexcept>

#include "sim/engine/shmem_pe.hpp"

namespace t3sim::engine {
namespace {

// The network model right for a torus with our own latency handling (measured; see README):
// plain CM02 (no latency or bandwidth factors), no reverse cross-traffic, no TCP window bound.
void configure(sg4::Engine& e) {
  e.set_config("network/model:CM02");
  e.set_config("network/crosstraffic:0");
  e.set_config("network/TCP-gamma:0");
}

}  // namespace

core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload) {
  int argc = 1;
  char name[] = "t3sim";
  char* argv[] = {name, nullptr};
  xbt_log_control_set("root.thresh:critical");
  sg4::Engine engine(&argc, argv);
  configure(engine);

  PlatformBuilder platform(machine, workload.pes);
  for (const core::Op& op : workload.ops) {
    if (op.peer < 0 || op.peer == op.pe) continue;
    if (op.kind == core::OpKind::Get) {
      platform.add_pair(op.pe, op.peer);
      platform.add_pair(op.peer, op.pe);
    } else if (op.kind == core::OpKind::Put) {
      platform.add_pair(op.pe, op.peer);
    }
  }
  platform.seal();

  const core::CostModel cost(machine, profile);
  std::vector<std::vector<core::OpRecord>> per_pe(static_cast<size_t>(workload.pes));
  uint64_t next_transfer = 0;
  JobContext ctx{&cost, &platform, sg4::Barrier::create(static_cast<unsigned>(workload.pes)), &per_pe, &next_transfer};
  for (int pe = 0; pe < workload.pes; ++pe)
    sg4::Actor::create("pe" + std::to_string(pe), platform.host(pe), ShmemPe(ctx, pe, workload.program_of(pe)));

  engine.run();
  if (sg4::Engine::get_instance()->get_actor_count() > 0) {
    std::string waiting;
    for (const auto& a : engine.get_all_actors()) waiting += " " + a->get_name();
    throw std::runtime_error("deadlock: the simulation ended with these actors still waiting:" + waiting);
  }

  core::RunResult result;
  result.machine = machine.name;
  result.profile = profile.name;
  result.workload = workload.name;
  result.pes = workload.pes;
  for (auto& v : per_pe)
    for (auto& r : v) {
      result.makespan = std::max(result.makespan, r.end);
      result.records.push_back(std::move(r));
    }
  core::sort_records(result.records);
  return result;
}

}  // namespace t3sim::engine
