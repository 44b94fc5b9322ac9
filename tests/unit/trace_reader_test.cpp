// The trace readers: t3sim SHMEM traces and SimGrid time-independent traces, their rejection rules,
// and what they expand into through the message layer and the collectives.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "sim/core/messages/collectives.hpp"
#include "sim/core/messages/message_layer.hpp"

#include "rejection_case.hpp"
#include "sim/io/trace/shmem/shmem_trace_reader.hpp"
#include "sim/io/trace/ti/ti_trace_reader.hpp"
#include "sim/io/trace/trace_loader.hpp"

using namespace t3sim;
using t3sim::test::RejectionCase;

namespace {
std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/trace/" + name; }
std::string example(const std::string& name) { return std::string(T3SIM_SOURCE_DIR) + "/workloads/traces/" + name; }

int count(const core::Workload& w, core::OpKind kind, int pe = -2) {
  return static_cast<int>(std::count_if(
      w.ops.begin(), w.ops.end(), [&](const core::Op& op) { return op.kind == kind && (pe == -2 || op.pe == pe); }));
}
}  // namespace

class TraceRejects : public testing::TestWithParam<RejectionCase> {};

TEST_P(TraceRejects, WithLocatedMessage) {
  const RejectionCase& c = GetParam();
  t3sim::test::expect_rejected([&] { io::load_trace(data(c.rule), {}); }, c);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, TraceRejects,
    testing::Values(
        RejectionCase{"bad_version.t3t", "bad_version.t3t:1:13: t3sim-trace: format version must be from 1 to 1"},
        RejectionCase{"missing_pes.t3t", "missing_pes.t3t:1:1: pes: the header must give 'pes N'"},
        RejectionCase{"unknown_header.t3t", "unknown_header.t3t:3:1: put: unknown header line"},
        RejectionCase{"unknown_op.t3t", "unknown_op.t3t:4:3: pte: unknown operation \\(did you mean 'put'\\?\\)"},
        RejectionCase{"peer_out_of_range.t3t",
                      "peer_out_of_range.t3t:4:7: put: PE .* must be from 0 to 1 \\(got '2'\\)"},
        RejectionCase{"bad_size.t3t", "bad_size.t3t:4:9: put: size: .*\\(got '8Q'\\)"},
        RejectionCase{"size_without_sizes.t3t", "size_without_sizes.t3t:4:9: get: \\$size needs a 'sizes' line"},
        RejectionCase{
            "unknown_option.t3t",
            "unknown_option.t3t:4:12: get: unknown option \\(this operation takes: label\\) \\(got 'signal'\\)"},
        RejectionCase{"order_without_signal.t3t",
                      "order_without_signal.t3t:4:18: put: needs a signal \\(got 'quiet'\\)"},
        RejectionCase{"order_unknown.t3t", "order_unknown.t3t:4:31: put: must be fence or quiet \\(got 'later'\\)"},
        RejectionCase{"flag_invalid.t3t", "flag_invalid.t3t:4:8: wait: flag names are lower-case letters"},
        RejectionCase{"pe_twice.t3t", "pe_twice.t3t:5:4: pe: PE 0 already has a section \\(line 3\\)"},
        RejectionCase{"pe_missing.t3t", "pe_missing.t3t:3:0: pe: PE 3 of 4 has no section"},
        RejectionCase{"section_beyond_pes.t3t", "section_beyond_pes.t3t:3:4: pe: PE 2 is beyond the trace's 2 PEs"},
        RejectionCase{"repeat_unclosed.t3t", "repeat_unclosed.t3t:4:3: repeat: has no closing 'end'"},
        RejectionCase{"end_without_repeat.t3t", "end_without_repeat.t3t:5:3: end: closes no 'repeat'"},
        RejectionCase{
            "unmatched_recv.t3t",
            "unmatched_recv.t3t:5:0: message: recv of PE 1 from PE 0 \\(tag 0, 8 bytes\\) has no matching send"},
        RejectionCase{"unmatched_send.t3t",
                      "unmatched_send.t3t:4:0: message: send of PE 0 to PE 1 \\(tag 3, 8 bytes\\) has no matching "
                      "receive at PE 1"},
        RejectionCase{"recv_too_small.t3t",
                      "recv_too_small.t3t:6:0: message: recv of PE 1 .* is smaller than its "
                      "message: send of PE 0 to PE 1 \\(tag 0, 65536 bytes\\)"},
        RejectionCase{"collective_mismatch.t3t",
                      "collective_mismatch.t3t:6:0: reduce: every PE must run the same collectives in the same order: "
                      "PE 1's collective 1 is reduce but PE 0's is bcast \\(line 4\\)"},
        RejectionCase{"barrier_missing.t3t",
                      "barrier_missing.t3t:4:0: barrier: .*PE 1 runs only 0 collectives; PE 0's collective 1 is here"},
        RejectionCase{"missing_argument.t3t", "missing_argument.t3t:4:8: put: missing size"},
        RejectionCase{"repeat_negative.t3t", "repeat_negative.t3t:4:10: repeat: repeat count must be from 0"},
        RejectionCase{"compute_bad_time.t3t", "compute_bad_time.t3t:4:13: compute: unknown option"},
        RejectionCase{"option_twice.t3t", "option_twice.t3t:4:19: send: option given twice \\(got 'tag'\\)"},
        RejectionCase{"root_out_of_range.t3t", "root_out_of_range.t3t:4:17: bcast: root PE must be from 0 to 1"},
        RejectionCase{"repeat_too_long.t3t",
                      "repeat_too_long.t3t:[45]:[35]: repeat: the trace runs more than 6.4e\\+07 lines"},
        RejectionCase{"split_with_lines.t3t",
                      "split_with_lines.t3t:4:3: quiet: a section read from a file has no lines of its own"},
        RejectionCase{"split_bad_keyword.t3t",
                      "split_bad_keyword.t3t:3:6: pe: a section is 'pe LIST' or 'pe LIST from FILE' \\(got 'to'\\)"},
        RejectionCase{"split_bad_body.t3t", "split/bad.t3t:3:3: pte: unknown operation"},
        RejectionCase{"split_missing_file.t3t", "nothere.t3t"},
        RejectionCase{"ti_any_source_no_fit.txt",
                      "ti_any_source_no_fit.txt:1:0: message: recv of PE 0 from any PE \\(tag 3, 64 bytes\\) has no "
                      "matching send"},
        RejectionCase{"ti_unknown_action.txt",
                      "ti_unknown_action.txt:2:3: sned: unknown action \\(did you mean 'send'\\?\\)"},
        RejectionCase{"ti_partner_out_of_range.txt",
                      "ti_partner_out_of_range.txt:1:8: send: rank must be from 0 to 1 \\(or -333"},
        RejectionCase{"ti_missing_rank.txt",
                      "ti_missing_rank.txt: rank: rank 1 has no actions, though ranks up to 2 do"},
        RejectionCase{"ti_unmatched.txt",
                      "ti_unmatched.txt:1:0: message: recv of PE 0 from PE 1 .* has no matching send"},
        RejectionCase{"ti_gatherv_short.txt", "ti_gatherv_short.txt:1:14: gatherv: missing count"},
        RejectionCase{
            "ti_bad_datatype.txt",
            "ti_bad_datatype.txt:1:14: send: datatype number must be from 0 to 59 \\(or -1, a derived type\\)"},
        RejectionCase{"ti_not_a_line.txt",
                      "ti_not_a_line.txt:1:1: trace: neither a trace line \\('RANK ACTION ...'\\) nor the path"},
        // A rank file's name the OS refuses (longer than NAME_MAX) is a missing file, not a crash (found
        // by fuzz_trace_loader).
        RejectionCase{"ti_split_name_too_long.txt", "a{300}: no such file"},
        RejectionCase{"ti_missing_argument.txt", "ti_missing_argument.txt:1:11: send: missing count"},
        // a send's partner may be -333 (MPI_PROC_NULL: no cost) but no other negative number; its tag is >= 0
        RejectionCase{"ti_send_negative_rank.txt",
                      "ti_send_negative_rank.txt:1:8: send: rank must be from 0 to 1 \\(or -333: MPI_PROC_NULL\\)"},
        RejectionCase{"ti_send_negative_tag.txt",
                      "ti_send_negative_tag.txt:1:10: send: a send's tag must be from 0 to 1073741824"},
        RejectionCase{"ti_extra_argument.txt",
                      "ti_extra_argument.txt:1:11: barrier: unexpected argument \\(got 'now'\\)"}),
    [](const testing::TestParamInfo<RejectionCase>& info) {
      std::string name = info.param.rule.substr(0, info.param.rule.find('.'));
      return name;
    });

