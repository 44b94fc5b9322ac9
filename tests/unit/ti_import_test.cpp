// What t3sim makes of every form SimGrid 3.32's TI writer emits (tests/data/ti-real/README.md lists
// them): each rule of the importer on a trace of a few lines, then the whole real corpus, every line
// of which must be replayed or without cost by a named rule (no silent drop).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>

#include "sim/io/files/input_file.hpp"
#include "sim/io/trace/common/trace_lines.hpp"
#include "sim/io/trace/ti/ti_trace_reader.hpp"
#include "ti_corpus.hpp"

using namespace t3sim;

namespace {

// Writes `text` as a one-file trace and loads it (eager threshold 1 KiB: larger messages rendezvous).
io::LoadedWorkload load(const std::string& name, const std::string& text, bool strict = false) {
  const auto path = std::filesystem::temp_directory_path() / ("t3sim_ti_import_" + name + ".txt");
  std::ofstream(path) << text;
  return io::load_ti_trace(path.string(), {1024}, core::kMaxOperations, strict);
}

size_t no_cost(const io::LoadedWorkload& w, const std::string& rule) {
  const auto it = w.account.no_cost.find(rule);
  return it == w.account.no_cost.end() ? 0 : it->second;
}

// (PE, kind, flag name prefix) counts
int ops(const core::Workload& w, int pe, core::OpKind kind, const std::string& flag_prefix = "") {
  int n = 0;
  for (const core::Op& op : w.ops)
    n += op.pe == pe && op.kind == kind &&
         (flag_prefix.empty() || (op.flag != core::kNoName && w.flags.name(op.flag).rfind(flag_prefix, 0) == 0));
  return n;
}

}  // namespace

TEST(TiImport, WaitallCompletesOnlyTheRequestsNoLaterWaitNames) {
  // LULESH's pattern: MPI_Waitall(n, sends) with null entries, then one MPI_Wait per receive.
  const auto w = load("waitall", R"(0 irecv 1 0 64 6
0 isend 1 5 64 6
0 waitall 26
0 wait 1 0 0
1 irecv 0 5 64 6
1 isend 0 0 64 6
1 waitall 26
1 wait 0 1 5
)");
  EXPECT_EQ(w.account.lines, 8u);
  EXPECT_EQ(w.account.replayed, 8u);  // the later waits complete the receives: nothing dropped
  EXPECT_EQ(no_cost(w, "wait for a request no call left pending"), 0u);
  // each receive is completed under its own wait line, not under the waitall
  for (const core::Op& op : w.workload.ops)
    if (op.kind == core::OpKind::MpiRecv) {
      EXPECT_EQ(w.workload.labels.name(op.label), "wait");
    }
}

TEST(TiImport, WaitallWithNoLaterWaitCompletesEverything) {
  const auto w = load("waitall_all",
                      "0 irecv 1 0 8 6\n0 isend 1 0 8 6\n0 waitall 2\n"
                      "1 irecv 0 0 8 6\n1 isend 0 0 8 6\n1 waitall 2\n");
  for (const core::Op& op : w.workload.ops)
    if (op.kind == core::OpKind::MpiRecv) {
      EXPECT_EQ(w.workload.labels.name(op.label), "waitall");
    }
  EXPECT_EQ(w.account.replayed, 6u);
}

TEST(TiImport, ARequestCompletesAtTheLastTestThatAsksForIt) {
  // a polling loop: the program stopped testing its first receive at the third test (it had
  // completed); the second receive is tested once, then waited for
  const auto w = load("tests", R"(0 irecv 1 0 8 6
0 test 1 0 0
0 test 1 0 0
0 test 1 0 0
0 compute 1000
0 irecv 1 0 8 6
0 test 1 0 0
0 wait 1 0 0
1 send 0 0 8 6
1 send 0 0 8 6
)");
  EXPECT_EQ(no_cost(w, "test (a later test or wait of its request completes it)"), 3u);
  std::vector<std::string> completed_under;
  for (const core::Op& op : w.workload.ops)
    if (op.kind == core::OpKind::MpiRecv) completed_under.push_back(w.workload.labels.name(op.label));
  EXPECT_EQ(completed_under, (std::vector<std::string>{"test", "wait"}));
}

TEST(TiImport, ProcNullSendsCostNothingAndUnmatchedMinus333ReceivesComplete) {
  const auto w = load("proc_null", R"(0 isend -333 3 8 6
0 irecv -333 3 8 6
0 wait 0 -333 3
0 wait -333 0 3
1 send -333 0 8 6
)");
  EXPECT_EQ(no_cost(w, "send to MPI_PROC_NULL (written -333)"), 2u);
  EXPECT_EQ(no_cost(w, "receive from -333 that no send matches (MPI_PROC_NULL)"), 1u);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Put), 0);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 0);
  // the account still covers every line
  size_t without = 0;
  for (const auto& [rule, n] : w.account.no_cost) without += n;
  EXPECT_EQ(w.account.replayed + without, w.account.lines);
}

