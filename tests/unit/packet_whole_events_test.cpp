// Held switches (network.switch_hold: packet) under cut-through: the packet network moves each packet
// as one event per hop. Checked against the same router run flit by flit (whole_packet_events off):
// where every packet fills its channel's buffer, the two give the same cycle for every message, the
// same flit hops and the same flits ejected in every sample period; elsewhere packets and flits are
// conserved and nothing deadlocks; and the zero-load closed form holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/packet/packet_network.hpp"

namespace t3sim::core {
namespace {

using Pairs = std::vector<std::pair<int, int>>;

PacketConfig held(Coord dims, Dateline dateline, bool adaptive, bool whole) {
  PacketConfig c;
  c.dims = dims;
  c.cycle_s = 1e-9;
  c.flit_bytes = 8;
  c.packet_flits = 10;
  c.header_flits = 2;
  c.dateline = dateline;
  c.order = dateline == Dateline::Cray ? HopOrder::Direction : HopOrder::Dimension;
  c.adaptive = adaptive;
  c.virtual_networks = dateline == Dateline::Cray ? 2 : 1;
  c.vcs = 4 + (adaptive ? 1 : 0);
  c.vc_buffer_flits = 10;
  c.switching = Switching::CutThrough;
  c.hold_switch = true;
  c.whole_packet_events = whole;
  c.pipeline_cycles = 3;
  c.wire_cycles = 1;
  c.terminal_cycles = 1;
  // The cray rules draw at injection only; BookSim's fixed dateline with the plus tie draws nothing
  // (a draw while routing would follow the order routers are visited in, which the two runs need not share).
  c.tie_rule = dateline == Dateline::Cray ? TieRule::Balanced : TieRule::Plus;
  return c;
}

struct Outcome {
  std::vector<uint64_t> delivered_at;  // by message id
  PacketNetwork::Stats stats;
  std::vector<uint64_t> ejected;  // node x period
};

Outcome run(const PacketConfig& c, const Pairs& pairs, double bytes) {
  PacketNetwork net(c, 11);
  int n = 0;
  for (const auto& [a, b] : pairs) net.add_message(a, b, bytes, -1, c.virtual_networks == 2 ? n++ % 2 : 0);
  Outcome out;
  out.delivered_at.assign(pairs.size(), 0);
  size_t left = pairs.size();
  while (left > 0) {
    const uint64_t next = net.next_busy_cycle();
    EXPECT_NE(next, UINT64_MAX) << "work left but none due";
    if (next == UINT64_MAX) {
      try {
        net.check_stalled();
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
      }
      break;
    }
    net.skip_to(next);
    const uint64_t cycle = net.now();
    net.step();
    for (int m : net.delivered()) {
      out.delivered_at[static_cast<size_t>(m)] = cycle;
      --left;
    }
  }
  EXPECT_EQ(net.next_busy_cycle(), UINT64_MAX);
  EXPECT_EQ(net.buffered_flits(), 0);
  out.stats = net.stats();
  for (int node = 0; node < c.nodes(); ++node)
    for (size_t p = 0; p <= net.periods(); ++p) out.ejected.push_back(net.ejected(node, p));
  return out;
}

Pairs permutation_rounds(int n, int rounds, std::mt19937_64& rng) {
  std::vector<int> perm(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  Pairs pairs;
  for (int round = 0; round < rounds; ++round)
    for (int i = 0; i < n; ++i) pairs.emplace_back(i, perm[static_cast<size_t>(i)]);
  return pairs;
}

Pairs all_to_all(int n) {
  Pairs pairs;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) pairs.emplace_back(a, b);
  return pairs;
}

// Full packets only (bytes a multiple of the 64-byte payload) in buffers of one packet: a free
// channel's room is then either all back or not, so returning a packet's credits with its tail's
// changes nothing, and the whole-packet run must give the flit-by-flit run's cycles exactly.
TEST(PacketWholeEvents, GiveTheFlitByFlitCyclesWhereEveryPacketFillsItsBuffer) {
  std::mt19937_64 rng(5);
  for (const Coord dims : {Coord{4, 4, 4}, Coord{2, 16, 17}, Coord{5, 3, 1}})
    for (const Dateline dateline : {Dateline::Fixed, Dateline::Cray})
      for (const bool adaptive : {false, true}) {
        if (adaptive && dateline != Dateline::Cray) continue;  // the adaptive VC rides on the cray rules
        const int n = dims[0] * dims[1] * dims[2];
        const std::vector<std::pair<Pairs, double>> loads = {
            {permutation_rounds(n, 6, rng), 64.0 * 5},
            {n <= 64 ? all_to_all(n) : permutation_rounds(n, 2, rng), 128.0}};
        for (const auto& [pairs, bytes] : loads) {
          SCOPED_TRACE(std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]) +
                       (dateline == Dateline::Cray ? " cray" : " fixed") + (adaptive ? " adaptive" : "") + ", " +
                       std::to_string(pairs.size()) + " messages");
          const Outcome flits = run(held(dims, dateline, adaptive, false), pairs, bytes);
          const Outcome whole = run(held(dims, dateline, adaptive, true), pairs, bytes);
          EXPECT_EQ(whole.delivered_at, flits.delivered_at);
          EXPECT_EQ(whole.stats.flit_hops, flits.stats.flit_hops);
          EXPECT_EQ(whole.stats.flits_ejected, flits.stats.flits_ejected);
          EXPECT_EQ(whole.stats.packets_delivered, flits.stats.packets_delivered);
          EXPECT_DOUBLE_EQ(whole.stats.latency_cycles_sum, flits.stats.latency_cycles_sum);
          EXPECT_EQ(whole.ejected, flits.ejected);
        }
      }
}