TEST(ShmemTrace, PingPongExpandsRepeatsSizesAndRelativePeers) {
  const core::Workload w = io::load_shmem_trace(example("pingpong-put.t3t"), {0}).workload;
  EXPECT_EQ(w.pes, 2);
  int sizes = 0;
  for (const auto& op : w.ops) sizes = std::max(sizes, op.iteration + 1);
  EXPECT_GE(sizes, 10);
  // per size: 10 round trips, each one put and one wait on each PE
  EXPECT_EQ(count(w, core::OpKind::Put, 0), 10 * sizes);
  EXPECT_EQ(count(w, core::OpKind::Wait, 1), 10 * sizes);
  for (const auto& op : w.ops) {
    if (op.kind == core::OpKind::Put) {
      EXPECT_EQ(op.peer, 1 - op.pe);
    }
  }
}

TEST(ShmemTrace, PesOverrideScalesAnAllSection) {
  const core::Workload w = io::load_shmem_trace(example("shift.t3t"), {0}, 16, 1024).workload;
  EXPECT_EQ(w.pes, 16);
  for (const auto& op : w.ops) {
    if (op.kind == core::OpKind::Put) {
      EXPECT_EQ(op.peer, (op.pe + 1) % 16);
    }
  }
  EXPECT_EQ(count(w, core::OpKind::Put), 16);
}

