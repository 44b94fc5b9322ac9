// Runs one workload on one machine profile in SimGrid. One simulation per process: SimGrid 3.32 cannot
// start a second engine in the same process (see ../../README.md), so callers that need several runs
// (validate) start child processes.
#pragma once
#include <string>

#include "sim/core/job_placement.hpp"
#include "sim/core/machine_spec.hpp"
#include "sim/core/results.hpp"
#include "sim/core/workload.hpp"

namespace t3sim::engine {

// How t3sim drives SimGrid; both give the same model (routes, max-min sharing, latencies, costs).
//   fast      : PEs as state machines in maestro, timers for delays, comms started from maestro, rate
//               caps as FATPIPE links (event_driver.hpp). The default.
//   reference : the straightforward S4U program: one actor per PE, one actor and one mailbox per
//               transfer, each transfer awaited by its actor, rate caps as Comm::set_rate, the latency
//               on the links and network/solver:fairbottleneck (shmem_pe.hpp). Kept to check the fast
//               driver and to measure what it gains.
enum class Driver { Fast, Reference };
const char* driver_name(Driver d);
bool parse_driver(const std::string& name, Driver* out);

struct SimulationOptions {
  Driver driver = Driver::Fast;
  // When not empty, receives a SimGrid Paje trace of the run (link and host utilisation, PE states),
  // viewable in ViTE. A traced run always uses the reference driver (SimGrid's tracer needs actors).
  std::string paje_file;
};

// Throws std::runtime_error when the simulation cannot finish (a deadlock names the waiting PEs).
core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const SimulationOptions& options = {});
// The same with the job's PEs placed on the machine by `placement` (its size is the workload's PEs).
core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const core::JobPlacement& placement,
                         const SimulationOptions& options = {});

}  // namespace t3sim::engine
