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

// Throws std::runtime_error when the simulation cannot finish (a deadlock names the waiting PEs).
core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload);
// The same with the job's PEs placed on the machine by `placement` (its size is the workload's PEs).
// `paje_file`, when not empty, receives a SimGrid Paje trace of the run (link and host utilisation,
// PE states), viewable in ViTE.
core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const core::JobPlacement& placement,
                         const std::string& paje_file = "");

}  // namespace t3sim::engine