TEST(ShmemTrace, StridedAndAtomicOperations) {
  const core::Workload w = io::load_shmem_trace(example("strided-atomics.t3t"), {0}).workload;
  bool strided = false, atomic = false;
  for (const auto& op : w.ops) {
    if (op.kind == core::OpKind::Put && w.labels.name(op.label) == "iput") {
      EXPECT_DOUBLE_EQ(op.bytes, 1000 * 8.0);  // 1000 4-byte elements, each padded to a 64-bit word
      strided = true;
    }
    if (op.kind == core::OpKind::Atomic) {
      EXPECT_DOUBLE_EQ(op.bytes, 8);
      EXPECT_EQ(op.peer, 0);
      atomic = true;
    }
  }
  EXPECT_TRUE(strided);
  EXPECT_TRUE(atomic);
}

TEST(MessageLayer, EagerBelowTheThresholdRendezvousAbove) {
  // one blocking message of 1 KiB from PE 0 to PE 1
  std::vector<std::vector<core::Call>> p(2);
  core::Call send;
  send.kind = core::Call::Kind::Send;
  send.peer = 1;
  send.bytes = 1024;
  core::Call recv = send;
  recv.kind = core::Call::Kind::Recv;
  recv.peer = 0;
  p[0].push_back(send);
  p[1].push_back(recv);
  auto kinds = [](const std::vector<core::Op>& ops, int pe) {
    std::string s;
    for (const auto& op : ops)
      if (op.pe == pe)
        s += std::string(core::op_kind_name(op.kind)) + (op.peer >= 0 ? std::to_string(op.peer) : "") + " ";
    return s;
  };
  core::InternTable flags;
  const auto eager = core::expand_messages(p, {4096}, flags);
  EXPECT_EQ(kinds(eager, 0), "mpi_send put1 ");
  EXPECT_EQ(kinds(eager, 1), "wait mpi_recv get1 ");  // the copy out of the eager buffer is a get from itself
  EXPECT_FALSE(eager.back().message_data);            // a local copy, not the MPI library's pull
  const auto rendezvous = core::expand_messages(p, {512}, flags);
  EXPECT_EQ(kinds(rendezvous, 0), "mpi_send put1 wait ");
  EXPECT_EQ(kinds(rendezvous, 1), "wait mpi_recv get0 put0 ");
  EXPECT_EQ(rendezvous[1].bytes, core::kControlBytes);
  EXPECT_EQ(rendezvous[5].bytes, 1024);
  EXPECT_TRUE(rendezvous[5].message_data);  // the receiver's pull draws on its MPI rate
}

