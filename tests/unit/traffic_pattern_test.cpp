#include <gtest/gtest.h>

#include <set>

#include "sim/core/program/packet_stream.hpp"
#include "sim/core/program/traffic_pattern.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "test_machine.hpp"

using namespace t3sim::core;

namespace {
PatternSpec spec(PatternKind kind) {
  PatternSpec s;
  s.kind = kind;
  return s;
}
}  // namespace

TEST(TrafficPattern, DestinationsOfEachKind) {
  auto s = spec(PatternKind::Shift);
  s.distance = 3;
  EXPECT_EQ(pattern_destinations(s, 8)[6], std::vector<int>{1});
  s = spec(PatternKind::DimShift);
  s.grid = {4, 2, 1};
  s.dim = 1;
  EXPECT_EQ(pattern_destinations(s, 8)[1], std::vector<int>{5});
  s = spec(PatternKind::Neighbor);
  s.grid = {4, 2, 1};
  EXPECT_EQ(pattern_destinations(s, 8)[0], (std::vector<int>{1, 3, 4, 4}));  // y ring of 2: both ways to 4
  EXPECT_EQ(pattern_destinations(spec(PatternKind::Transpose), 9)[1], std::vector<int>{3});
  EXPECT_TRUE(pattern_destinations(spec(PatternKind::Transpose), 9)[4].empty());
  EXPECT_EQ(pattern_destinations(spec(PatternKind::BitComplement), 8)[2], std::vector<int>{5});
  EXPECT_EQ(pattern_destinations(spec(PatternKind::AllToAll), 4)[1], (std::vector<int>{2, 3, 0}));
  s = spec(PatternKind::HotSpot);
  s.target = 2;
  EXPECT_EQ(pattern_destinations(s, 4)[0], std::vector<int>{2});
  EXPECT_TRUE(pattern_destinations(s, 4)[2].empty());
}

TEST(TrafficPattern, TransposeAndComplementWorkOnAnyCompositeCount) {
  // 532 = 19 x 28: every PE but the fixed points sends once, and nobody receives twice.
  for (PatternKind k : {PatternKind::Transpose, PatternKind::BitComplement}) {
    const auto d = pattern_destinations(spec(k), 532);
    std::set<int> targets;
    size_t senders = 0;
    for (size_t p = 0; p < d.size(); ++p)
      for (int t : d[p]) {
        EXPECT_NE(t, static_cast<int>(p));
        targets.insert(t);
        ++senders;
      }
    EXPECT_EQ(targets.size(), senders);
    EXPECT_GE(senders, 500u);
  }
  // 8 = 2 x 4: element (0,1) = PE 1 goes to (1,0) of the 4 x 2 transpose = PE 2.
  EXPECT_EQ(pattern_destinations(spec(PatternKind::Transpose), 8)[1], std::vector<int>{2});
  // Odd N: the reversal keeps the middle PE still.
  EXPECT_TRUE(pattern_destinations(spec(PatternKind::BitComplement), 7)[3].empty());
}

TEST(TrafficPattern, MessagesPerDestinationAreAllInFlight) {
  auto s = spec(PatternKind::Shift);
  s.messages = 3;
  Workload w;
  append_pattern_measurement(w, s, 4, 1024, 0);
  int puts = 0, waits = 0, quiets = 0;
  for (const Op& op : w.ops)
    if (op.pe == 0) {
      puts += op.kind == OpKind::Put;
      waits += op.kind == OpKind::Wait;
      quiets += op.kind == OpKind::Quiet;
    }
  EXPECT_EQ(puts, 3);
  EXPECT_EQ(waits, 3);
  EXPECT_EQ(quiets, 1);  // one quiet after all three: they overlap
}

TEST(TrafficPattern, RandomPermutationIsSeededAndAPermutation) {
  auto s = spec(PatternKind::RandomPerm);
  s.seed = 5;
  const auto a = pattern_destinations(s, 64), b = pattern_destinations(s, 64);
  EXPECT_EQ(a, b);
  std::set<int> targets;
  for (const auto& l : a) targets.insert(l.begin(), l.end());
  size_t senders = 0;
  for (const auto& l : a) senders += l.size();
  EXPECT_EQ(targets.size(), senders);  // nobody receives twice
}

