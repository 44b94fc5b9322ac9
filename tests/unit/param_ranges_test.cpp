// Parameter ranges (sim/core/machine/param_ranges.hpp): key paths, the Latin hypercube and quantiles.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "test_machine.hpp"

using namespace t3sim;

namespace {

std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/machine/" + name; }

TEST(ParamRanges, PathsReadAndWriteEverySection) {
  core::MachineSpec m = test::small_machine();
  EXPECT_EQ(*core::param_value(m, "network.router_delay"), 10e-9);
  EXPECT_EQ(*core::param_value(m, "node.clock"), 100e6);
  EXPECT_EQ(*core::param_value(m, "software.profiles.base.put_bandwidth"), 80e6);
  EXPECT_TRUE(core::set_param(m, "software.profiles.base.put_bandwidth", 40e6));
  EXPECT_EQ(m.profiles[0].put_bandwidth, 40e6);
  EXPECT_FALSE(core::param_value(m, "network.router_dealy"));
  EXPECT_FALSE(core::param_value(m, "software.profiles.fast.put_bandwidth"));
  EXPECT_FALSE(core::set_param(m, "software.profiles.base", 1));
  EXPECT_EQ(*core::param_quantity("network.link_bandwidth"), core::Quantity::Bandwidth);
}

TEST(ParamRanges, AssumedAndFittedRangesOfAProfile) {
  const core::MachineSpec m = io::load_machine(data("ranges_valid.yaml"));
  const auto params = core::ranged_params(m, "", false);
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].path, "network.router_delay");
  EXPECT_EQ(params[1].path, "software.profiles.base.barrier_latency");
  EXPECT_EQ(params[2].path, "software.profiles.base.put_bandwidth");
  EXPECT_EQ(params[2].range.low, 70e6);
  EXPECT_EQ(params[2].nominal, 80e6);
  EXPECT_EQ(params[2].range.why.rfind("fit:", 0), 0u);
  EXPECT_EQ(params[0].range.why, "assumed: one to four clocks");
}

TEST(ParamRanges, AValueSetOverItsBasesHasOnlyTheRangeItsSetterGives) {
  // The base's router_delay range (5-20 ns) said nothing of 30 ns: dropped, not scaled to 15-60 ns, so
  // sensitivity and --uncertainty leave the value alone; barrier_latency keeps the file's own range.
  const core::MachineSpec m = io::load_machine(data("derived_override_ranges.yaml"));
  const auto params = core::ranged_params(m, "", false);
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0].path, "software.profiles.base.barrier_latency");
  EXPECT_EQ(params[0].range.why, "assumed: the derived file's own");
  EXPECT_EQ(params[0].range.low, 2e-6);
  EXPECT_EQ(params[1].path, "software.profiles.base.put_bandwidth");  // not set here: the base's fit range
  EXPECT_EQ(m.uncertainty.count("network.router_delay"), 0u);
  EXPECT_EQ(m.set_by.at("network.router_delay"), "derived_override_ranges.yaml");
  EXPECT_EQ(m.set_by.at("software.profiles.base.barrier_latency"), "derived_override_ranges.yaml");
  EXPECT_EQ(m.set_by.count("software.profiles.base.put_bandwidth"), 0u);
  EXPECT_EQ(m.provenance.at("network.router_delay"), "test value");
}

TEST(ParamRanges, LatinHypercubeHitsEveryStratumOnceInEachDimension) {
  std::vector<core::RangedParam> params = {{"a", {0, 10, "", {}}, 5}, {"b", {100, 200, "", {}}, 150}};
  const int n = 16;
  const auto rows = core::latin_hypercube(params, n, 7);
  ASSERT_EQ(rows.size(), static_cast<size_t>(n));
  for (size_t d = 0; d < params.size(); ++d) {
    std::set<int> strata;
    for (const auto& row : rows) {
      const double u = (row[d] - params[d].range.low) / (params[d].range.high - params[d].range.low);
      ASSERT_GE(u, 0);
      ASSERT_LT(u, 1);
      strata.insert(static_cast<int>(u * n));
    }
    EXPECT_EQ(strata.size(), static_cast<size_t>(n)) << "dimension " << d;
  }
  EXPECT_EQ(core::latin_hypercube(params, n, 7), rows);  // deterministic
  EXPECT_NE(core::latin_hypercube(params, n, 8), rows);
}

TEST(ParamRanges, LatinHypercubeSamplesACountAsWholeNumbers) {
  // network.vc_buffer_flits 10..20 on mcurie: --uncertainty sent 13.75 flits, which run refuses.
  std::vector<core::RangedParam> params = {{"network.vc_buffer_flits", {10, 20, "", {}}, 10, true}};
  const int n = 33;
  std::set<double> seen;
  for (const auto& row : core::latin_hypercube(params, n, 3)) {
    EXPECT_EQ(row[0], std::floor(row[0]));
    EXPECT_GE(row[0], 10);
    EXPECT_LE(row[0], 20);
    seen.insert(row[0]);
  }
  EXPECT_EQ(seen.size(), 11u);  // 33 strata over 11 whole numbers: each 3 times
}

