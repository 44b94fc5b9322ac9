// What the packet network records of its virtual channels (run --vc-report; core/packet/vc_recorder.hpp):
// a lone packet's holding times against the closed form, a merge's waits by input port, packets
// conserved between the injection and the ejection, and the window.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/core/packet/packet_network.hpp"
#include "tests/unit/booksim_like_config.hpp"

namespace t3sim::core {
namespace {

PacketConfig ring_config(int k, int packet_flits) { return booksim_like({k, 1, 1}, packet_flits); }

void run_to_end(PacketNetwork& net) {
  for (uint64_t next = net.next_busy_cycle(); next != UINT64_MAX; next = net.next_busy_cycle()) {
    net.skip_to(next);
    net.step();
  }
}

const VcActivity* find(const std::vector<VcActivity>& all, int node, int port, bool injection = false) {
  for (const VcActivity& a : all)
    if (a.node == node && a.port == port && a.injection == injection) return &a;
  return nullptr;
}

TEST(VcRecorder, ALonePacketHoldsEachVcForThePipelineTheWiresItsFlitsAndTheCreditsWayBack) {
  // One packet of F flits from node 0 to node 3 on a ring of 8 (3 hops +x): at each router it is
  // granted its next VC the cycle after its head arrives (no wait), and what it was granted one router
  // before is free again when its tail leaves this router and the tail's credit is back: P + W cycles
  // from grant to grant, then the F flits and the credit's 1 + W cycles, plus the switch cycle.
  for (int flits : {1, 4}) {
    const PacketConfig c = ring_config(8, flits);
    PacketNetwork net(c);
    net.record_vcs(0, UINT64_MAX);
    net.add_message(0, 3, 16.0 * flits, -1);
    run_to_end(net);
    const std::vector<VcActivity> all = net.vc_activities();
    const double expected = c.pipeline_cycles + 2.0 * c.wire_cycles + flits + 1;
    for (int node = 0; node < 3; ++node) {
      const VcActivity* a = find(all, node, 0);  // x+
      ASSERT_NE(a, nullptr) << "node " << node;
      EXPECT_EQ(a->packets, 1u);
      EXPECT_EQ(a->wait_sum, 0);
      ASSERT_EQ(a->held, 1u);
      EXPECT_EQ(a->hold_sum, expected) << "node " << node << ", " << flits << " flits";
      EXPECT_EQ(a->packets_from[node == 0 ? 6 : 0], 1u);  // from the node, then over the x+ link before
    }
    const VcActivity* eject = find(all, 3, 6);
    ASSERT_NE(eject, nullptr);
    EXPECT_EQ(eject->packets, 1u);
    EXPECT_EQ(eject->held, 1u);
    const VcActivity* injected = find(all, 0, 6, true);
    ASSERT_NE(injected, nullptr);
    EXPECT_EQ(injected->packets, 1u);
    EXPECT_EQ(injected->held, 1u);
    EXPECT_EQ(all.size(), 5u);  // three links, the ejection, the injection: nothing else was touched
  }
}

TEST(VcRecorder, AMergeMakesBothPortsWaitAndConservesPackets) {
  // Nodes 0 and 1 each send 200 packets to node 3: at router 1 the x+ link takes the through traffic
  // (input port 0: it came over an x+ link) and node 1's own (port 6) in turn, so both wait; every packet is granted
  // the ejection once, and is made on an injection VC once.
  const PacketConfig c = ring_config(8, 4);
  PacketNetwork net(c);
  net.record_vcs(0, UINT64_MAX);
  net.add_message(0, 3, 16.0 * 4 * 200, -1);
  net.add_message(1, 3, 16.0 * 4 * 200, -1);
  run_to_end(net);
  const std::vector<VcActivity> all = net.vc_activities();
  uint64_t merged = 0, through = 0, own = 0;
  double through_wait = 0, own_wait = 0;
  for (const VcActivity& a : all)
    if (a.node == 1 && a.port == 0 && !a.injection) {
      merged += a.packets;
      through += a.packets_from[0], own += a.packets_from[6];
      through_wait += a.wait_from[0], own_wait += a.wait_from[6];
      EXPECT_EQ(a.packets, a.held);
    }
  EXPECT_EQ(merged, 400u);
  EXPECT_EQ(through, 200u);
  EXPECT_EQ(own, 200u);
  EXPECT_GT(through_wait, 0);
  EXPECT_GT(own_wait, 0);
  uint64_t ejected = 0, made = 0;
  for (const VcActivity& a : all) {
    if (a.node == 3 && a.port == 6 && !a.injection) ejected += a.packets;
    if (a.injection) made += a.packets;
  }
  EXPECT_EQ(ejected, 400u);
  EXPECT_EQ(made, 400u);
}

TEST(VcRecorder, OnlyGrantsInsideTheWindowCount) {
  const PacketConfig c = ring_config(8, 4);
  uint64_t whole = 0, first = 0, second = 0;
  for (const auto& [from, to, total] : {std::tuple<uint64_t, uint64_t, uint64_t*>{0, UINT64_MAX, &whole},
                                        {0, 300, &first},
                                        {300, UINT64_MAX, &second}}) {
    PacketNetwork net(c);
    net.record_vcs(from, to);
    net.add_message(0, 3, 16.0 * 4 * 100, -1);
    run_to_end(net);
    for (const VcActivity& a : net.vc_activities()) *total += a.packets;
  }
  EXPECT_GT(first, 0u);
  EXPECT_GT(second, 0u);
  EXPECT_EQ(first + second, whole);
  PacketNetwork late(c);
  late.record_vcs(1000000, UINT64_MAX);
  late.add_message(0, 3, 64, -1);
  run_to_end(late);
  EXPECT_TRUE(late.vc_activities().empty());
}

}  // namespace
}  // namespace t3sim::core