// A held switch changes the router, not the flits' count: a lone packet keeps the closed form
// c + 1 + 2T + (hops + 1) P + hops W, its other flits one a cycle behind the head.
TEST(PacketWholeEvents, KeepTheZeroLoadClosedForm) {
  const PacketConfig c = held({2, 16, 17}, Dateline::Cray, true, true);
  for (const int dst : {1, 2, 37, 300, c.nodes() - 1}) {
    const Outcome o = run(c, {{0, dst}}, 64);
    const int x = std::min(dst % 2, 2 - dst % 2);
    const int y = std::min((dst / 2) % 16, 16 - (dst / 2) % 16);
    const int z = std::min(dst / 32, 17 - dst / 32);
    const int hops = x + y + z;
    EXPECT_EQ(o.delivered_at[0], static_cast<uint64_t>(1 + 2 + (hops + 1) * 3 + hops * 1 + 9)) << dst;
    EXPECT_EQ(o.stats.flit_hops, static_cast<uint64_t>(hops * 10));
  }
}

// Short packets and buffers wider than a packet (where the credits' timing may differ from the
// flit-by-flit run by up to a packet's flits): everything still arrives, over rings of 2 to 17.
TEST(PacketWholeEvents, DeliverEverythingWithShortPacketsAndWideBuffers) {
  std::mt19937_64 rng(9);
  for (const Coord dims : {Coord{2, 2, 2}, Coord{3, 5, 2}, Coord{17, 1, 1}, Coord{2, 16, 17}})
    for (const bool adaptive : {false, true})
      for (const int buffer : {10, 23}) {
        PacketConfig c = held(dims, Dateline::Cray, adaptive, true);
        c.vc_buffer_flits = buffer;
        const int n = c.nodes();
        SCOPED_TRACE(std::to_string(n) + " nodes, buffer " + std::to_string(buffer) + (adaptive ? " adaptive" : ""));
        for (const double bytes : {0.0, 24.0, 64.0 * 3 + 8}) {
          const Pairs pairs = n <= 30 ? all_to_all(n) : permutation_rounds(n, 4, rng);
          const Outcome o = run(c, pairs, bytes);
          EXPECT_EQ(o.stats.packets_made, o.stats.packets_delivered);
          EXPECT_EQ(o.stats.flits_injected, o.stats.flits_ejected);
          EXPECT_EQ(o.stats.packets_made,
                    static_cast<uint64_t>(pairs.size()) * static_cast<uint64_t>(c.packets_for(bytes)));
        }
      }
}

}  // namespace
}  // namespace t3sim::core