TEST(Collectives, EraAlgorithmsMoveTheRightMessages) {
  // Messages sent per rank and in all, for each collective over 12 ranks (not a power of two).
  const int n = 12;
  auto sends = [&](core::Collective kind, int root) {
    std::vector<int> per_rank(n, 0);
    for (int r = 0; r < n; ++r) {
      std::vector<core::Call> calls;
      int next = 0;
      core::append_collective(calls, {kind, 64, 0, root}, r, n, -1, core::Call{}, &next);
      for (const auto& c : calls) per_rank[static_cast<size_t>(r)] += c.kind == core::Call::Kind::Send;
    }
    return per_rank;
  };
  auto total = [](const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0); };
  EXPECT_EQ(total(sends(core::Collective::Bcast, 5)), n - 1);  // a tree reaches every other rank once
  EXPECT_EQ(total(sends(core::Collective::Reduce, 5)), n - 1);
  EXPECT_EQ(sends(core::Collective::Reduce, 5)[5], 0);  // the root only receives
  EXPECT_EQ(total(sends(core::Collective::Allreduce, 0)), 2 * (n - 1));
  EXPECT_EQ(total(sends(core::Collective::Alltoall, 0)), n * (n - 1));
  EXPECT_EQ(total(sends(core::Collective::Allgather, 0)), n * (n - 1));
  EXPECT_EQ(sends(core::Collective::Gather, 3)[3], 0);
  EXPECT_EQ(sends(core::Collective::Scatter, 3)[3], n - 1);
  // the bcast tree has depth ceil(log2 n): the root sends to 4 subtrees (8, 4, 2, 1 apart)
  EXPECT_EQ(sends(core::Collective::Bcast, 0)[0], 4);
}

TEST(TiTrace, SplitFilesDatatypesAndRanks) {
  const core::Workload w = io::load_ti_trace(data("ti_split.txt"), {1e9}).workload;  // all eager
  EXPECT_EQ(w.pes, 2);
  ASSERT_EQ(count(w, core::OpKind::Put, 0), 1);
  for (const auto& op : w.ops) {
    if (op.kind == core::OpKind::Put) {
      EXPECT_DOUBLE_EQ(op.bytes, 1024);
    }
  }                                                // MPI_BYTE: init has no argument
  EXPECT_DOUBLE_EQ(io::ti_datatype_bytes(0), 8);   // MPI_DOUBLE
  EXPECT_DOUBLE_EQ(io::ti_datatype_bytes(1), 4);   // MPI_INT
  EXPECT_DOUBLE_EQ(io::ti_datatype_bytes(6), 1);   // MPI_BYTE
  EXPECT_DOUBLE_EQ(io::ti_datatype_bytes(55), 0);  // MPI_UB has no size
}

TEST(TiTrace, VectorCollectivesAndScansMoveEachBlock) {
  const core::Workload w = io::load_ti_trace(data("ti_vector.txt"), {1e9}).workload;  // all eager: one put each
  double put_bytes = 0;
  int puts = 0;
  for (const auto& op : w.ops) {
    if (op.kind != core::OpKind::Put) continue;
    put_bytes += op.bytes;
    ++puts;
  }
  // gatherv 2 messages (20 + 30 B), allgatherv 6 (2 rounds x 60), scatterv 2 (50), alltoallv 6 (180),
  // reducescatter: reduce of 48 B over 3 ranks (2 messages) + 2 parts (16 + 24), scan 2 x 8, exscan 2 x 8
  EXPECT_EQ(puts, 2 + 6 + 2 + 6 + 4 + 2 + 2);
  EXPECT_DOUBLE_EQ(put_bytes, 50 + 120 + 50 + 180 + 136 + 16 + 16);
}

