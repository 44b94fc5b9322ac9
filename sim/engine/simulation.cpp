#include "sim/engine/simulation.hpp"

#include <xbt/log.h>

#include <stdexcept>

#include "sim/core/enum_names.hpp"
#include "sim/engine/event_driver.hpp"
#include "sim/engine/op_description.hpp"
#include "sim/engine/shmem_pe.hpp"

namespace t3sim::engine {
namespace {

// The network model right for a torus with our own latency handling (measured; see README):
// plain CM02 (no latency or bandwidth factors), no reverse cross-traffic, no TCP window bound.
void configure(sg4::Engine& e, Driver driver) {
  e.set_config("network/model:CM02");
  e.set_config("network/crosstraffic:0");
  if (driver == Driver::Fast) {
    e.set_config("network/TCP-gamma:0");
  } else {
    // Latency on the links: CM02's max-min solver would weight each flow by its route's latency
    // (short routes win), fairbottleneck shares without weights. TCP-gamma must not be 0 there: with
    // latency on a route CM02 bounds the flow by gamma / (2 latency), and a bound of 0 means "none",
    // which would also drop Comm::set_rate's cap. A huge window leaves only the cap.
    e.set_config("network/solver:fairbottleneck");
    e.set_config("network/TCP-gamma:1e30");
  }
}

constexpr core::NameTable<Driver, 2> kDrivers = {{Driver::Fast, "fast"}, {Driver::Reference, "reference"}};

void add_routes(PlatformBuilder& platform, const core::Workload& workload) {
  for (const core::Op& op : workload.ops) {
    if (op.peer < 0 || op.peer == op.pe) continue;
    if (op.kind == core::OpKind::Get || op.kind == core::OpKind::Atomic) {
      platform.add_pair(op.pe, op.peer, FlowKind::GetRequest);
      platform.add_pair(op.peer, op.pe, FlowKind::GetData);
    } else if (op.kind == core::OpKind::Put) {
      platform.add_pair(op.pe, op.peer, FlowKind::Put);
    }
  }
  platform.seal();
}

// Runs the actor-per-PE reference driver; returns "" or the PEs that could not finish.
std::string run_reference(const core::CostModel& cost, const PlatformBuilder& platform, const core::Workload& workload,
                          sg4::Engine& engine, std::vector<core::OpRecord>* records,
                          std::vector<core::Transfer>* transfers) {
  std::vector<std::vector<core::OpRecord>> per_pe(static_cast<size_t>(workload.pes));
  uint64_t next_transfer = 0;
  std::vector<FlagBoard> flags(static_cast<size_t>(workload.pes));
  for (auto& board : flags) {
    board.mutex = sg4::Mutex::create();
    board.changed = sg4::ConditionVariable::create();
  }
  std::vector<std::string> doing(static_cast<size_t>(workload.pes), "not started");
  std::vector<sg4::BarrierPtr> barriers;  // one per job
  for (size_t job = 0; job < workload.job_first_pe.size(); ++job)
    barriers.push_back(sg4::Barrier::create(static_cast<unsigned>(workload.job_size(static_cast<int>(job)))));
  auto programs = workload.programs();
  for (int pe = 0; pe < workload.pes; ++pe) {
    JobContext ctx{&cost,     &platform,      barriers[static_cast<size_t>(workload.job_of(pe))],
                   &per_pe,   &next_transfer, &flags,
                   transfers, &doing,         workload.step_unit};
    sg4::Actor::create("pe" + std::to_string(pe), platform.host(pe),
                       ShmemPe(ctx, pe, std::move(programs[static_cast<size_t>(pe)])));
  }
  engine.run();
  for (auto& v : per_pe)
    for (auto& r : v) records->push_back(std::move(r));
  std::string stuck;
  for (size_t pe = 0; pe < doing.size(); ++pe)
    if (!doing[pe].empty()) stuck += stuck_line(pe, doing[pe]);
  return stuck;
}

std::string run_fast(const core::CostModel& cost, const PlatformBuilder& platform, const core::Workload& workload,
                     sg4::Engine& engine, std::vector<core::OpRecord>* records,
                     std::vector<core::Transfer>* transfers) {
  EventDriver driver(cost, platform, workload);
  driver.start();
  engine.run();
  *records = driver.take_records();
  *transfers = driver.take_transfers();
  return driver.stuck();
}

}  // namespace

const char* driver_name(Driver d) { return core::name_in(kDrivers, d); }

bool parse_driver(const std::string& name, Driver* out) {
  const auto d = core::value_in(kDrivers, name);
  if (d) *out = *d;
  return d.has_value();
}

core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const SimulationOptions& options) {
  return simulate(machine, profile, workload, core::JobPlacement::contiguous(machine, workload.pes), options);
}

core::RunResult simulate(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                         const core::Workload& workload, const core::JobPlacement& placement,
                         const SimulationOptions& options) {
  if (placement.size() != workload.pes)
    throw std::invalid_argument("placement of " + std::to_string(placement.size()) + " PEs for a workload of " +
                                std::to_string(workload.pes));
  int argc = 1;
  char name[] = "t3sim";
  char* argv[] = {name, nullptr};
  xbt_log_control_set("root.thresh:critical");
  // SimGrid prints its own deadlock message at "critical"; t3sim reports deadlocks itself, naming the PEs.
  xbt_log_control_set("ker_engine.app:file:/dev/null ker_engine.add:0");
  sg4::Engine engine(&argc, argv);
  // SimGrid 3.32's tracer needs an actor behind every activity (it aborts on comms started by maestro),
  // and PE states exist only as actors: a traced run uses the reference driver (same model, same times).
  const Driver driver = options.paje_file.empty() ? options.driver : Driver::Reference;
  configure(engine, driver);
  if (!options.paje_file.empty()) {
    // Tracing must be on before the platform exists.
    engine.set_config("tracing:yes");
    engine.set_config("tracing/filename:" + options.paje_file);
    engine.set_config("tracing/platform:yes");
    engine.set_config("tracing/uncategorized:yes");
    engine.set_config("tracing/actor:yes");
  }

  PlatformOptions style;
  style.rate_caps_as_links = driver == Driver::Fast;
  style.latency_on_links = driver == Driver::Reference;
  PlatformBuilder platform(machine, profile, placement, style);
  add_routes(platform, workload);
  const core::CostModel cost(machine, profile, placement);
  std::vector<core::OpRecord> records;
  std::vector<core::Transfer> transfers;
  const std::string stuck = driver == Driver::Fast
                                ? run_fast(cost, platform, workload, engine, &records, &transfers)
                                : run_reference(cost, platform, workload, engine, &records, &transfers);
  if (!stuck.empty())
    throw std::runtime_error(
        "deadlock: the run cannot finish at t = " + std::to_string(sg4::Engine::get_clock() * 1e6) + " us;" + stuck);

  core::RunResult result;
  result.machine = machine.name;
  result.profile = profile.name;
  result.workload = workload.name;
  result.pes = workload.pes;
  result.swap_iterations = workload.swap_iterations;
  result.makespan = sg4::Engine::get_clock();  // includes background puts that end after the last record
  for (const auto& r : records) result.makespan = std::max(result.makespan, r.end);
  result.records = std::move(records);
  core::sort_records(result.records);
  result.transfers = std::move(transfers);
  core::sort_transfers(result.transfers);
  result.placement = placement.description();
  return result;
}

}  // namespace t3sim::engine
