// The packet network's arbitration (network.arbitration) on the parking lot: sources along a ring all
// sending to its last node merge one after another, each router's output shared between its through
// traffic and its own node's injection. Round-robin serves the two inputs in turn, so the nearest source
// gets half the last link and each source further upstream half of what is left (equal messages end at
// very different cycles); age serves the packet made first, so none is starved and they end close together. Checked for
// routers of at most and of more than 64 VCs, flit by flit and with whole-packet events, and across the 2^32-cycle wrap
// of the packets' birth stamps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/packet/arbiter_picks.hpp"
#include "sim/core/packet/packet_network.hpp"
#include "tests/unit/booksim_like_config.hpp"

namespace t3sim::core {
namespace {

constexpr int kRing = 16;
constexpr int kLast = kRing - 1;
constexpr int kSources = 5;         // nodes 10..14, 5 to 1 hops upstream of node 15 on the + side
constexpr double kPackets = 400.0;  // each source's message, in packets

// Cycle at which each source's message was delivered, nearest source first.
std::vector<uint64_t> parking_lot(PacketConfig c, uint64_t start) {
  PacketNetwork net(c);
  net.skip_to(start);
  std::vector<int> ids;
  for (int k = 1; k <= kSources; ++k)
    ids.push_back(net.add_message(kLast - k, kLast, kPackets * c.payload_bytes(), -1));
  std::vector<uint64_t> at(ids.size(), 0);
  size_t left = ids.size();
  while (left > 0) {
    const uint64_t next = net.next_busy_cycle();
    if (next == UINT64_MAX) break;
    net.skip_to(next);
    const uint64_t cycle = net.now();
    net.step();
    for (int m : net.delivered()) {
      at[static_cast<size_t>(std::find(ids.begin(), ids.end(), m) - ids.begin())] = cycle - start;
      --left;
    }
  }
  EXPECT_EQ(left, 0u);
  return at;
}

PacketConfig ring(Arbitration arbitration, int packet_flits) {
  PacketConfig c = booksim_like({kRing, 1, 1}, packet_flits);
  c.arbitration = arbitration;
  return c;
}

// Under round-robin the nearest source gets half the last link, so its message ends at about 0.3 of the
// run (measured: 0.30-0.33), and each further one later. Under age the order of service is the order
// the packets were made, so no source is starved: the first to end does so after more than half the
// run (measured 0.60-0.80; not 1: a source's share follows how many of its packets the buffers on its
// path hold, so it is fair in waiting time, not exactly in rate).
uint64_t run_end(const std::vector<uint64_t>& at) { return *std::max_element(at.begin(), at.end()); }

void expect_fair(const std::vector<uint64_t>& at, const std::string& what) {
  EXPECT_GE(static_cast<double>(*std::min_element(at.begin(), at.end())), 0.55 * static_cast<double>(run_end(at)))
      << what;
}

void expect_parking_lot(const std::vector<uint64_t>& at, const std::string& what) {
  EXPECT_LE(static_cast<double>(at.front()), 0.35 * static_cast<double>(run_end(at))) << what;
  // (each source further upstream ends no earlier than the one downstream of it)
  for (size_t k = 1; k < at.size(); ++k) EXPECT_GE(at[k] + 10, at[k - 1]) << what << ", source " << k;
}

TEST(PacketArbitration, PicksFollowTurnAndAge) {
  // Round-robin: the first requester after the last served, wrapping round.
  EXPECT_EQ(first_after(0b10110, 1), 2);
  EXPECT_EQ(first_after(0b10110, 2), 4);
  EXPECT_EQ(first_after(0b10110, 4), 1);
  EXPECT_EQ(first_after(uint64_t{1} << 63 | 1, 63), 0);
  // Age: the earliest made wins wherever it stands in turn.
  const uint32_t born[5] = {0, 50, 40, 0, 60};
  const auto of = [&](int i) { return born[i]; };
  EXPECT_EQ(oldest_after(0b10110, 1, of), 2);  // 40 before 50 and 60
  EXPECT_EQ(oldest_after(0b10010, 1, of), 1);  // 50 before 60, though 4 is next in turn
  // A tie goes to the one first in turn from the last served.
  const uint32_t tied[5] = {0, 7, 7, 0, 7};
  const auto tie = [&](int i) { return tied[i]; };
  EXPECT_EQ(oldest_after(0b10110, 1, tie), 2);
  EXPECT_EQ(oldest_after(0b10110, 2, tie), 4);
  EXPECT_EQ(oldest_after(0b10110, 4, tie), 1);
  // Stamps modulo 2^32: one made just before the wrap is older than one made just after it.
  const uint32_t wrapped[3] = {0, 0xFFFFFFF0u, 5};
  const auto wrap = [&](int i) { return wrapped[i]; };
  EXPECT_EQ(oldest_after(0b110, 1, wrap), 1);
  EXPECT_EQ(oldest_after(0b110, 0, wrap), 1);
}

TEST(PacketArbitration, RoundRobinIsAParkingLotAgeStarvesNone) {
  for (int flits : {1, 4}) {
    const std::string what = std::to_string(flits) + "-flit packets";
    const std::vector<uint64_t> rr = parking_lot(ring(Arbitration::RoundRobin, flits), 0);
    const std::vector<uint64_t> age = parking_lot(ring(Arbitration::Age, flits), 0);
    expect_parking_lot(rr, "round-robin, " + what);
    expect_fair(age, "age, " + what);
    // The last link carries the same packets either way: the runs end within a few percent.
    EXPECT_NEAR(static_cast<double>(run_end(age)), static_cast<double>(run_end(rr)),
                0.05 * static_cast<double>(run_end(rr)))
        << what;
  }
}

TEST(PacketArbitration, AgeStaysFairForWideRoutersAndWholePacketEvents) {
  PacketConfig wide = ring(Arbitration::Age, 4);
  wide.vcs = 12;  // 7 ports x 12: 84 VCs, the allocator that compares distances
  expect_fair(parking_lot(wide, 0), "84 VCs a router");
  wide.arbitration = Arbitration::RoundRobin;
  expect_parking_lot(parking_lot(wide, 0), "84 VCs a router, round-robin");

  PacketConfig held = ring(Arbitration::Age, 4);
  held.switching = Switching::CutThrough;
  held.hold_switch = held.whole_packet_events = true;
  expect_fair(parking_lot(held, 0), "whole-packet events");
  held.arbitration = Arbitration::RoundRobin;
  expect_parking_lot(parking_lot(held, 0), "whole-packet events, round-robin");
}

TEST(PacketArbitration, AgesCompareAcrossTheWrapOfTheirCycleStamps) {
  // Packets made on both sides of cycle 2^32 (stamps modulo 2^32) still compare by age.
  const uint64_t start = (uint64_t{1} << 32) - 3000;
  const std::vector<uint64_t> wrapped = parking_lot(ring(Arbitration::Age, 4), start);
  expect_fair(wrapped, "across the wrap");
  EXPECT_EQ(wrapped, parking_lot(ring(Arbitration::Age, 4), 0));
}

}  // namespace
}  // namespace t3sim::core