TEST(ParamRanges, RangedCountsAreWhole) {
  const auto m = io::load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/t3e-900-mcurie.yaml");
  for (const auto& p : core::ranged_params(m, "shmem", true))  // (and the arbitration's choice, an index)
    EXPECT_EQ(p.whole, p.path == "network.vc_buffer_flits" || p.path == "network.arbitration") << p.path;
}

TEST(ParamRanges, ANamedParametersChoicesAreSampledAsIndicesAndWrittenAsNames) {
  const core::MachineSpec m = io::load_machine(data("uncertainty_choices_valid.yaml"));
  const auto params = core::ranged_params(m, "base", true);
  ASSERT_EQ(params.size(), 1u);
  const core::RangedParam& p = params[0];
  EXPECT_EQ(p.path, "network.arbitration");
  EXPECT_TRUE(p.whole);
  EXPECT_EQ(p.nominal, 0);  // round_robin, the machine's value, is the first choice
  EXPECT_EQ(p.range.low, 0);
  EXPECT_EQ(p.range.high, 1);
  EXPECT_EQ(core::ranged_value_text(p, p.nominal, true), "round_robin");
  EXPECT_EQ(core::ranged_value_text(p, p.range.high, true), "age");
  // Every sample is one of the choices, and 4 strata over 2 choices take each twice.
  std::multiset<std::string> taken;
  for (const auto& row : core::latin_hypercube(params, 4, 7)) taken.insert(core::ranged_value_text(p, row[0], true));
  EXPECT_EQ(taken.count("round_robin"), 2u);
  EXPECT_EQ(taken.count("age"), 2u);
}

TEST(ParamRanges, EachDriverSamplesOnlyWhatItReads) {
  const auto contention = io::load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/t3e-900-mcurie-contention.yaml");
  const auto paths = [](const std::vector<core::RangedParam>& params) {
    std::set<std::string> out;
    for (const auto& p : params) out.insert(p.path);
    return out;
  };
  const auto flows = paths(core::ranged_params(contention, "shmem", false));
  const auto packets = paths(core::ranged_params(contention, "shmem", true));
  for (const char* flow_term : {"network.contention_loss", "network.port_fairness"}) {
    EXPECT_EQ(flows.count(flow_term), 1u) << flow_term;
    EXPECT_EQ(packets.count(flow_term), 0u) << flow_term;
  }
  for (const char* router : {"network.arbitration", "network.router_clock", "network.vc_buffer_flits"}) {
    EXPECT_EQ(flows.count(router), 0u) << router;
    EXPECT_EQ(packets.count(router), 1u) << router;
  }
  for (const char* both : {"network.link_bandwidth", "network.router_delay", "node.remote_round_trip"}) {
    EXPECT_EQ(flows.count(both), 1u) << both;
    EXPECT_EQ(packets.count(both), 1u) << both;
  }
  // The flow model's VC holding time reads the router's buffers and rules: sampled then under flows too.
  core::MachineSpec holding = contention;
  holding.network.vc_hold_cycles = 16;
  EXPECT_EQ(paths(core::ranged_params(holding, "shmem", false)).count("network.vc_buffer_flits"), 1u);
}

// Each declaration says which transport reads it; the docs say the same in words ("packet driver:",
// "fast driver"), so a parameter added to one model cannot be sampled under the other unnoticed.
TEST(ParamRanges, EveryNetworkParameterSaysWhichTransportReadsIt) {
  for (const auto& d : core::network_params()) {
    const std::string path = "network." + d.key;
    const core::ReadBy reader = core::param_read_by(path);
    if (d.doc.rfind("packet driver:", 0) == 0)
      EXPECT_EQ(reader, core::ReadBy::PacketRouter) << path;
    else if (d.doc.find("fast driver") != std::string::npos)
      EXPECT_EQ(reader, core::ReadBy::FlowModel) << path;
    else
      EXPECT_EQ(reader, core::ReadBy::Every) << path;
  }
  for (const auto& path : core::enum_param_paths())
    EXPECT_EQ(core::param_read_by(path), core::ReadBy::PacketRouter) << path;
  EXPECT_EQ(core::param_read_by("node.remote_round_trip"), core::ReadBy::Every);
  EXPECT_EQ(core::param_read_by("software.profiles.shmem.put_bandwidth"), core::ReadBy::Every);
}

TEST(ParamRanges, QuantileInterpolatesBetweenOrderStatistics) {
  EXPECT_DOUBLE_EQ(core::quantile({4, 1, 3, 2, 5}, 0.5), 3);
  EXPECT_DOUBLE_EQ(core::quantile({1, 2, 3, 4, 5}, 0.05), 1.2);
  EXPECT_DOUBLE_EQ(core::quantile({1, 2, 3, 4, 5}, 0.95), 4.8);
  EXPECT_TRUE(std::isnan(core::quantile({}, 0.5)));
}

}  // namespace