TEST(TiTrace, RingAndAllToAllExamplesLoadAtBothSizes) {
  for (int n : {128, 532}) {
    const core::Workload ring = io::load_ti_trace(example("ti-ring-" + std::to_string(n) + ".txt"), {0}).workload;
    EXPECT_EQ(ring.pes, n);
    EXPECT_EQ(count(ring, core::OpKind::Get), n);  // rendezvous: every message pulled once
    const core::Workload a2a = io::load_ti_trace(example("ti-alltoall-" + std::to_string(n) + ".txt"), {0}).workload;
    EXPECT_EQ(a2a.pes, n);
    // pairwise exchange: n(n-1) pulls of 8 KiB, plus the allreduce's 2(n-1) messages of 8 doubles
    int pulls = 0;
    for (const auto& op : a2a.ops) pulls += op.kind == core::OpKind::Get && op.peer != op.pe && op.bytes == 8192;
    EXPECT_EQ(pulls, n * (n - 1));
  }
}

TEST(MessageLayer, TimeCompletingARequestIsTheWaitsAsInAnMpiProfile) {
  const core::Workload w = io::load_ti_trace(example("ti-ring-128.txt"), {0}).workload;
  for (const auto& op : w.ops) {
    if (op.pe != 0) continue;
    if (op.kind == core::OpKind::Wait && w.flags.name(op.flag).rfind("mp.done", 0) == 0) {
      EXPECT_EQ(w.labels.name(op.label), "wait");  // the isend's completion, reported under the wait line
    }
    if (op.kind == core::OpKind::Overhead) {
      EXPECT_EQ(w.labels.name(op.label), "isend");
    }
  }
}

TEST(ShmemTrace, OneFilePerPeEqualsSections) {
  const core::Workload split = io::load_shmem_trace(data("split_ok.t3t"), {0}).workload;
  const core::Workload inline_ = io::load_shmem_trace(data("split_same_inline.t3t"), {0}).workload;
  ASSERT_EQ(split.ops.size(), inline_.ops.size());
  for (size_t i = 0; i < split.ops.size(); ++i) {
    EXPECT_EQ(split.ops[i].kind, inline_.ops[i].kind);
    EXPECT_EQ(split.ops[i].pe, inline_.ops[i].pe);
    EXPECT_EQ(split.ops[i].peer, inline_.ops[i].peer);
    EXPECT_EQ(split.ops[i].bytes, inline_.ops[i].bytes);
    EXPECT_EQ(split.flags.name(split.ops[i].flag), inline_.flags.name(inline_.ops[i].flag));
    EXPECT_EQ(split.ops[i].iteration, inline_.ops[i].iteration);
  }
}

TEST(TiTrace, ReadsLinesAsSimGrid332WritesThem) {
  // waitall with its request count, collectives with root and type fields and a trailing blank
  const core::Workload w = io::load_ti_trace(data("ti_as_simgrid_writes.txt"), {0}).workload;
  EXPECT_EQ(w.pes, 2);
  int pulls = 0;
  for (const auto& op : w.ops) pulls += op.kind == core::OpKind::Get && op.peer != op.pe;
  EXPECT_EQ(pulls, 2 + 1 + 2);  // the exchange, the bcast, the allreduce's reduce and bcast
}

TEST(TiTrace, WildcardReceivesTakeTheRemainingSendsInRankOrder) {
  const core::Workload w = io::load_ti_trace(data("ti_any_source.txt"), {0}).workload;  // rendezvous
  std::map<std::string, int> pulled_from;  // the call each pull is reported under -> the PE pulled from
  for (const auto& op : w.ops)
    if (op.pe == 0 && op.kind == core::OpKind::Get) pulled_from[w.labels.name(op.label)] = op.peer;
  // the irecv (completed by the wait) takes worker 1's message, the recv posted after it worker 2's
  EXPECT_EQ(pulled_from, (std::map<std::string, int>{{"wait", 1}, {"recv", 2}}));
}
