#include "sim/core/uncontended_replay.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/core/closed_form_transport.hpp"
#include "sim/core/pe_interpreter.hpp"

namespace t3sim::core {

RunResult replay_uncontended(const CostModel& cost, const Workload& workload) {
  ClosedFormTransport transport(cost);
  PeInterpreter interpreter(cost, workload, transport);
  interpreter.start();
  const double end = transport.run();
  const std::string stuck = interpreter.stuck();
  if (!stuck.empty())
    throw std::runtime_error("deadlock: the run cannot finish at t = " + std::to_string(end * 1e6) + " us;" + stuck);
  RunResult r;
  r.machine = cost.machine().name;
  r.profile = cost.profile().name;
  r.workload = workload.name;
  r.pes = workload.pes;
  r.swap_iterations = workload.swap_iterations;
  r.records = interpreter.take_records();
  r.makespan = end;
  for (const auto& rec : r.records) r.makespan = std::max(r.makespan, rec.end);
  sort_records(r.records);
  r.labels = workload.labels;
  r.transfers = interpreter.take_transfers();
  sort_transfers(r.transfers);
  r.placement = cost.placement().description();
  return r;
}

}  // namespace t3sim::core