TEST(TrafficPattern, ProblemsAreNamed) {
  EXPECT_NE(pattern_problem(spec(PatternKind::Transpose), 7), "");  // a prime: no matrix to transpose
  EXPECT_EQ(pattern_problem(spec(PatternKind::Transpose), 8), "");
  EXPECT_EQ(pattern_problem(spec(PatternKind::BitComplement), 6), "");
  auto m = spec(PatternKind::Shift);
  m.messages = 0;
  EXPECT_NE(pattern_problem(m, 8), "");
  auto s = spec(PatternKind::Shift);
  s.distance = 8;
  EXPECT_NE(pattern_problem(s, 8), "");
  s = spec(PatternKind::Neighbor);
  s.grid = {2, 2, 2};
  EXPECT_NE(pattern_problem(s, 9), "");
  EXPECT_EQ(pattern_problem(s, 8), "");
}

TEST(TrafficPattern, BroadcastAndReductionTreesFinish) {
  const MachineSpec m = t3sim::test::small_machine();
  for (PatternKind k : {PatternKind::Broadcast, PatternKind::Reduction}) {
    auto s = spec(k);
    s.root = 3;
    Workload w = t3sim::test::workload("tree", 11, {});
    append_pattern_measurement(w, s, 11, 1000, 0);
    const auto r = replay_uncontended(CostModel(m, m.profiles.front()), w);
    EXPECT_EQ(r.transfers.size(), 10u);  // a tree of 11 PEs has 10 edges
    // A binomial tree of 11 PEs is 3 levels deep (rank 7 = 0b111): at least 3 message times.
    EXPECT_GT(r.makespan, 3 * 1000 / 80e6);
  }
}

// A fixed pattern's stream is one put per PE repeated for every message (whole blocks: 1000 messages in
// blocks of 256 send 1024), so a run reads one operation per PE; uniform's block of drawn destinations
// is repeated whole.
TEST(PacketStream, FixedPatternIsOnePutRepeated) {
  for (auto traffic : {StreamTraffic::Neighbor, StreamTraffic::Uniform}) {
    Workload w = t3sim::test::workload("stream", 8, {});
    StreamSpec stream;
    stream.traffic = traffic;
    stream.messages = 1000;
    append_stream_measurement(w, stream, 8, 16, 0);
    ASSERT_EQ(w.repeats.size(), 1u);
    const Repeat& rep = w.repeats[0];
    const bool uniform = traffic == StreamTraffic::Uniform;
    EXPECT_EQ(rep.end_op - rep.first_op, uniform ? 8u * 256u : 8u);
    EXPECT_EQ(static_cast<double>(rep.count) * (rep.end_op - rep.first_op), 8.0 * 1024);
    for (uint32_t i = rep.first_op; i < rep.end_op; ++i) EXPECT_EQ(w.ops[i].kind, OpKind::Put);
  }
}

TEST(TrafficPattern, BalancedGridIsTheMostCubic) {
  EXPECT_EQ(balanced_grid(512), (Coord{8, 8, 8}));
  EXPECT_EQ(balanced_grid(532), (Coord{4, 7, 19}));
  EXPECT_EQ(balanced_grid(128), (Coord{4, 4, 8}));
  EXPECT_EQ(balanced_grid(7), (Coord{1, 1, 7}));
}

TEST(Workload, ProgramsMatchProgramOfEveryPeWithABackgroundJob) {
  Workload main;
  main.pes = 4;
  append_pattern_measurement(main, spec(PatternKind::Shift), 4, 1024, 0);
  Workload bg;
  bg.pes = 3;
  append_pattern_measurement(bg, spec(PatternKind::Shift), 3, 512, 0);
  const Workload both = with_background(main, bg);
  const auto all = both.programs();
  ASSERT_EQ(all.size(), 7u);
  for (int pe = 0; pe < both.pes; ++pe) {
    const auto one = both.program_of(pe);
    ASSERT_EQ(all[static_cast<size_t>(pe)].size(), one.size()) << pe;
    for (size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(all[static_cast<size_t>(pe)][i].kind, one[i].kind);
      EXPECT_EQ(all[static_cast<size_t>(pe)][i].peer, one[i].peer);
      EXPECT_EQ(all[static_cast<size_t>(pe)][i].job, one[i].job);
    }
  }
  EXPECT_EQ(all[5].front().kind, OpKind::Barrier);  // the background job's own barrier
  EXPECT_EQ(all[5].front().job, 1);
  // The background's names, interned into the main job's tables: labels prefixed, flags as they were.
  EXPECT_EQ(both.labels.name(all[5].front().label), "background.sync");
  EXPECT_EQ(both.labels.name(all[5][1].label), "background.exchange");
  EXPECT_EQ(both.flags.name(all[5][1].flag), "msg");
  EXPECT_EQ(all[5][1].flag, all[0][1].flag);  // one name, one id: flags are told apart by their PE
  EXPECT_EQ(both.labels.name(all[0][1].label), "exchange");
}
