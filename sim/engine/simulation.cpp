#include "sim/engine/simulation.hpp"

#include "sim/core/packet/packet_transport.hpp"

#include <xbt/log.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "sim/core/run/file_io.hpp"
#include "sim/core/run/network_resources.hpp"
#include "sim/core/run/pe_interpreter.hpp"
#include "sim/core/support/enum_names.hpp"
#include "sim/engine/platform_builder.hpp"
#include "sim/engine/simgrid_transport.hpp"
#include "sim/engine/solver_transport.hpp"

namespace t3sim::engine {
namespace {

// The network model right for a torus with our own latency handling (measured; see README):
// plain CM02 (no latency or bandwidth factors), no reverse cross-traffic, no TCP window bound, and
// zero-latency links (the PE interpreter waits the latency): every flow shares with penalty 1.
void configure(sg4::Engine& e) {
  e.set_config("network/model:CM02");
  e.set_config("network/crosstraffic:0");
  e.set_config("network/TCP-gamma:0");
  // surf/precision is the time within which SimGrid ends activities together. Its default (1e-9 s) ends
  // them up to 1 ns early or late: 1.5e-9 of a 512-PE permutation's makespan (measured). On chaotic
  // cases it also biases the outcome, not only its digits: merging completions that are 1e-11 s apart
  // synchronises PEs that would have drifted apart. All-to-all, window 1, 64 PEs of mcurie, 5 runs each
  // with router_delay x (1 + k 1e-9): makespan 45.0-45.5 ms at 1e-9, 48.5-49.4 ms at 1e-11,
  // 47.4-48.2 ms at 1e-13, and t3sim's solver (exact event times) 47.1-48.1 ms. At 1e-13 the reference
  // agrees with t3sim's solver on the non-chaotic cases to 1e-15 and in distribution on chaotic ones.
  e.set_config("surf/precision:1e-13");
}

// The pairs of PE and I/O node (endpoint workload.pes + node) each file operation uses: the disks its
// file is striped over. `use(pe, server, write)` once per pair and direction of use.
template <class Use>
void for_io_pairs(const core::MachineSpec& machine, const core::Workload& workload, Use&& use) {
  std::set<std::tuple<int, int, bool>> seen;
  for (const core::Op& op : workload.ops) {
    if (op.kind != core::OpKind::Write && op.kind != core::OpKind::Read) continue;
    for (int disk : core::disks_of_file(machine, op.peer)) {
      const int server = workload.pes + core::io_node_of_disk(machine, disk);
      if (seen.insert({op.pe, server, op.kind == core::OpKind::Write}).second)
        use(op.pe, server, op.kind == core::OpKind::Write);
    }
  }
}

void add_routes(PlatformBuilder& platform, const core::MachineSpec& machine, const core::Workload& workload) {
  for_io_pairs(machine, workload, [&](int pe, int server, bool write) {
    platform.add_pair(pe, server, write ? core::FlowKind::IoData : core::FlowKind::GetRequest);
    if (!write) platform.add_pair(server, pe, core::FlowKind::IoData);
  });
  workload.for_each_peer_operation([&](const core::Op& op) {
    if (op.peer < 0 || op.peer == op.pe || !core::Workload::peer_is_pe(op)) return;
    if (op.kind == core::OpKind::Get || op.kind == core::OpKind::Atomic) {
      platform.add_pair(op.pe, op.peer, core::FlowKind::GetRequest);
      platform.add_pair(op.peer, op.pe, op.message_data ? core::FlowKind::MessageData : core::FlowKind::GetData);
    } else if (op.kind == core::OpKind::Put) {
      platform.add_pair(op.pe, op.peer, core::FlowKind::Put);
    }
  });
  platform.seal();
}

// With failed links some pairs may have no route: find them before SimGrid starts, since an exception
// thrown through SimGrid's timers would leave its pending timers unfreed. Every pair an operation names
// is checked both ways (data, requests and acknowledgements go back), each node pair once.
void check_routable(const core::CostModel& cost, const core::Workload& workload) {
  std::set<std::pair<int, int>> seen;
  const core::JobPlacement& placement = cost.placement();
  auto check = [&](int pe, int peer) {
    for (const auto& [a, b] : {std::pair{pe, peer}, std::pair{peer, pe}})
      if (seen.insert({placement.node_of(a), placement.node_of(b)}).second) cost.hops(a, b);  // throws UnroutablePair
  };
  workload.for_each_peer_operation([&](const core::Op& op) {
    if (op.peer >= 0 && op.peer != op.pe && core::Workload::peer_is_pe(op)) check(op.pe, op.peer);
  });
  for_io_pairs(cost.machine(), workload, [&](int pe, int server, bool) { check(pe, server); });
}

// The one PE interpreter over `transport`, run to the end of SimGrid's simulation.
core::RunResult interpret(const core::CostModel& cost, const core::Workload& workload, core::Transport& transport,
                          sg4::Engine& engine) {
  core::PeInterpreter interpreter(cost, workload, transport);
  interpreter.start();
  engine.run();
  return interpreter.take_result();
}

// The packet driver: its own clock, no SimGrid engine.
core::RunResult simulate_packets(const core::MachineSpec& machine, const core::SoftwareProfile& profile,
                                 const core::Workload& workload, const core::JobPlacement& placement,
                                 const SimulationOptions& options) {
  if (auto why = driver_refusal(machine, Driver::Packet)) throw core::ModelError(*why);
  if (workload.has_io())
    throw core::ModelError("the packet driver has no disk model yet: run file I/O under the fast driver");
  const core::JobPlacement endpoints = machine.has_io() ? placement.with_io_nodes(machine) : placement;
  const core::CostModel cost(machine, profile, endpoints);
  core::PacketTransport transport(cost, 1, options.threads);
  if (options.record_vcs) transport.record_vcs(options.vcs_from, options.vcs_to);
  core::PeInterpreter interpreter(cost, workload, transport);
  interpreter.start();
  transport.run();
  core::RunResult result = interpreter.take_result();
  const core::PacketMeasure m = transport.measure();
  core::PacketRunStats& p = result.packet;
  p.present = true;
  p.cycle_s = m.cycle_s;
  p.cycles = m.cycles;
  p.window_begin = m.window_begin;
  p.window_end = m.window_end;
  if (m.window_end > m.window_begin) {
    p.accepted_flits_per_cycle = m.accepted_flits_per_cycle;
    p.accepted_flits_per_cycle_min = m.accepted_flits_per_cycle_min;
  }
  p.mean_packet_latency_cycles = m.stats.packets_delivered > 0 ? m.mean_packet_latency_cycles : 0;
  p.packets = m.stats.packets_delivered;
  p.flits = m.stats.flits_ejected;
  p.vc_from = m.vc_from;
  p.vc_to = m.vc_to;
  p.vcs = transport.network().vc_activities();
  return result;
}

}  // namespace

std::optional<std::string> driver_refusal(const core::MachineSpec& machine, Driver driver) {
  if (driver == Driver::Packet) {
    try {
      core::packet_config(machine);
    } catch (const core::ModelError& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }
  // SimGrid's links keep the capacity they were built with; the fast solver's crowded links do not.
  if (driver == Driver::Reference && machine.network.contention_loss > 0)
    return "network.contention_loss is the fast driver's contention term (a link's capacity falls with the flows "
           "crossing it); the reference driver's SimGrid links keep a fixed capacity: use the fast driver, or "
           "--param network.contention_loss=0 for SimGrid's pure max-min";
  if (driver == Driver::Reference && machine.network.port_fairness > 0)
    return "network.port_fairness is the fast driver's (flows' shares follow the input ports feeding each link); "
           "the reference driver's SimGrid comms share max-min: use the fast driver, or --param "
           "network.port_fairness=0";
  if (machine.network.port_fairness > 0 && !core::make_routing(machine)->single_route())
    return std::string(
               "network.port_fairness needs a single-route routing (a flow's share is the product over "
               "its one route); routing ") +
           core::enum_name(machine.routing) + " spreads flows over several: use --param network.port_fairness=0";
  if (driver == Driver::Reference && machine.network.vc_hold_cycles > 0)
    return "network.vc_hold_cycles is the fast driver's (a link's capacity follows its virtual channels' "
           "holding times); the reference driver's SimGrid links keep a fixed capacity: use the fast driver, or "
           "--param network.vc_hold_cycles=0";
  if (machine.network.vc_hold_cycles > 0 && !core::make_routing(machine)->single_route())
    return std::string(
               "network.vc_hold_cycles needs a single-route routing (a flow's virtual channels follow its one "
               "route); routing ") +
           core::enum_name(machine.routing) + " spreads flows over several: use --param network.vc_hold_cycles=0";
  // A SimGrid comm follows one route; a flow spread over several in fixed shares has no comm form.
  if (driver == Driver::Fast || core::make_routing(machine)->single_route()) return std::nullopt;
  return std::string("routing ") + core::enum_name(machine.routing) +
         " spreads each flow over several routes; the reference driver (and --paje, which uses it) carries one "
         "SimGrid route per flow: use the fast driver";
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
  if (options.driver == Driver::Packet && options.paje_file.empty())
    return simulate_packets(machine, profile, workload, placement, options);
  int argc = 1;
  char name[] = "t3sim";
  char* argv[] = {name, nullptr};
  xbt_log_control_set("root.thresh:critical");
  // SimGrid prints its own deadlock message at "critical"; t3sim reports deadlocks itself, naming the PEs.
  xbt_log_control_set("ker_engine.app:file:/dev/null ker_engine.add:0");
  sg4::Engine engine(&argc, argv);
  // SimGrid 3.32's tracer needs an actor behind every activity (it aborts on comms started by maestro),
  // so a traced run uses the reference transport with an actor per flow (same model, same times).
  const Driver driver = options.paje_file.empty() ? options.driver : Driver::Reference;
  if (auto why = driver_refusal(machine, driver)) throw core::ModelError(*why);
  configure(engine);
  if (!options.paje_file.empty()) {
    // Tracing must be on before the platform exists.
    engine.set_config("tracing:yes");
    engine.set_config("tracing/filename:" + options.paje_file);
    engine.set_config("tracing/platform:yes");
    engine.set_config("tracing/uncategorized:yes");
    engine.set_config("tracing/actor:yes");
  }

  // The I/O nodes are endpoints after the job's PEs (file calls travel the torus as PE pairs do).
  const core::JobPlacement endpoints = machine.has_io() ? placement.with_io_nodes(machine) : placement;
  core::NetworkResources resources(machine, profile, endpoints);
  const core::CostModel cost(machine, profile, endpoints);
  if (!machine.failed_links.empty()) check_routable(cost, workload);
  core::RunResult result;
  if (driver == Driver::Fast) {
    sg4::create_full_zone("t3sim")->seal();  // SimGrid runs only with a platform; the solver needs no more
    SolverTransport transport(cost, resources);
    result = interpret(cost, workload, transport, engine);
    if (!transport.carried().empty()) {  // interfaces and links only, as the reports number them
      const auto network = static_cast<long>(resources.link_resource(resources.link_bound()));
      result.network_bytes.assign(transport.carried().begin(), transport.carried().begin() + network);
    }
    // Diagnostic (stderr, so outputs stay byte-identical): how much work the solver did.
    if (std::getenv("T3SIM_SOLVER_STATS") != nullptr) {
      const core::FlowSolver::Stats& st = transport.solver().stats();
      std::fprintf(stderr,
                   "solver: %llu solves, %llu rounds, %llu entries re-solved, %llu rate changes, %llu fill users, "
                   "%llu check users, %llu full checks, %llu local solves, %llu entries deferred\n",
                   static_cast<unsigned long long>(st.solves), static_cast<unsigned long long>(st.rounds),
                   static_cast<unsigned long long>(st.entries_solved), static_cast<unsigned long long>(st.rate_changes),
                   static_cast<unsigned long long>(st.fill_users), static_cast<unsigned long long>(st.check_users),
                   static_cast<unsigned long long>(st.checks), static_cast<unsigned long long>(st.local_solves),
                   static_cast<unsigned long long>(st.deferred_entries));
      if (transport.port_fair())
        std::fprintf(stderr, "port fairness: %llu port count changes, %llu entries given a new share\n",
                     static_cast<unsigned long long>(transport.port_stats().port_changes),
                     static_cast<unsigned long long>(transport.port_stats().reshared));
      if (const core::AdaptiveSplits* a = transport.adaptive())
        std::fprintf(
            stderr,
            "adaptive routing: %llu re-balancings, %llu entries examined, %llu shares moved, %llu "
            "re-balancings unconverged\n",
            static_cast<unsigned long long>(a->stats().refills), static_cast<unsigned long long>(a->stats().examined),
            static_cast<unsigned long long>(a->stats().moves), static_cast<unsigned long long>(a->stats().unconverged));
    }
  } else {
    PlatformBuilder platform(machine, endpoints, resources, machine.has_io() ? workload.pes : -1);
    add_routes(platform, machine, workload);
    SimGridTransport transport(platform, !options.paje_file.empty());
    result = interpret(cost, workload, transport, engine);
  }
  return result;
}

}  // namespace t3sim::engine
