// The PE rates as shared resources (network_resources.hpp): which rate each flow kind draws on, with
// which capacity, and that the network-only view has none.
#include <gtest/gtest.h>

#include <algorithm>
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
