// Input-port fairness for the flow model (sim/core/flow/port_shares.hpp, network.port_fairness): the
// input ports counted per resource, the shares as their products, and on a hot spot down one ring the
// rates round-robin arbitration gives at each merge, worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "test_machine.hpp"

#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/flow/port_shares.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/core/run/network_resources.hpp"

using namespace t3sim;
using core::PortShares;

namespace {

TEST(PortShares, CountsPortsNotFlowsAndSaysWhichResourcesChanged) {
  PortShares p(4, 1.0);
  std::vector<core::ResourceId> changed;
  p.add({{2, 6}, {3, 1}}, changed);
  EXPECT_EQ(changed, (std::vector<core::ResourceId>{2, 3}));
  changed.clear();
  p.add({{2, 6}}, changed);  // a second flow through the same port: no change
  EXPECT_TRUE(changed.empty());
  EXPECT_EQ(p.ports(2), 1);
  p.add({{2, 0}}, changed);
  EXPECT_EQ(changed, (std::vector<core::ResourceId>{2}));
  EXPECT_EQ(p.ports(2), 2);
  EXPECT_DOUBLE_EQ(p.share({{2, 6}, {3, 1}}), 0.5);
  changed.clear();
  p.remove({{2, 6}}, changed);
  EXPECT_TRUE(changed.empty());  // one flow still arrives through port 6
  p.remove({{2, 6}, {3, 1}}, changed);
  EXPECT_EQ(changed, (std::vector<core::ResourceId>{2, 3}));
  EXPECT_EQ(p.ports(2), 1);
  EXPECT_EQ(p.ports(3), 0);
  EXPECT_DOUBLE_EQ(p.share({}), 1.0);
}

TEST(PortShares, FairnessIsAnExponent) {
  PortShares half(2, 0.5), none(2, 0.0);
  std::vector<core::ResourceId> changed;
  for (int port = 0; port < 4; ++port) {
    half.add({{0, port}}, changed);
    none.add({{0, port}}, changed);
  }
  EXPECT_DOUBLE_EQ(half.share({{0, 0}}), 0.5);  // 4 ports: 4^-0.5
  EXPECT_DOUBLE_EQ(none.share({{0, 0}}), 1.0);
}

TEST(PortShares, RejectsWhatCannotBe) {
  EXPECT_THROW(PortShares(1, 1.5), std::invalid_argument);
  EXPECT_THROW(PortShares(1, -0.1), std::invalid_argument);
  PortShares p(1, 1.0);
  std::vector<core::ResourceId> changed;
  EXPECT_THROW(p.add({{0, 7}}, changed), std::out_of_range);
  EXPECT_THROW(p.remove({{0, 0}}, changed), std::logic_error);  // never added
}

// Nodes 1, 2 and 3 of an 8-node ring send to node 0 (dimension order: down x-). Link n1.x- is fed by
// node 1's injection and by port x (the flows of 2 and 3), link n2.x- by node 2's injection and by
// port x (3's flow), link n3.x- by node 3's injection only, node 0's ejection by one port. Shares:
// node 1's 1/2, node 2's 1/2 x 1/2, node 3's 1/2 x 1/2 x 1: at the saturated link n1.x-, node 1 gets
// half and the port of 2 and 3 the other half, split equally, as round-robin at each merge does.
TEST(PortShares, HotSpotDownARingGetsRoundRobinRates) {
  core::MachineSpec m = test::small_machine();
  m.dims = {8, 1, 1};
  m.network.link_bandwidth = 480e6;
  m.network.nic_injection_bandwidth = 1e9;
  m.network.nic_ejection_bandwidth = 1e9;
  const auto placement = core::JobPlacement::contiguous(m, m.pe_count());
  core::NetworkResources r(m, placement);
  core::FlowSolver solver;
  for (core::ResourceId id = 0; id < r.count(); ++id) solver.add_resource(r.capacity(id));
  PortShares ports(r.count(), 1.0);
  std::vector<std::vector<PortShares::Hop>> hops(4);
  std::vector<core::ResourceId> changed;
  for (int src = 1; src <= 3; ++src) {
    r.arbitration_hops(r.path(src, 0), hops[static_cast<size_t>(src)]);
    ports.add(hops[static_cast<size_t>(src)], changed);
  }
  const std::vector<PortShares::Hop>& from3 = hops[3];
  ASSERT_EQ(from3.size(), 4u);  // three links and the ejection
  EXPECT_EQ(r.name(from3[0].first), "n3.x-");
  EXPECT_EQ(from3[0].second, 6);  // from the injection
  EXPECT_EQ(r.name(from3[1].first), "n2.x-");
  EXPECT_EQ(from3[1].second, from3[2].second);  // on along the ring, through one port
  EXPECT_NE(from3[1].second, 6);
  EXPECT_EQ(r.name(from3[3].first), "eject.n0");
  EXPECT_EQ(ports.ports(from3[1].first), 2);
  EXPECT_EQ(ports.ports(from3[0].first), 1);

  std::vector<core::EntryId> flow;
  for (int src = 1; src <= 3; ++src)
    flow.push_back(solver.add_flow(r.path(src, 0), {}, INFINITY, ports.share(hops[static_cast<size_t>(src)])));
  solver.solve();
  EXPECT_DOUBLE_EQ(solver.rate(flow[0]), 240e6);
  EXPECT_DOUBLE_EQ(solver.rate(flow[1]), 120e6);
  EXPECT_DOUBLE_EQ(solver.rate(flow[2]), 120e6);
  // Node 1's flow ends: n1.x- is fed by one port, and 2 and 3 split the link.
  changed.clear();
  ports.remove(hops[1], changed);
  solver.remove_flow(flow[0]);
  EXPECT_FALSE(changed.empty());
  for (int src = 2; src <= 3; ++src)
    solver.reroute(flow[static_cast<size_t>(src - 1)], r.path(src, 0), {}, ports.share(hops[static_cast<size_t>(src)]));
  solver.solve();
  EXPECT_DOUBLE_EQ(solver.rate(flow[1]), 240e6);
  EXPECT_DOUBLE_EQ(solver.rate(flow[2]), 240e6);
}

}  // namespace
