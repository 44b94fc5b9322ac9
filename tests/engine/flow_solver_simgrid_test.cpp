// t3sim's max-min solver (sim/core/flow/flow_solver.hpp) against SimGrid's own, on the same flows: one
// SimGrid link per solver resource (same capacity, latency 0, SHARED), for each flow its own pair of
// hosts and a route over its resources' links plus a FATPIPE link of its cap, the network model as
// t3sim configures it (sim/engine/simulation.cpp: CM02, no cross-traffic, TCP-gamma 0). Every comm
// starts at t = 0; after kWindow its rate is (size - remaining) / kWindow. Each test builds one
// engine (SimGrid allows one per process; ctest runs each test in its own). The solver does not
// depend on the driver, so the test is the same under the fast. and reference. prefixes.
#include <gtest/gtest.h>
#include <xbt/log.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <simgrid/s4u.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/topology/torus.hpp"
#include "tests/torus_flow_system.hpp"

using namespace t3sim::core;
namespace testing_support = t3sim::testing_support;
namespace sg4 = simgrid::s4u;

namespace {

constexpr uint64_t kBytes = uint64_t{1} << 32;  // no comm ends within the window (600 MB/s x 1 s)
constexpr double kWindow = 1.0;                 // s

struct Flow {
  std::vector<ResourceId> path;
  double cap = FlowSolver::kNoCap;
};

// t3sim's platform as solver resources and routes (tests/torus_flow_system.hpp), dimension order x, y, z.
testing_support::TorusFlowSystem torus_system(FlowSolver& solver, Coord dims, int pes_per_node, double link,
                                              double inject, double eject) {
  return testing_support::TorusFlowSystem(solver, dims, pes_per_node, {0, 1, 2}, TieRule::Plus,
                                          [&](testing_support::ResourceKind kind) {
                                            return kind == testing_support::ResourceKind::Inject  ? inject
                                                   : kind == testing_support::ResourceKind::Eject ? eject
                                                                                                  : link;
                                          });
}

double random_cap(std::mt19937_64& rng) {
  const double r = std::uniform_real_distribution<double>(0, 1)(rng);
  if (r < 0.4) return FlowSolver::kNoCap;
  if (r < 0.55) return 329e6;  // the T3E-900 profile's put rate
  if (r < 0.7) return 350e6;   // and its get rate
  return std::uniform_real_distribution<double>(20e6, 600e6)(rng);
}

struct SimGridRun {
  std::vector<double> rates;  // per flow, bytes/s
  double maxmin_precision = 0;
  double surf_precision = 0;
};

// The flows' rates by SimGrid's max-min solver.
SimGridRun simgrid_rates(const FlowSolver& solver, const std::vector<Flow>& flows) {
  int argc = 1;
  char name[] = "flow_solver_simgrid_test";
  char* argv[] = {name, nullptr};
  xbt_log_control_set("root.thresh:critical");
  sg4::Engine engine(&argc, argv);
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  engine.set_config("network/TCP-gamma:0");
  SimGridRun run;
  run.maxmin_precision = simgrid::config::get_value<double>("maxmin/precision");
  run.surf_precision = simgrid::config::get_value<double>("surf/precision");

  sg4::NetZone* zone = sg4::create_full_zone("flows");
  std::vector<sg4::Link*> links;
  for (ResourceId r = 0; r < solver.resource_count(); ++r)
    links.push_back(zone->create_link("r" + std::to_string(r), solver.capacity(r))->set_latency(0));
  sg4::Host* driver = zone->create_host("driver", 1e9);
  std::vector<sg4::Host*> src, dst;
  for (size_t i = 0; i < flows.size(); ++i) {
    src.push_back(zone->create_host("src" + std::to_string(i), 1e9));
    dst.push_back(zone->create_host("dst" + std::to_string(i), 1e9));
    std::vector<sg4::LinkInRoute> route;
    if (std::isfinite(flows[i].cap)) {
      sg4::Link* cap = zone->create_link("cap" + std::to_string(i), flows[i].cap)->set_latency(0);
      cap->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      route.emplace_back(cap);
    }
    for (ResourceId r : flows[i].path) route.emplace_back(links[static_cast<size_t>(r)]);
    zone->add_route(src.back()->get_netpoint(), dst.back()->get_netpoint(), nullptr, nullptr, route, false);
  }
  zone->seal();

  std::vector<double> remaining(flows.size(), 0);
  double clock = 0;
  sg4::Actor::create("driver", driver, [&] {
    std::vector<sg4::CommPtr> comms;
    for (size_t i = 0; i < flows.size(); ++i) comms.push_back(sg4::Comm::sendto_async(src[i], dst[i], kBytes));
    sg4::this_actor::sleep_for(kWindow);
    clock = sg4::Engine::get_clock();
    for (size_t i = 0; i < flows.size(); ++i) remaining[i] = comms[i]->get_remaining();
    for (auto& c : comms) c->cancel();
  });
  engine.run();
  for (double left : remaining) run.rates.push_back((static_cast<double>(kBytes) - left) / clock);
  return run;
}

// Adds the flows to a solver, solves, runs them in SimGrid and compares flow by flow.
void expect_same_rates(FlowSolver& solver, const std::vector<Flow>& flows, int expect_shared_entries = 0) {
  std::vector<EntryId> entry;
  for (const Flow& f : flows) entry.push_back(solver.add_flow(f.path, f.cap));
  solver.solve();
  int shared = 0;  // entries with more than one flow
  for (EntryId e = 0; e < solver.entry_bound(); ++e) shared += solver.multiplicity(e) > 1;
  EXPECT_GE(shared, expect_shared_entries);

  const SimGridRun sg = simgrid_rates(solver, flows);
  // SimGrid's defaults (3.32: src/kernel/lmm/maxmin.cpp, sg_maxmin_precision = 1E-5 and
  // sg_surf_precision = 1E-9; read back here from its configuration).
  EXPECT_EQ(sg.maxmin_precision, 1e-5);
  EXPECT_EQ(sg.surf_precision, 1e-9);
  double worst = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    const double ours = solver.rate(entry[i]);
    // The tolerance: SimGrid's max-min solver works to maxmin/precision of each constraint's bound
    // (double_update zeroes a constraint's remaining capacity below bound x precision, so a flow's
    // rate is known to that much of the largest bound on its route, the FATPIPE cap included); the
    // window's end is known to surf/precision seconds.
    double largest_bound = std::isfinite(flows[i].cap) ? flows[i].cap : 0;
    for (ResourceId r : flows[i].path) largest_bound = std::max(largest_bound, solver.capacity(r));
    const double tolerance = sg.maxmin_precision * largest_bound + ours * sg.surf_precision / kWindow;
    EXPECT_NEAR(sg.rates[i], ours, tolerance) << "flow " << i << " (entry " << entry[i] << ", cap " << flows[i].cap
                                              << ", " << flows[i].path.size() << " resources)";
    worst = std::max(worst, std::abs(sg.rates[i] - ours) / ours);
  }
  std::ostringstream w;
  w << worst;
  testing::Test::RecordProperty("worst_relative_difference", w.str());
  std::cout << "largest relative difference to SimGrid: " << worst << " over " << flows.size() << " flows\n";
}

}  // namespace