TEST(TiImport, Minus333ReceiveTakesAMessageWhenOneIsLeft) {  // MPI_ANY_SOURCE
  const auto w = load("any_source", "0 irecv -333 -444 8 6\n0 wait -333 0 -444\n1 send 0 7 8 6\n");
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 1);
  EXPECT_EQ(no_cost(w, "receive from -333 that no send matches (MPI_PROC_NULL)"), 0u);
}

TEST(TiImport, SynchronousSendsRendezvousAndBufferedSendsGoEager) {
  // 8 bytes is eager by size and 4 KiB rendezvous; Ssend and bsend override that
  const auto w = load("protocols", "0 Ssend 1 0 8 6\n0 bsend 1 1 4096 6\n1 recv 0 0 8 6\n1 recv 0 1 4096 6\n");
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Put, "mp.rts"), 1);    // the Ssend's request to send
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Wait, "mp.done"), 1);  // ... and its wait for the pull
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Put, "mp.eager"), 1);  // the bsend's data, at once
}

TEST(TiImport, DerivedDatatypesWarnWithTheirCountAndFailUnderStrict) {
  const std::string text = "0 send 1 0 10 -1\n1 recv 0 0 10 -1\n";
  const auto w = load("derived", text);
  ASSERT_EQ(w.account.warnings.size(), 2u);  // one per action
  EXPECT_EQ(w.account.warnings[0].lines, 1u);
  EXPECT_NE(w.account.warnings[0].what.find("derived datatype"), std::string::npos);
  EXPECT_EQ(w.account.warnings[0].first.line, 1);
  EXPECT_EQ(w.account.warnings[0].first.column, 15);
  try {
    load("derived_strict", text, true);
    FAIL() << "--strict accepted a derived datatype";
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.pos().line, 1);
    EXPECT_NE(std::string(e.what()).find("an error under --strict"), std::string::npos);
  }
}

TEST(TiImport, WaitAnyWaitsForTheOldestPendingRequestAndWarns) {
  const auto w = load("waitany",
                      "0 irecv 1 0 8 6\n0 irecv 2 0 8 6\n0 waitAny 2\n0 waitAny 2\n"
                      "1 send 0 0 8 6\n2 send 0 0 8 6\n");
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 2);
  ASSERT_EQ(w.account.warnings.size(), 1u);
  EXPECT_EQ(w.account.warnings[0].key, "waitAny");
  EXPECT_EQ(w.account.warnings[0].lines, 2u);
}

TEST(TiImport, GatherWithoutReceiveCountNamesItsRoot) {
  // SimGrid 3.32 leaves RECVCOUNT out when it is 0 (every rank but the root): `gather 3 1 0 0` is root 1
  const auto w = load("gather", "0 gather 3 1 6 6\n1 gather 3 3 1 6 6\n2 gather 3 1 6 6\n");
  EXPECT_EQ(ops(w.workload, 1, core::OpKind::MpiRecv), 2);  // the root receives from the two others
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 0);
  EXPECT_TRUE(w.account.warnings.empty());
}

TEST(TiImport, EveryCollectiveButTheBarrierEntersOnceAPe) {
  // mpi_collective_overhead's operation: first in each PE's part of a collective, one per call
  const auto w =
      load("entry", "0 reduce 1 1 0\n1 reduce 1 1 0\n0 allreduce 1 1\n1 allreduce 1 1\n0 barrier\n1 barrier\n");
  for (int pe : {0, 1}) EXPECT_EQ(ops(w.workload, pe, core::OpKind::MpiCollective), 2) << pe;
  for (const core::Op& op : w.workload.ops) {  // the PE's first operation of each collective is its entry
    if (op.kind != core::OpKind::MpiCollective) continue;
    EXPECT_EQ(op.peer, -1);
    EXPECT_DOUBLE_EQ(op.bytes, 0);
  }
  const auto first =
      std::find_if(w.workload.ops.begin(), w.workload.ops.end(), [](const core::Op& op) { return op.pe == 1; });
  ASSERT_NE(first, w.workload.ops.end());
  EXPECT_EQ(first->kind, core::OpKind::MpiCollective);
}

TEST(TiImport, ReduceScatterBlockAsSimGridWritesIt) {
  // MPI_Reduce_scatter_block(recvcount 5): 3.32 writes five zeros and the type, no flops
  const auto w = load("rsb", "0 reducescatter 0 0 0 0 0 1\n1 reducescatter 0 0 0 0 0 1\n");
  double sent = 0;
  for (const core::Op& op : w.workload.ops)
    if (op.kind == core::OpKind::Put && op.pe != op.peer) sent += op.bytes;
  EXPECT_GE(sent, 40 + 20);  // 5 ints per rank move: the reduce of 40 B to PE 0, then its part to PE 1
}

