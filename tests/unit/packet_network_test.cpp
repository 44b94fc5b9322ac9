// The packet network (sim/core/packet) against its closed forms: zero-load latency (hops, pipeline,
// wires, terminals, serialisation), a lone message's rate (one flit per cycle, headers included),
// conservation of packets and flits, and no deadlock on permutations and all-to-all over rings of 2
// to 17 under both datelines and both switchings, with buffers smaller than a packet.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim/core/packet/packet_network.hpp"
#include "sim/core/support/model_error.hpp"

namespace t3sim::core {
namespace {

PacketConfig booksim_like(Coord dims, int packet_flits) {
  PacketConfig c;
  c.dims = dims;
  c.cycle_s = 1e-9;
  c.flit_bytes = 16;
  c.packet_flits = packet_flits;
  c.header_flits = 0;
  c.vcs = 4;
  c.vc_buffer_flits = 8;
  c.pipeline_cycles = 4;
  c.wire_cycles = 2;
  c.terminal_cycles = 1;
  return c;
}

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
  EXPECT_GE(at, alone + 99 * 4);  // as above: a cycle or two of interleaving at most
  EXPECT_LE(at, alone + 99 * 4 + 2);
}

void expect_everything_delivered(const PacketConfig& c, const std::vector<std::pair<int, int>>& pairs, double bytes) {
  PacketNetwork net(c, 7);
  for (const auto& [a, b] : pairs) net.add_message(a, b, bytes, -1);
  const std::vector<uint64_t> at = run_all(net, pairs.size());
  const PacketNetwork::Stats& s = net.stats();
  EXPECT_EQ(s.packets_made, s.packets_delivered);
  EXPECT_EQ(s.flits_injected, s.flits_ejected);
  EXPECT_EQ(s.packets_made, static_cast<uint64_t>(pairs.size()) * static_cast<uint64_t>(c.packets_for(bytes)));
  EXPECT_EQ(net.next_busy_cycle(), UINT64_MAX);
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
        for (int round = 0; round < 20; ++round)
          for (int i = 0; i < n; ++i) pairs.emplace_back(i, perm[static_cast<size_t>(i)]);
        SCOPED_TRACE(std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]));
        expect_everything_delivered(c, pairs, 64.0 * 3);
        if (n <= 125) {
          std::vector<std::pair<int, int>> all;
          for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
              if (a != b) all.emplace_back(a, b);
          expect_everything_delivered(c, all, 64.0 * 2);
        }
      }
}

}  // namespace
}  // namespace t3sim::core
