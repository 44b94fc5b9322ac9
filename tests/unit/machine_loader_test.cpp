#include <gtest/gtest.h>

#include "rejection_case.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/io/machine/machine_loader.hpp"

using t3sim::io::load_machine;
using t3sim::test::RejectionCase;

namespace {
std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/machine/" + name; }
}  // namespace

TEST(MachineLoader, ReadsValidFile) {
  const auto m = load_machine(data("valid.yaml"));
  EXPECT_EQ(m.name, "test-machine");
  EXPECT_EQ(m.dims, (t3sim::core::Coord{2, 3, 4}));
  EXPECT_EQ(m.pe_count(), 24);
  EXPECT_DOUBLE_EQ(m.network.link_bandwidth, 100e6);
  EXPECT_DOUBLE_EQ(m.network.wire_delay, 0.0);      // default
  EXPECT_DOUBLE_EQ(m.network.request_bytes, 16.0);  // default
  ASSERT_NE(m.find_profile(""), nullptr);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->get_bandwidth, 50e6);
}

TEST(MachineLoader, EveryPlatformFileLoads) {
  for (const char* f : {"t3d-denali.yaml", "t3e-900-mcurie.yaml", "t3e-600.yaml", "t3e-1200.yaml"}) {
    const auto m = load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/" + f);
    EXPECT_GT(m.pe_count(), 0) << f;
  }
}

TEST(MachineLoader, ReadsAnIoSection) {
  const auto m = load_machine(data("io_valid.yaml"));
  EXPECT_EQ(m.io_nodes, (std::vector<int>{20, 21}));  // (0,1,3) and (1,1,3) on 2 x 3 x 4
  EXPECT_EQ(m.disk_count(), 2);
  EXPECT_DOUBLE_EQ(m.io.disk_write_bandwidth, 100e6);
  EXPECT_DOUBLE_EQ(m.io.stripe_size, 1048576);  // defaults
  EXPECT_DOUBLE_EQ(m.io.server_threads, 1);
  EXPECT_DOUBLE_EQ(m.io.runtime_buffer, 65536);
  EXPECT_FALSE(load_machine(data("valid.yaml")).has_io());
  const auto bigben = load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/xt3-bigben.yaml");
  EXPECT_EQ(bigben.disk_count(), 20);
  EXPECT_EQ(bigben.pe_count(), 2068);
}

class MachineRejects : public testing::TestWithParam<RejectionCase> {};

