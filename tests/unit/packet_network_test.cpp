// The packet network (sim/core/packet) against its closed forms: zero-load latency (hops, pipeline,
// wires, terminals, serialisation), a lone message's rate (one flit per cycle, headers included),
// conservation of packets and flits, and no deadlock on permutations and all-to-all over rings of 2
// to 17 under both datelines and both switchings, with buffers smaller than a packet.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/core/packet/packet_network.hpp"
#include "sim/core/support/model_error.hpp"
#include "tests/unit/booksim_like_config.hpp"

namespace t3sim::core {
namespace {

// Runs until every message is delivered; returns the cycle each was delivered at, by id.
std::vector<uint64_t> run_all(PacketNetwork& net, size_t messages) {
  std::vector<uint64_t> at(messages, 0);
  size_t left = messages;
  while (left > 0) {
    const uint64_t next = net.next_busy_cycle();
    EXPECT_NE(next, UINT64_MAX) << "work left but none due";
    if (next == UINT64_MAX) break;
    net.skip_to(next);
    const uint64_t cycle = net.now();
    net.step();
    for (int m : net.delivered()) {
      at[static_cast<size_t>(m)] = cycle;
      --left;
    }
  }
  return at;
}

int ring_distance(int a, int b, int k) {
  const int d = ((b - a) % k + k) % k;
  return std::min(d, k - d);
}

int hops(const PacketConfig& c, int a, int b) {
  int h = 0;
  int stride = 1;
  for (int d = 0; d < 3; ++d) {
    h += ring_distance((a / stride) % c.dims[d], (b / stride) % c.dims[d], c.dims[d]);
    stride *= c.dims[d];
  }
  return h;
}

TEST(PacketNetwork, ZeroLoadLatencyIsHopsTimesPipelineAndWiresPlusTerminals) {
  for (const Coord dims : {Coord{4, 4, 4}, Coord{8, 8, 8}, Coord{2, 16, 17}})
    for (int flits : {1, 4, 10}) {
      PacketConfig c = booksim_like(dims, flits);
      c.vc_buffer_flits = 16;
      for (int dst : {0, 1, 2, 5, 37, c.nodes() - 1}) {
        PacketNetwork net(c);
        net.skip_to(100);
        const int id = net.add_message(0, dst, 16.0 * flits, -1);
        const std::vector<uint64_t> at = run_all(net, 1);
        const int h = hops(c, 0, dst);
        const uint64_t expected = 100 + 1 + 2 * c.terminal_cycles + static_cast<uint64_t>((h + 1) * c.pipeline_cycles) +
                                  static_cast<uint64_t>(h * c.wire_cycles) + static_cast<uint64_t>(flits - 1);
        EXPECT_EQ(at[static_cast<size_t>(id)], expected)
            << "dims " << dims[0] << "x" << dims[1] << "x" << dims[2] << " to " << dst << " (" << h << " hops), "
            << flits << " flits";
        EXPECT_EQ(net.stats().flit_hops, static_cast<uint64_t>(h * flits));
      }
    }
}

TEST(PacketNetwork, BookSimZeroLoadLatencyOfThreeHopsIsTwentyFiveCycles) {
  // The CSV's 4x4x4 neighbor (+1 in each dimension, 3 hops): 25.0 cycles at zero load, 28.0 with 4 flits.
  for (int flits : {1, 4}) {
    PacketNetwork net(booksim_like({4, 4, 4}, flits));
    net.add_message(0, 1 + 4 + 16, 16.0 * flits, -1);
    EXPECT_EQ(run_all(net, 1)[0], flits == 1 ? 25u : 28u);
  }
}

TEST(PacketNetwork, LoneMessageMovesOneFlitPerCycleHeadersIncluded) {
  PacketConfig c = booksim_like({8, 8, 8}, 10);
  c.header_flits = 2;
  c.flit_bytes = 8;
  PacketNetwork net(c);
  const double bytes = 64.0 * 1000;  // 1000 packets of 64 payload bytes, 10 flits each
  net.add_message(0, 3 + 8 * 2, bytes, -1);
  const uint64_t at = run_all(net, 1)[0];
  const int h = 3 + 2;
  const uint64_t first_tail = static_cast<uint64_t>(1 + 2 + (h + 1) * 4 + h * 2 + 9);
  // Every later packet one flit per cycle behind; packets on different virtual channels share the links
  // flit by flit, which may leave the last tail a cycle or two later, never more.
  EXPECT_GE(at, first_tail + 999 * 10);
  EXPECT_LE(at, first_tail + 999 * 10 + 2);
}

TEST(PacketNetwork, PacingHoldsAMessageToItsRate) {
  PacketConfig c = booksim_like({4, 4, 4}, 4);
  PacketNetwork net(c);
  const int pacer = net.add_pacer(16.0);  // 16 bytes per cycle: a 64-byte packet every 4 cycles
  net.add_message(0, 1, 64.0 * 100, pacer);
  const uint64_t at = run_all(net, 1)[0];
  const uint64_t alone = 1 + 2 + 2 * 4 + 2 + 3;
  // A packet leaves once its PE has issued its payload: the first 4 cycles after the message is given
  // (which covers the cycle a message takes to enter the source queue, alone's first 1), the last
  // 100 x 4 (as a flow's last byte leaves bytes / rate after it starts).
  const uint64_t issued = 100 * 4;
  EXPECT_GE(at, alone - 1 + issued);  // as above: a cycle or two of interleaving at most
  EXPECT_LE(at, alone - 1 + issued + 2);
}

TEST(PacketNetwork, PacingKeepsAFractionalRate) {
  // 64-byte packets at 4.4 bytes a cycle: one every 14.545 cycles. Rounding each packet's gap up to
  // whole cycles (15) would lose 3% of the rate; the PE's issue times keep the fraction.
  PacketConfig c = booksim_like({4, 4, 4}, 4);
  PacketNetwork net(c);
  const int pacer = net.add_pacer(4.4);
  net.add_message(0, 1, 64.0 * 200, pacer);
  const uint64_t at = run_all(net, 1)[0];
  const uint64_t alone = 1 + 2 + 2 * 4 + 2 + 3;
  // 2909.1 cycles from the message to its last packet's payload issued (the first queue cycle covered)
  const double gaps = 200 * 64.0 / 4.4;
  EXPECT_GE(static_cast<double>(at), static_cast<double>(alone - 1) + gaps);
  EXPECT_LE(static_cast<double>(at), static_cast<double>(alone - 1) + gaps + 2);
}

// Skipping to next_busy_cycle() must give the cycles of stepping through every cycle: a paced source's
// wait, kept from when it last looked, may only be early (a cycle stepped with nothing to do), never
// late. Messages given at several instants, on pacers shared by several sources (get data is paced by
// its initiator, wherever it comes from), some too slow to keep the network busy between packets.
TEST(PacketNetwork, SkippingIdleCyclesGivesTheCyclesOfSteppingEveryOne) {
  const PacketConfig c = booksim_like({4, 4, 4}, 4);
  auto run = [&](bool skip, uint64_t& steps) {
    PacketNetwork net(c);
    const int slow = net.add_pacer(0.2), shared = net.add_pacer(0.45);
    std::vector<uint64_t> at;
    steps = 0;
    auto step_at = [&](uint64_t next) {
      net.skip_to(next);
      const uint64_t cycle = net.now();
      net.step();
      ++steps;
      for (int m : net.delivered()) at.push_back(cycle * 1000 + static_cast<uint64_t>(m));
    };
    for (uint64_t given = 0; given < 4000; given += 397) {
      net.skip_to(std::max(net.now(), given));
      for (int src = 0; src < 6; ++src)
        net.add_message(src, 63 - src * 5, 64.0 * (1 + (given + src) % 7) + 3, src % 3 == 0 ? slow : shared);
      const uint64_t until = given + 397;
      while (net.now() < until) {
        const uint64_t next = skip ? net.next_busy_cycle() : net.now();
        if (next >= until) break;
        step_at(next);
      }
    }
    while (net.next_busy_cycle() != UINT64_MAX) step_at(skip ? net.next_busy_cycle() : net.now());
    return at;
  };
  uint64_t skipping = 0, every = 0;
  const std::vector<uint64_t> skipped = run(true, skipping);
  EXPECT_EQ(skipped.size(), 11u * 6u);
  EXPECT_EQ(skipped, run(false, every));
  EXPECT_LT(skipping, every / 2);  // the paced gaps were skipped, not stepped through
}

void expect_everything_delivered(const PacketConfig& c, const std::vector<std::pair<int, int>>& pairs, double bytes) {
  PacketNetwork net(c, 7);
  int n = 0;
  for (const auto& [a, b] : pairs) net.add_message(a, b, bytes, -1, c.virtual_networks == 2 ? n++ % 2 : 0);
  const std::vector<uint64_t> at = run_all(net, pairs.size());
  const PacketNetwork::Stats& s = net.stats();
  EXPECT_EQ(s.packets_made, s.packets_delivered);
  EXPECT_EQ(s.flits_injected, s.flits_ejected);
  EXPECT_EQ(s.packets_made, static_cast<uint64_t>(pairs.size()) * static_cast<uint64_t>(c.packets_for(bytes)));
  EXPECT_EQ(net.next_busy_cycle(), UINT64_MAX);
}

TEST(PacketNetwork, CrayRoutesKeepTheZeroLoadClosedForm) {
  for (HopOrder order : {HopOrder::Dimension, HopOrder::Direction})
    for (bool adaptive : {false, true}) {
      const PacketConfig c = t3e_like({2, 16, 17}, order, adaptive);
      for (int dst : {1, 2, 37, 300, c.nodes() - 1}) {
        PacketNetwork net(c);
        net.add_message(0, dst, 64, -1, 1);
        const int h = hops(c, 0, dst);
        EXPECT_EQ(run_all(net, 1)[0], static_cast<uint64_t>(1 + 2 + (h + 1) * 3 + h * 1 + 9)) << dst;
        EXPECT_EQ(net.stats().flit_hops, static_cast<uint64_t>(h * 10));  // minimal: hops x flits
      }
    }
}

// Requests and replies queue apart at the node (virtual_networks 2): every node of an 8-ring sends
// requests into node 7, so node 5's requests wait for the congested x+ link and fill the VCs of its
// router's terminal input; a reply node 5 then sends one hop the other way, on an idle link, enters on
// a VC of its own network and arrives in its zero-load time, at most one request packet later (the
// node's channel takes a packet of each network in turn). A shared queue would hold it until one of
// the requests' VCs drained.
TEST(PacketNetwork, AReplyDoesNotWaitBehindItsNodesBlockedRequests) {
  const PacketConfig c = t3e_like({8, 1, 1}, HopOrder::Dimension, false);
  PacketNetwork net(c);
  for (int node = 0; node < 7; ++node) net.add_message(node, 7, 64.0 * 200, -1, 0);
  while (net.now() < 400) {
    net.skip_to(net.next_busy_cycle());
    net.step();
    ASSERT_TRUE(net.delivered().empty());
  }
  const uint64_t given = net.now();
  const int reply = net.add_message(5, 4, 8, -1, 1);
  uint64_t arrived = 0;
  while (arrived == 0) {
    ASSERT_NE(net.next_busy_cycle(), UINT64_MAX);
    net.skip_to(net.next_busy_cycle());
    const uint64_t cycle = net.now();
    net.step();
    for (int m : net.delivered())
      if (m == reply) arrived = cycle;
  }
  const uint64_t zero_load = 1 + 2 + 2 * 3 + 1 + 2;  // one hop, a packet of 3 flits (2 of header)
  EXPECT_GE(arrived - given, zero_load);
  EXPECT_LE(arrived - given, zero_load + static_cast<uint64_t>(c.packet_flits));
}

// Bit complement on 8x8x8: every node to its mirror image, 9 hops through the middle. The adaptive
// VC can only add room; the escape VCs are the same, so adaptive routing is never slower.
TEST(PacketNetwork, AdaptiveIsNeverSlowerThanItsEscapeOnlyTwinOnBitComplement) {
  for (HopOrder order : {HopOrder::Dimension, HopOrder::Direction}) {
    uint64_t end[2] = {0, 0};
    for (int adaptive = 0; adaptive < 2; ++adaptive) {
      const PacketConfig c = t3e_like({8, 8, 8}, order, adaptive == 1);
      PacketNetwork net(c, 5);
      std::vector<std::pair<int, int>> pairs;
      for (int round = 0; round < 8; ++round)
        for (int i = 0; i < c.nodes(); ++i) net.add_message(i, c.nodes() - 1 - i, 64.0 * 4, -1);
      const std::vector<uint64_t> at = run_all(net, static_cast<size_t>(8 * c.nodes()));
      end[adaptive] = *std::max_element(at.begin(), at.end());
    }
    EXPECT_LE(end[1], end[0]) << (order == HopOrder::Direction ? "direction order" : "dimension order");
  }
}

TEST(PacketNetwork, NoDeadlockOnPermutationsAndAllToAllOverRingsOfTwoToSeventeen) {
  std::mt19937_64 rng(3);
  for (const Coord dims : {Coord{2, 2, 2}, Coord{3, 5, 2}, Coord{17, 1, 1}, Coord{2, 16, 17}, Coord{5, 5, 5}})
    for (Dateline dateline : {Dateline::Fixed, Dateline::Balanced})
      for (Switching switching : {Switching::Wormhole, Switching::CutThrough}) {
        PacketConfig c = booksim_like(dims, 4);
        c.dateline = dateline;
        c.switching = switching;
        c.tie_rule = TieRule::Balanced;
        c.vc_buffer_flits = switching == Switching::Wormhole ? 2 : 4;  // wormhole: a packet spans routers
        const int n = c.nodes();
        std::vector<int> perm(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
        std::shuffle(perm.begin(), perm.end(), rng);
        std::vector<std::pair<int, int>> pairs;
        for (int round = 0; round < 10; ++round)
          for (int i = 0; i < n; ++i) pairs.emplace_back(i, perm[static_cast<size_t>(i)]);
        SCOPED_TRACE(std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]));
        expect_everything_delivered(c, pairs, 64.0 * 3);
        // The T3E's rules: either order, with and without the adaptive VC, requests and replies.
        for (HopOrder order : {HopOrder::Dimension, HopOrder::Direction})
          for (bool adaptive : {false, true}) {
            PacketConfig t = t3e_like(dims, order, adaptive);
            t.switching = switching;
            t.vc_buffer_flits = switching == Switching::Wormhole ? 4 : 10;
            // Half the cases with each of the T3E's rules (drawn halves, the routes' balanced ones).
            t.dateline = (order == HopOrder::Direction) == adaptive ? Dateline::Cray : Dateline::CrayBalanced;
            SCOPED_TRACE(std::string(order == HopOrder::Direction ? "direction" : "dimension") +
                         (adaptive ? " adaptive" : "") + (t.dateline == Dateline::Cray ? " cray" : " cray_balanced"));
            expect_everything_delivered(t, pairs, 64.0 * 3);
            if (n <= 30) {
              std::vector<std::pair<int, int>> all;
              for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b)
                  if (a != b) all.emplace_back(a, b);
              expect_everything_delivered(t, all, 64.0 * 2);
            }
          }
        if (n <= 125) {
          std::vector<std::pair<int, int>> all;
          for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
              if (a != b) all.emplace_back(a, b);
          expect_everything_delivered(c, all, 64.0 * 2);
        }
      }
}