TEST(TiImport, OneSidedCallsBecomeShmemOperations) {
  const auto w = load("rma", R"(0 Win_lock_all
0 Put 1 0 16 0
0 Get 1 0 4 1
0 Compare_and_swap 1 0 1 7
0 Win_flush 
0 Win_unlock_all
0 Win_fence
1 Win_fence
)");
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Put), 1);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Get), 1);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Atomic), 1);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Quiet), 2);  // flush, unlock
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::Barrier) + ops(w.workload, core::kAllPes, core::OpKind::Barrier), 1);
  for (const core::Op& op : w.workload.ops)
    if (op.kind == core::OpKind::Put) {
      EXPECT_DOUBLE_EQ(op.bytes, 128);  // 16 doubles
    }
}

TEST(TiImport, NonblockingCollectivesReplayAsBlockingWithAWarning) {
  // as SimGrid writes them: the request's wait names -333 -333 and a tag of SimGrid's own
  const auto w = load("nbc", "0 ibcast 8 0 6 \n0 wait -333 -333 -3335\n1 ibcast 8 0 6 \n1 wait -333 -333 -3335\n");
  EXPECT_EQ(ops(w.workload, 1, core::OpKind::MpiRecv), 1);
  ASSERT_EQ(w.account.warnings.size(), 1u);
  EXPECT_EQ(w.account.warnings[0].key, "ibcast");
  EXPECT_EQ(no_cost(w, "wait of a nonblocking collective (replayed at its call)"), 2u);
}

TEST(TiImport, RanksRunningDifferentCollectivesAreGroupedAndWarned) {
  // Ranks that disagree on a root: two groups, each replayed among its own ranks
  const auto w = load("roots", "0 bcast 8 1 6\n1 bcast 8 1 6\n2 bcast 8 0 6\n");
  ASSERT_EQ(w.account.warnings.size(), 1u);
  EXPECT_EQ(w.account.warnings[0].lines, 3u);  // every line of both groups
  EXPECT_NE(w.account.warnings[0].detail.find("bcast root 1 of 8 B by PE 0-1"), std::string::npos)
      << w.account.warnings[0].detail;
  EXPECT_EQ(ops(w.workload, 1, core::OpKind::MpiRecv), 0);  // root 1 of {0, 1}: PE 1
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 1);
  EXPECT_EQ(ops(w.workload, 2, core::OpKind::MpiRecv), 0);  // alone in its group
}

TEST(TiImport, ACollectiveOnlyHalfTheRanksRunIsReplayedAmongThem) {
  // ranks 0-1 run an extra allreduce (a sub-communicator's) between two allreduces of every rank; a
  // half's barrier is a zero-byte allreduce among them (the barrier hardware spans the job)
  const auto w = load("half", R"(0 allreduce 4 0 6
0 allreduce 16 0 6
0 barrier
0 allreduce 4 0 6
1 allreduce 4 0 6
1 allreduce 16 0 6
1 barrier
1 allreduce 4 0 6
2 allreduce 4 0 6
2 allreduce 4 0 6
3 allreduce 4 0 6
3 allreduce 4 0 6
)");
  ASSERT_EQ(w.account.warnings.size(), 2u);  // the 16-byte allreduce and the barrier, on two ranks each
  EXPECT_EQ(w.account.warnings[0].key, "allreduce");
  EXPECT_EQ(w.account.warnings[0].lines, 2u);
  EXPECT_NE(w.account.warnings[0].detail.find("allreduce of 16 B by PE 0-1"), std::string::npos)
      << w.account.warnings[0].detail;
  EXPECT_EQ(w.account.warnings[1].key, "barrier");
  EXPECT_EQ(w.account.warnings[1].lines, 2u);
  for (const core::Op& op : w.workload.ops) {
    if (op.kind == core::OpKind::Barrier) ADD_FAILURE() << "a half's barrier used the job's barrier";
    if (op.kind == core::OpKind::Put && op.bytes == 16) {
      EXPECT_LT(op.pe, 2);  // the half's own allreduce
    }
  }
}

TEST(TiImport, AVectorCollectiveOfAGroupHasACountPerRankOfTheGroup) {
  // ranks 0 and 1 run an allgatherv that rank 2 does not: SimGrid writes 2 counts (its communicator's
  // size), not 3; each of the two sends its 100-byte block to the other
  const auto w = load("vector_group", "0 allgatherv 100 100 100 6 6\n1 allgatherv 100 100 100 6 6\n2 compute 1\n");
  int blocks = 0;
  for (const core::Op& op : w.workload.ops) blocks += op.kind == core::OpKind::Put && op.bytes == 100 && op.pe < 2;
  EXPECT_EQ(blocks, 2);
  for (const auto& warning : w.account.warnings)
    EXPECT_EQ(warning.what.find("vector collective"), std::string::npos) << warning.what;
}