TEST_P(MachineRejects, WithLocatedMessage) {
  const RejectionCase& c = GetParam();
  t3sim::test::expect_rejected([&] { load_machine(data(c.rule + ".yaml")); }, c);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, MachineRejects,
    testing::Values(
        RejectionCase{"empty", "empty.yaml: is empty"},
        RejectionCase{"switching_unknown",
                      "switching_unknown.yaml:16:14: network.switching: must be cut_through or wormhole \\(got "
                      "'store_and_forward'\\)"},
        RejectionCase{"switch_hold_unknown",
                      "switch_hold_unknown.yaml:17:16: network.switch_hold: must be flit or packet \\(got 'whole'\\)"},
        RejectionCase{"switch_hold_under_wormhole",
                      "switch_hold_under_wormhole.yaml:16:16: network.switch_hold: packet needs network.switching: "
                      "cut_through \\(a held wormhole packet can stall mid-way\\) \\(got 'packet'\\)"},
        RejectionCase{
            "switching_wormhole_under_held_base",
            "switching_wormhole_under_held_base.yaml:6:14: network.switching: must be cut_through under "
            "network.switch_hold: packet \\(a held wormhole packet can stall mid-way\\) \\(got 'wormhole'\\)"},
        RejectionCase{"arbitration_unknown",
                      "arbitration_unknown.yaml:16:16: network.arbitration: must be round_robin or age \\(got "
                      "'oldest_first'\\)"},
        RejectionCase{"dateline_unknown",
                      "dateline_unknown.yaml:16:13: network.dateline: must be fixed, balanced, cray, cray_balanced or "
                      "none \\(got "
                      "'none_at_all'\\)"},
        RejectionCase{"header_fills_packet",
                      "header_fills_packet.yaml:17:17: network.header_flits: must be less than network.packet_flits "
                      "\\(a packet needs payload room\\) \\(got 4 of 4\\)"},
        RejectionCase{"virtual_networks_three",
                      "virtual_networks_three.yaml:16:21: network.virtual_networks: must be <= 2 \\(got '3'\\)"},
        RejectionCase{"not_yaml", "not_yaml.yaml:[0-9]+:[0-9]+: not valid YAML"},
        RejectionCase{"not_a_mapping", "not_a_mapping.yaml:1:1: top level must be a mapping"},
        RejectionCase{"missing_file", "missing_file.yaml: no such file"},
        RejectionCase{"wrong_schema_version",
                      "wrong_schema_version.yaml:3:17: schema_version: unsupported version.*got 2"},
        RejectionCase{"unknown_key",
                      "unknown_key.yaml:15:3: network.router_dealy: unknown key; did you mean 'router_delay'"},
        RejectionCase{"duplicate_key", "duplicate_key.yaml:15:3: network.router_delay: duplicate key"},
        RejectionCase{"missing_required_key", "network.link_bandwidth: required key is missing"},
        RejectionCase{"wrong_type", "wrong_type.yaml:11:10: node.clock: must be a single value"},
        RejectionCase{"unit_missing", "unit_missing.yaml:13:19: network.link_bandwidth: unit missing.*got '100'"},
        RejectionCase{"unit_unknown", "network.link_bandwidth: unknown unit 'Mb/s'"},
        RejectionCase{"negative_value", "network.router_delay: must be >= 0us \\(got '-10ns'\\)"},
        RejectionCase{"zero_bandwidth", "network.link_bandwidth: must be > 0MB/s"},
        RejectionCase{"nan_value", "network.router_delay: not a finite number|network.router_delay: not a number"},
        RejectionCase{"infinite_value", "network.router_delay: not a (finite )?number"},
        RejectionCase{"torus_dim_zero", "torus.dims\\[1\\]: must be between 1 and 65536 \\(got 0\\)"},
        RejectionCase{"torus_dims_count", "torus.dims: must list 3 sizes"},
        RejectionCase{"torus_too_many_nodes", "torus.dims: more than 65536 nodes.*got 1000000 nodes"},
        RejectionCase{"dimension_order_repeated", "torus.dimension_order: names a dimension twice"},
        RejectionCase{"tie_rule_unknown", "torus.tie_rule: must be plus, minus or balanced \\(got 'random'\\)"},
        RejectionCase{"routing_unknown",
                      "routing_unknown.yaml:9:12: torus.routing: must be one of dimension_order, direction_order, "
                      "minimal_oblivious, minimal_adaptive \\(got 'adaptive_magic'\\)"},
        RejectionCase{"adaptive_moves_negative",
                      "adaptive_moves_negative.yaml:10:19: torus.adaptive_moves: must be between 0 and 1000 "
                      "\\(got -1\\)"},
        RejectionCase{"failed_link_bad_form",
                      "failed_link_bad_form.yaml:9:25: torus.failed_links\\[1\\]: must be nN \\(a router\\), "
                      "nN.D.*\\(got 'n4.w\\+'\\)"},
        RejectionCase{
            "failed_link_no_router",
            "failed_link_no_router.yaml:9:18: torus.failed_links\\[0\\]: no router n24: the torus has nodes n0..n23"},
        RejectionCase{
            "failed_links_base_dims",
            "failed_links_base_dims.yaml:[0-9]+:[0-9]+: torus.failed_links: inherited from the base, whose torus "
            "has other dims"},
        RejectionCase{"failed_link_flat_ring",
                      "failed_link_flat_ring.yaml:10:7: torus.failed_links\\[0\\]: the ring along x has one position: "
                      "no link there"},
        RejectionCase{"default_profile_unknown", "software.default_profile: names no profile"},
        RejectionCase{
            "io_node_holds_pes",
            "io_node_holds_pes.yaml:18:11: io.nodes\\[0\\]: holds PEs \\(node 0; torus.populated_nodes is 20\\)"},
        RejectionCase{"io_node_twice",
                      "io_node_twice.yaml:18:22: io.nodes\\[1\\]: names an I/O node twice \\(got node 20\\)"},
        RejectionCase{"io_node_not_a_position",
                      "io_node_not_a_position.yaml:18:11: io.nodes\\[0\\]: must be a position \\[x, y, z\\]"},
        RejectionCase{"io_node_off_torus",
                      "io_node_off_torus.yaml:18:23: io.nodes\\[1\\]\\[0\\]: must be between 0 and 1 \\(got 2\\)"},
        RejectionCase{"io_nodes_empty", "io_nodes_empty.yaml:18:10: io.nodes: must list at least one I/O node"},
        RejectionCase{"io_stripes_beyond_disks",
                      "io_stripes_beyond_disks.yaml:24:17: io.stripe_count: stripes over more disks than the machine "
                      "has in service \\(2\\) \\(got 3\\)"},
        RejectionCase{"io_nodes_in_service_beyond_nodes",
                      "io_nodes_in_service_beyond_nodes.yaml:24:21: io.nodes_in_service: puts more I/O nodes in "
                      "service than io.nodes lists \\(2\\) \\(got 3\\)"},
        RejectionCase{"io_disk_bandwidth_missing",
                      "io_disk_bandwidth_missing.yaml:18:3: io.disk_write_bandwidth: required key is missing"},
        RejectionCase{"io_unknown_key", "io_unknown_key.yaml:24:3: io.disk_bandwith: unknown key"},
        RejectionCase{"io_server_threads_zero", "io_server_threads_zero.yaml:24:19: io.server_threads: must be >= 1"},
        RejectionCase{"io_uncertainty_without_io",
                      "io_uncertainty_without_io.yaml:33:3: uncertainty.io: the machine has no io section"},
        RejectionCase{"uncertainty_section_unknown",
                      ":32:3: uncertainty.netwrok: must be node, network, io or profiles; did you mean 'network'\\?"},
        RejectionCase{"uncertainty_key_unknown",
                      ":33:5: uncertainty.network.router_dealy: names no parameter; did you mean 'router_delay'\\?"},
        RejectionCase{
            "uncertainty_range_malformed",
            ":33:27: uncertainty.network.router_delay.range: must be LOW..HIGH in s\\|ms.*\\(got '5ns-20ns'\\)"},
        RejectionCase{"uncertainty_range_reversed",
                      ":33:27: uncertainty.network.router_delay.range: LOW is above HIGH \\(got '20ns..5ns'\\)"},
        RejectionCase{
            "uncertainty_choices_unknown",
            ":33:42: uncertainty.network.arbitration.choices: must name round_robin or age \\(got 'oldest'\\)"},
        RejectionCase{"uncertainty_choices_one",
                      ":33:28: uncertainty.network.arbitration.choices: must list at least two of round_robin or age "
                      "\\(got 1 value\\)"},
        RejectionCase{"uncertainty_choices_twice",
                      ":33:47: uncertainty.network.arbitration.choices: names a value twice \\(got 'age'\\)"},
        RejectionCase{"uncertainty_choices_miss_value",
                      ":33:25: uncertainty.network.dateline.choices: must contain the parameter's value fixed"},
        RejectionCase{"uncertainty_choices_as_range",
                      ":33:19: uncertainty.network.arbitration.range: a named parameter takes choices: "
                      "\\[round_robin, age\\], not a range"},
        RejectionCase{"uncertainty_range_as_choices",
                      ":33:20: uncertainty.network.router_delay.choices: only a named parameter takes choices; a "
                      "number takes a range: LOW..HIGH"},
        RejectionCase{"uncertainty_choices_inconsistent",
                      ":33:35: uncertainty.network.switch_hold.choices: cannot be taken here: network.switch_hold: "
                      "packet needs network.switching: cut_through \\(a held wormhole packet can stall mid-way\\) "
                      "\\(got 'packet'\\)"},
        RejectionCase{"uncertainty_range_misses_value",
                      ":33:27: uncertainty.network.router_delay.range: must contain the parameter's value 0.01us"},
        RejectionCase{"uncertainty_why_missing",
                      ":33:19: uncertainty.network.router_delay.why: required key is missing"},
        RejectionCase{"uncertainty_why_empty", ":33:38: uncertainty.network.router_delay.why: must say why"},
        RejectionCase{"uncertainty_profile_unknown", ":33:5: uncertainty.profiles.fast: names no profile"},
        RejectionCase{"uncertainty_on_fitted_value",
                      ":35:7: uncertainty.profiles.base.put_bandwidth: is calibrated: its range comes from the fit"},
        RejectionCase{
            "packet_driver_unknown_key",
            "packet_driver_unknown_key.yaml:27:9: software.profiles.base.packet_driver.call_overhed: names no "
            "calibrated parameter of a profile .*; did you mean 'call_overhead'\\?"},
        RejectionCase{"packet_driver_not_calibrated",
                      "packet_driver_not_calibrated.yaml:27:9: software.profiles.base.packet_driver.barrier_latency: "
                      "names no calibrated parameter"},
        RejectionCase{"packet_driver_value_negative",
                      "packet_driver_value_negative.yaml:27:24: software.profiles.base.packet_driver.call_overhead: "
                      "must be .*\\(got '-1us'\\)"},
        RejectionCase{"packet_driver_fit_missing",
                      "packet_driver_fit_missing.yaml:[0-9]+:[0-9]+: software.profiles.base.packet_driver.fit: is "
                      "missing: the packet driver's values come from `t3sim calibrate --driver packet`"},
        RejectionCase{
            "packet_driver_no_value",
            "packet_driver_no_value.yaml:[0-9]+:[0-9]+: software.profiles.base.packet_driver: gives no value"},
        RejectionCase{"packet_driver_range_of_other_key",
                      "packet_driver_range_of_other_key.yaml:[0-9]+:[0-9]+: "
                      "software.profiles.base.packet_driver.fit.range.message_overhead: is the range of a value this "
                      "packet_driver does not give"},
        RejectionCase{"fit_range_not_calibrated",
                      ":26:99: software.profiles.base.fit.range.barrier_latency: names no calibrated parameter"},
        RejectionCase{"provenance_missing", "provenance: no source given for 'network.link_bandwidth'"},
        RejectionCase{"provenance_unknown_key",
                      "provenance.nodes.clock: names no key given in this file; did you mean 'node.clock'"},
        RejectionCase{"populated_beyond_torus",
                      "populated_beyond_torus.yaml:9:20: torus.populated_nodes: must be between 1 and 24 \\(got 25\\)"},
        RejectionCase{"base_is_itself", "base_is_itself.yaml:[0-9]+:[0-9]+: base: bases nest deeper than 4"},
        RejectionCase{"base_missing", "nowhere.yaml: no such file"},
        RejectionCase{"scale_with_clock_unknown",
                      "software.scale_with_clock: names no time parameter of a profile \\(got 'copy_bandwidth'\\)"},
        RejectionCase{"derived_value_without_provenance", "provenance: no source given for 'network.link_bandwidth'"},
        RejectionCase{"scale_with_clock_without_base", "software.scale_with_clock: needs a base machine"},
        RejectionCase{"pes_per_node_not_whole", "node.pes_per_node: expected a whole number"},
        RejectionCase{"mpi_queue_bytes_negative",
                      ":26:24: software.profiles.base.mpi_queue_bytes: must be >= 0B \\(got '-8B'\\)"},
        RejectionCase{"eregisters_without_round_trip",
                      "eregisters_without_round_trip.yaml:11:15: node.eregisters: needs node.remote_round_trip > 0 "
                      "\\(how long a get holds its registers\\) \\(got 512\\)"},
        RejectionCase{
            "memory_bandwidth_negative",
            "memory_bandwidth_negative.yaml:11:21: node.memory_bandwidth: must be >= 0MB/s \\(got .-5MB/s.\\)"},
        RejectionCase{"mpi_queue_bytes_beyond_hardware_message",
                      ":26:24: software.profiles.base.mpi_queue_bytes: must be <= 56B \\(got '57B'\\)"}),
    t3sim::test::rule_name);