// The index of waiting VCs only saves looking at them: with it and without it (every waiting VC's
// record read each time), every message arrives at the same cycle and the network moves the same flits.
TEST(PacketNetwork, IndexOfWaitingVirtualChannelsKeepsEveryCycle) {
  std::mt19937_64 rng(11);
  for (const Coord dims : {Coord{5, 5, 5}, Coord{2, 6, 7}})
    for (Switching switching : {Switching::Wormhole, Switching::CutThrough})
      for (bool adaptive : {false, true})
        for (bool booksim : {false, true}) {
          if (booksim && adaptive) continue;
          PacketConfig c = booksim ? booksim_like(dims, 4) : t3e_like(dims, HopOrder::Direction, adaptive);
          c.switching = switching;
          if (booksim) c.tie_rule = TieRule::Balanced;
          c.vc_buffer_flits = switching == Switching::Wormhole ? 4 : 10;
          SCOPED_TRACE(std::to_string(dims[2]) + (adaptive ? " adaptive" : "") + (booksim ? " booksim" : " t3e") +
                       (switching == Switching::Wormhole ? " wormhole" : " cut-through"));
          const int n = c.nodes();
          std::vector<int> perm(static_cast<size_t>(n));
          for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
          std::shuffle(perm.begin(), perm.end(), rng);
          std::vector<std::pair<int, int>> pairs;
          for (int a = 0; a < n; ++a) {
            pairs.emplace_back(a, perm[static_cast<size_t>(a)]);
            for (int b = a % 4; b < n; b += 4)
              if (a != b) pairs.emplace_back(a, b);
          }
          std::vector<uint64_t> at[2];
          PacketNetwork::Stats stats[2];
          for (int indexed = 0; indexed < 2; ++indexed) {
            PacketNetwork net(c, 5, indexed == 1);
            int id = 0;
            for (const auto& [a, b] : pairs)
              net.add_message(a, b, 64.0 * 3, -1, c.virtual_networks == 2 ? id++ % 2 : 0);
            at[indexed] = run_all(net, pairs.size());
            stats[indexed] = net.stats();
          }
          EXPECT_EQ(at[0], at[1]);
          EXPECT_EQ(stats[0].flit_hops, stats[1].flit_hops);
          EXPECT_EQ(stats[0].latency_cycles_sum, stats[1].latency_cycles_sum);
        }
}

