// The PE rates as shared resources (network_resources.hpp): which rate each flow kind draws on, with
// which capacity, and that the network-only view has none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_machine.hpp"

#include "sim/core/machine/job_placement.hpp"
#include "sim/core/run/network_resources.hpp"

using namespace t3sim;

namespace {

std::vector<std::string> names(core::NetworkResources& r, const std::vector<core::ResourceId>& path) {
  std::vector<std::string> out;
  for (core::ResourceId id : path) out.push_back(r.name(id));
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(NetworkResources, EachFlowKindDrawsOnItsPeRate) {
  core::MachineSpec m = test::small_machine();
  core::SoftwareProfile p = m.profiles[0];
  p.mpi_bandwidth = 30e6;
  const auto placement = core::JobPlacement::contiguous(m, m.pe_count());
  core::NetworkResources r(m, p, placement);

  const auto put = r.path(2, 5, core::FlowKind::Put);
  EXPECT_EQ(r.name(put.back()), "issue.pe2");
  EXPECT_DOUBLE_EQ(r.capacity(put.back()), p.put_bandwidth);

  const auto get = names(r, r.path(5, 2, core::FlowKind::GetData));  // data from 5 back to initiator 2
  EXPECT_TRUE(has(get, "receive.pe2"));
  EXPECT_FALSE(has(get, "issue.pe5"));
  EXPECT_FALSE(has(get, "mpi.pe2"));

  const auto message = r.path(5, 2, core::FlowKind::MessageData);
  const auto message_names = names(r, message);
  EXPECT_TRUE(has(message_names, "receive.pe2"));
  ASSERT_TRUE(has(message_names, "mpi.pe2"));
  EXPECT_DOUBLE_EQ(r.capacity(message.back()), 30e6);

  const auto request = r.path(2, 5, core::FlowKind::GetRequest);
  for (core::ResourceId id : request) EXPECT_FALSE(r.is_pe_rate(id)) << r.name(id);
  EXPECT_EQ(request, r.path(2, 5));  // the network path alone
}

TEST(NetworkResources, NoMpiRateResourcesWithoutAnMpiRate) {
  const core::MachineSpec m = test::small_machine();
  const auto placement = core::JobPlacement::contiguous(m, m.pe_count());
  core::NetworkResources with(m, m.profiles[0], placement);
  core::NetworkResources network(m, placement);
  EXPECT_EQ(with.count(), network.count() + 2 * m.pe_count());  // issue and receive, no MPI rate
  for (core::ResourceId id : with.path(0, 1, core::FlowKind::MessageData))
    EXPECT_EQ(with.name(id).rfind("mpi.", 0), std::string::npos);
}

}  // namespace

namespace {

TEST(NetworkResources, DataCrossesBothNodesMemoryPortsAndGetDataItsInitiatorsERegisters) {
  core::MachineSpec m = test::small_machine();
  m.node.memory_bandwidth = 300e6;  // below the interfaces' 200 + 200 MB/s: it can bind
  m.node.eregisters = 8;            // 64 B / 2 us = 32 MB/s, below the 50 MB/s get rate
  m.node.remote_round_trip = 2e-6;
  core::SoftwareProfile p = m.profiles[0];
  p.mpi_bandwidth = 30e6;
  const auto placement = core::JobPlacement::contiguous(m, m.pe_count());
  core::NetworkResources r(m, p, placement);
  const core::MachineSpec without = test::small_machine();
  core::NetworkResources plain(without, m.profiles[0], placement);
  // A port per node and a register rate per PE, beyond the MPI rates.
  EXPECT_EQ(r.count(), plain.count() + m.pe_count() /*mpi*/ + m.torus().node_count() + m.pe_count());

  const auto put = names(r, r.path(2, 5, core::FlowKind::Put));
  EXPECT_TRUE(has(put, "memory.n2"));
  EXPECT_TRUE(has(put, "memory.n5"));
  EXPECT_FALSE(has(put, "eregisters.pe2"));  // a put holds no register for a round trip
  const auto get_path = r.path(5, 2, core::FlowKind::GetData);
  const auto get = names(r, get_path);
  EXPECT_TRUE(has(get, "memory.n5"));
  EXPECT_TRUE(has(get, "memory.n2"));
  ASSERT_TRUE(has(get, "eregisters.pe2"));  // the initiator's, where the data goes
  EXPECT_FALSE(has(get, "eregisters.pe5"));
  for (core::ResourceId id : get_path) {
    if (r.name(id) == "eregisters.pe2") {
      EXPECT_DOUBLE_EQ(r.capacity(id), 8 * 8 / 2e-6);
    }
    if (r.name(id) == "memory.n2") {
      EXPECT_DOUBLE_EQ(r.capacity(id), 300e6);
    }
    EXPECT_TRUE(id < r.link_bound() + 2 * m.torus().node_count() || r.is_pe_rate(id)) << r.name(id);
  }
  const auto message = names(r, r.path(5, 2, core::FlowKind::MessageData));  // a rendezvous pull is a get
  EXPECT_TRUE(has(message, "eregisters.pe2"));
  EXPECT_TRUE(has(message, "mpi.pe2"));
  for (auto kind : {core::FlowKind::GetRequest, core::FlowKind::Ack})
    for (const auto& n : names(r, r.path(2, 5, kind)))
      EXPECT_TRUE(n.rfind("memory.", 0) == std::string::npos && n.rfind("eregisters.", 0) == std::string::npos) << n;
  // The same through endpoints() (a routing that picks its own links).
  const auto ends = names(r, r.endpoints(5, 2, core::FlowKind::GetData));
  EXPECT_TRUE(has(ends, "memory.n5") && has(ends, "memory.n2") && has(ends, "eregisters.pe2"));
}

TEST(NetworkResources, APortOrRegistersThatCannotBindAreLeftOut) {
  // Every transfer crosses its node's injection or ejection interface (200 + 200 MB/s here) and get data
  // its initiator's receive rate (50 MB/s): a port of 400 MB/s or registers of 50 MB/s never bind.
  core::MachineSpec m = test::small_machine();
  m.node.memory_bandwidth = 400e6;
  m.node.eregisters = 25;  // 200 B / 4 us = 50 MB/s
  m.node.remote_round_trip = 4e-6;
  const auto placement = core::JobPlacement::contiguous(m, m.pe_count());
  const core::MachineSpec without = test::small_machine();
  core::NetworkResources r(m, m.profiles[0], placement);
  core::NetworkResources plain(without, m.profiles[0], placement);
  EXPECT_EQ(r.count(), plain.count());
  EXPECT_EQ(r.path(5, 2, core::FlowKind::GetData), plain.path(5, 2, core::FlowKind::GetData));
  m.node.memory_bandwidth = 399e6;  // now it can
  m.node.eregisters = 24;
  core::NetworkResources tighter(m, m.profiles[0], placement);
  EXPECT_EQ(tighter.count(), plain.count() + m.torus().node_count() + m.pe_count());
}

TEST(NetworkResources, TwoPesOfOneNodeCrossItsMemoryPortOnce) {
  core::MachineSpec m = test::small_machine();
  m.node.pes_per_node = 2;
  m.node.memory_bandwidth = 300e6;
  const auto placement = core::JobPlacement::contiguous(m, m.pe_count());
  ASSERT_EQ(placement.node_of(0), placement.node_of(1));
  core::NetworkResources r(m, m.profiles[0], placement);
  const auto put = names(r, r.path(0, 1, core::FlowKind::Put));
  EXPECT_EQ(std::count(put.begin(), put.end(), "memory.n" + std::to_string(placement.node_of(0))), 1);
}

TEST(NetworkResources, NodeCapIsTheTighterOfPortAndRegisters) {
  core::NodeParams node;
  EXPECT_TRUE(std::isinf(core::node_cap(node, core::FlowKind::GetData)));
  node.memory_bandwidth = 300e6;
  EXPECT_DOUBLE_EQ(core::node_cap(node, core::FlowKind::Put), 300e6);
  node.eregisters = 16;  // 128 B / 1 us = 128 MB/s
  node.remote_round_trip = 1e-6;
  EXPECT_DOUBLE_EQ(core::node_cap(node, core::FlowKind::GetData), 128e6);
  EXPECT_DOUBLE_EQ(core::node_cap(node, core::FlowKind::MessageData), 128e6);
  EXPECT_DOUBLE_EQ(core::node_cap(node, core::FlowKind::Put), 300e6);
  EXPECT_TRUE(std::isinf(core::node_cap(node, core::FlowKind::GetRequest)));
  EXPECT_TRUE(std::isinf(core::node_cap(node, core::FlowKind::IoData)));
}

}  // namespace
