// Runs one workload on one machine profile in SimGrid. One simulation per process: SimGrid 3.32 cannot
// start a second engine in the same process (see ../../README.md), so callers that need several runs
// (validate) start child processes.
#pragma once
#include <optional>
#include <string>

#include "sim/core/machine/job_placement.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/program/workload.hpp"
#include "sim/core/run/results.hpp"
#include "sim/core/support/enum_names.hpp"

namespace t3sim::engine {

// Which transport the one PE interpreter (core/pe_interpreter.hpp) runs over; both give the same
// model (paths, max-min sharing with per-flow caps, latencies, costs).
//   fast      : t3sim's incremental max-min solver on SimGrid's clock (solver_transport.hpp). The default.
//   reference : SimGrid's comms and its own max-min solver (simgrid_transport.hpp): the oracle the
//               fast transport is checked against, and the measure of what it gains.
//   packet    : not flows but packets through routers of virtual channels (core/packet): contention
//               as head-of-line blocking, allocation and finite buffers give it; its own clock.
enum class Driver { Fast, Reference, Packet };
// As `--driver` and T3SIM_TEST_DRIVER name them.
constexpr core::NameTable<Driver, 3> kDriverNames = {
    {Driver::Fast, "fast"}, {Driver::Reference, "reference"}, {Driver::Packet, "packet"}};
constexpr const auto& name_table(Driver) { return kDriverNames; }

// The one rule of which routings a driver carries: the reference driver (and --paje, which uses it)
// carries one SimGrid route per flow, so a routing that spreads each flow over several routes
// (minimal_oblivious, minimal_adaptive) runs on the fast driver only. The refusal's text ("routing X
// spreads each flow over several routes; ..."), or none when `driver` carries the machine's routing.
// The packet driver refuses what it cannot carry yet (packet_config's reasons).
std::optional<std::string> driver_refusal(const core::MachineSpec& machine, Driver driver);

struct SimulationOptions {
  Driver driver = Driver::Fast;
  // When not empty, receives a SimGrid Paje trace of the run (link and host utilisation), viewable in
  // ViTE. A traced run always uses the reference driver (SimGrid's tracer needs SimGrid's comms).
  std::string paje_file;
  // The packet driver records what each virtual channel does between these times (s; run
  // --vc-report) into RunResult::packet.vcs.
  bool record_vcs = false;
  double vcs_from = 0;
  double vcs_to = 1e300;
  // The packet driver shares each busy cycle's routers over this many threads (core/packet: the same
  // results for any number).
  int threads = 1;
};

// Throws core::ModelError when the simulation cannot finish (a deadlock names the waiting PEs) or the
// driver cannot carry the machine's routing (driver_refusal; a traced run uses the reference driver).
core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const SimulationOptions& options = {});
// The same with the job's PEs placed on the machine by `placement` (its size is the workload's PEs).
core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const core::JobPlacement& placement,
                         const SimulationOptions& options = {});

}  // namespace t3sim::engine