// VC allocation keeps an index of the waiting VCs for a router of at most 64 (every shipped machine);
// a wider router scans them all instead. That path too must deliver everything, with and without the
// adaptive VC, under both switchings.
TEST(PacketNetwork, RoutersOfMoreThanSixtyFourVirtualChannelsDeliverEverything) {
  for (const Coord dims : {Coord{5, 5, 5}, Coord{2, 6, 7}})
    for (Switching switching : {Switching::Wormhole, Switching::CutThrough})
      for (bool adaptive : {false, true}) {
        PacketConfig t = t3e_like(dims, HopOrder::Direction, adaptive);
        t.switching = switching;
        t.vcs = adaptive ? 13 : 12;  // 7 ports x 12: 84 VCs a router
        t.vc_buffer_flits = switching == Switching::Wormhole ? 4 : 10;
        SCOPED_TRACE(std::to_string(dims[2]) + (adaptive ? " adaptive" : "") +
                     (switching == Switching::Wormhole ? " wormhole" : " cut-through"));
        const int n = t.nodes();
        std::vector<std::pair<int, int>> all;
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; b += 3)
            if (a != b) all.emplace_back(a, b);
        expect_everything_delivered(t, all, 64.0 * 4);
      }
}

}  // namespace
}  // namespace t3sim::core

namespace t3sim::core {
namespace {

// Without a dateline a ring's channels wait on each other in a circle: the run stops with an error
// naming that cycle of virtual channels instead of hanging.
TEST(PacketNetwork, ADeadlockIsAnErrorNamingTheCycleOfVirtualChannels) {
  PacketConfig c = booksim_like({8, 1, 1}, 4);
  c.dateline = Dateline::None;
  c.vcs = 2;
  c.vc_buffer_flits = 2;
  c.tie_rule = TieRule::Plus;
  PacketNetwork net(c);
  for (int round = 0; round < 50; ++round)
    for (int i = 0; i < 8; ++i) net.add_message(i, (i + 3) % 8, 64.0 * 4, -1);
  try {
    run_all(net, 400);
    FAIL() << "no deadlock";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("the packet network is deadlocked"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("virtual channels waiting on each other: n"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace t3sim::core