TEST(MachineLoader, DirectoryIsRejected) {
  t3sim::test::expect_rejected([] { load_machine(T3SIM_TEST_DATA); }, {"directory", "is a directory, not a file"});
}

TEST(MachineLoader, DerivedMachineInheritsAndScales) {
  const auto base = load_machine(data("valid.yaml"));
  const auto m = load_machine(data("derived_valid.yaml"));
  EXPECT_EQ(m.name, "derived");
  EXPECT_DOUBLE_EQ(m.node.clock_hz, 200e6);
  EXPECT_DOUBLE_EQ(m.network.link_bandwidth, 150e6);
  EXPECT_DOUBLE_EQ(m.network.router_delay, base.network.router_delay);
  const auto* p = m.find_profile("base");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->call_overhead, base.find_profile("base")->call_overhead / 2);  // 100 -> 200 MHz
  EXPECT_DOUBLE_EQ(p->local_overhead, base.find_profile("base")->local_overhead);    // not scaled
  EXPECT_DOUBLE_EQ(p->get_bandwidth, base.find_profile("base")->get_bandwidth);
  EXPECT_EQ(m.pe_count(), base.pe_count());
  EXPECT_EQ(m.provenance.at("node.clock"), "test value");
  EXPECT_EQ(m.provenance.at("network"), "test values");  // the base's sources stay with its values
}