// 64 random flows with random caps on a T3E-like 4x4x4 (payload link rate 480 MB/s, slower interfaces).
TEST(FlowSolverSimGrid, Torus4x4x4RandomFlowsWithCaps) {
  FlowSolver solver;
  const testing_support::TorusFlowSystem system = torus_system(solver, {4, 4, 4}, 1, 480e6, 350e6, 400e6);
  std::mt19937_64 rng(4401);
  std::vector<Flow> flows;
  for (int i = 0; i < 64; ++i) {
    const int src = static_cast<int>(rng() % 64);
    const int dst = static_cast<int>(rng() % 64);
    flows.push_back({system.path(src, dst), random_cap(rng)});
  }
  expect_same_rates(solver, flows);
}

// Duplicates: the solver holds them as one entry with a multiplicity, SimGrid as separate flows.
TEST(FlowSolverSimGrid, Torus2x2x2Duplicates) {
  FlowSolver solver;
  const testing_support::TorusFlowSystem system = torus_system(solver, {2, 2, 2}, 1, 300e6, 480e6, 400e6);
  std::mt19937_64 rng(2202);
  std::vector<Flow> flows;
  for (int i = 0; i < 40; ++i) {
    if (!flows.empty() && rng() % 2 == 0) {
      flows.push_back(flows[rng() % flows.size()]);
    } else {
      const int src = static_cast<int>(rng() % 8);
      const int dst = static_cast<int>(rng() % 8);
      flows.push_back({system.path(src, dst), random_cap(rng)});
    }
  }
  expect_same_rates(solver, flows, 5);
}

// T3D-like: two PEs per node share its injection and ejection resources (link 300 MB/s, slower NIC).
TEST(FlowSolverSimGrid, T3dTwoPesPerNode) {
  FlowSolver solver;
  const testing_support::TorusFlowSystem system = torus_system(solver, {4, 2, 2}, 2, 300e6, 200e6, 250e6);
  std::mt19937_64 rng(3203);
  std::vector<Flow> flows;
  for (int pe = 0; pe < system.pe_count(); ++pe) {  // each PE puts to one random peer, and gets from another
    const int peer = static_cast<int>(rng() % static_cast<uint64_t>(system.pe_count()));
    flows.push_back({system.path(pe, peer), 329e6});
    const int other = static_cast<int>(rng() % static_cast<uint64_t>(system.pe_count()));
    flows.push_back({system.path(other, pe), std::isfinite(random_cap(rng)) ? 350e6 : FlowSolver::kNoCap});
  }
  expect_same_rates(solver, flows, 1);
}

// Hot spot: every other PE sends to PE 0 (ejection-bound, with duplicates from the node sharing its
// interface), over random background traffic that crosses the hot spot's links.
TEST(FlowSolverSimGrid, HotSpot) {
  FlowSolver solver;
  const testing_support::TorusFlowSystem system = torus_system(solver, {4, 4, 4}, 2, 300e6, 200e6, 250e6);
  std::mt19937_64 rng(6404);
  std::vector<Flow> flows;
  for (int pe = 1; pe < system.pe_count(); ++pe)
    flows.push_back({system.path(pe, 0), pe % 3 == 0 ? 329e6 : FlowSolver::kNoCap});
  for (int i = 0; i < 64; ++i) {
    const int src = static_cast<int>(rng() % static_cast<uint64_t>(system.pe_count()));
    const int dst = static_cast<int>(rng() % static_cast<uint64_t>(system.pe_count()));
    flows.push_back({system.path(src, dst), random_cap(rng)});
  }
  expect_same_rates(solver, flows, 10);
}