TEST(TiImport, PersistentStartsSendToThePeerOrToItself) {
  // `Start PEER TAG BYTES TYPE`: PEER is the destination; rank 0 receives from itself with tag 4, so
  // its Start naming itself is that send
  const auto w = load("start", R"(0 irecv 0 4 40 1
0 Start 0 4 40 1
0 wait 0 0 4
0 wait 0 0 4
1 Start 0 9 40 1
1 wait 1 0 9
0 recv 1 9 40 1
)");
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 2);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiSend), 1);
  EXPECT_EQ(ops(w.workload, 1, core::OpKind::MpiSend), 1);
}

TEST(TiImport, APersistentReceiveTakesItsSourceFromItsWait) {
  // `Start` names only the receiver; the wait that completes the request names its source
  const auto w = load("start_source", "0 Start 0 4 40 1\n1 Start 0 4 40 1\n0 wait 1 0 4\n1 wait 1 0 4\n");
  EXPECT_TRUE(w.account.warnings.empty());
  EXPECT_EQ(no_cost(w, "wait for a request no call left pending"), 0u);
  EXPECT_EQ(ops(w.workload, 0, core::OpKind::MpiRecv), 1);
  for (const core::Op& op : w.workload.ops)
    if (op.kind == core::OpKind::MpiRecv) {
      EXPECT_EQ(w.workload.labels.name(op.label), "wait");
    }
}

TEST(TiImport, OneFileLayoutListsOneFileOfEveryRank) {
  // smpirun --cfg=tracing/smpi/format/ti-one-file:yes: a master naming one file with every rank's lines
  const auto dir = std::filesystem::temp_directory_path() / "t3sim_ti_one_file";
  std::filesystem::create_directories(dir / "files");
  std::ofstream(dir / "files" / "all_rank-1.txt") << "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n";
  std::ofstream(dir / "master.txt") << "files/all_rank-1.txt\n";
  const auto w = io::load_ti_trace((dir / "master.txt").string(), {1024});
  EXPECT_EQ(w.workload.pes, 2);
  EXPECT_EQ(w.account.lines, 4u);
  EXPECT_EQ(ops(w.workload, 1, core::OpKind::MpiRecv), 1);
}

// ---- the real corpus ----

namespace {
std::string corpus(const std::string& name) { return test::ti_corpus_trace(name); }
// Action lines in the files a master lists (or in the file itself), counted without t3sim's reader.
size_t lines_in(const std::string& master) {
  std::vector<std::string> files;
  for (const auto& line : io::read_trace_lines(master)) files.push_back(io::path_beside(master, line.tokens[0].text));
  size_t n = 0;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) n += line.find_first_not_of(" \t\r") != std::string::npos;
  }
  return n;
}
}  // namespace

class TiCorpus : public testing::TestWithParam<std::string> {};

TEST_P(TiCorpus, EveryLineIsReplayedOrWithoutCostByARule) {
  const std::string master = corpus(GetParam());
  const io::LoadedWorkload w = io::load_ti_trace(master, {1024});
  size_t without = 0;
  for (const auto& [rule, n] : w.account.no_cost) without += n;
  EXPECT_EQ(w.account.lines, lines_in(master));
  EXPECT_EQ(w.account.replayed + without, w.account.lines);
  EXPECT_GT(w.account.replayed, 0u);
  EXPECT_FALSE(w.workload.ops.empty());
}

INSTANTIATE_TEST_SUITE_P(Real, TiCorpus, testing::ValuesIn(test::ti_corpus_names()), test::ti_corpus_test_name);

TEST(TiCorpus, LuleshCompletesEveryReceiveAndEveryWaitFindsItsRequest) {
  // 1136 irecvs, each named by one of the 1136 `wait` lines; the 248 `waitall 26` complete the isends
  // (a receive may complete earlier, inside a waitall, by the message layer's progress rule)
  const io::LoadedWorkload w = io::load_ti_trace(corpus("lulesh-8"), {1024});
  EXPECT_EQ(no_cost(w, "wait for a request no call left pending"), 0u);
  int receives = 0;
  for (const core::Op& op : w.workload.ops) {
    const std::string& label = w.workload.labels.name(op.label);
    receives += op.kind == core::OpKind::MpiRecv && (label == "wait" || label == "waitall");
  }
  EXPECT_EQ(receives, 1136);
}