TEST(MachineLoader, ReadsAProfilesValuesUnderThePacketDriver) {
  auto m = load_machine(data("packet_driver_valid.yaml"));
  const auto& own = m.packet_driver.at("base");
  EXPECT_DOUBLE_EQ(own.values.at("call_overhead"), 0.8e-6);
  EXPECT_DOUBLE_EQ(own.values.at("message_overhead"), 2.5e-6);
  EXPECT_EQ(own.fit.points, 4);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->call_overhead, 1e-6);  // runs under flows keep the profile's own
  const std::string path = "software.profiles.base.call_overhead";
  ASSERT_TRUE(m.uncertainty.count(path));  // the flow fit's range
  t3sim::core::use_packet_driver_values(m);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->call_overhead, 0.8e-6);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->message_overhead, 2.5e-6);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->put_bandwidth, 80e6);  // not re-fitted: the flow fit's
  EXPECT_FALSE(m.uncertainty.count(path));                        // the flow fit's spread is of another value
  EXPECT_EQ(m.set_by.at(path), "the packet driver's fit (packet_driver)");
}

TEST(MachineLoader, ADerivedMachineKeepsItsBasesValuesUnderThePacketDriver) {
  auto m = load_machine(data("packet_driver_derived.yaml"));
  const auto& own = m.packet_driver.at("base").values;
  EXPECT_DOUBLE_EQ(own.at("call_overhead"), 0.4e-6);  // 0.8 us scaled from 100 to 200 MHz
  EXPECT_FALSE(own.count("message_overhead"));        // this file gives its own
  t3sim::core::use_packet_driver_values(m);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->call_overhead, 0.4e-6);
  EXPECT_DOUBLE_EQ(m.find_profile("base")->message_overhead, 2e-6);
}

TEST(MachineLoader, T3eWhatIfMachinesDifferOnlyByClock) {
  const std::string dir = std::string(T3SIM_SOURCE_DIR) + "/platforms/";
  const auto m900 = load_machine(dir + "t3e-900-mcurie.yaml");
  const auto m600 = load_machine(dir + "t3e-600.yaml");
  EXPECT_DOUBLE_EQ(m600.node.clock_hz, 300e6);
  EXPECT_DOUBLE_EQ(m600.network.link_bandwidth, m900.network.link_bandwidth);
  EXPECT_DOUBLE_EQ(m600.find_profile("")->message_overhead, m900.find_profile("")->message_overhead * 1.5);
  EXPECT_DOUBLE_EQ(m600.find_profile("")->put_bandwidth, m900.find_profile("")->put_bandwidth);
}
