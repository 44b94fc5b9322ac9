// The streamed replay of TI traces (sim/io/trace/ti/ti_trace_stream.hpp) against the whole-trace expansion
// (load_ti_trace): every PE gets the same operations in the same order, whatever order the PEs ask
// in, with the same account of the trace's lines; and the message index matches as the whole-program
// matching does, or says it cannot.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/core/messages/message_index.hpp"
#include "sim/io/trace/ti/ti_trace_reader.hpp"
#include "sim/io/trace/ti/ti_trace_stream.hpp"
#include "ti_corpus.hpp"

using namespace t3sim;

namespace {

std::string source_file(const std::string& path) { return std::string(T3SIM_SOURCE_DIR) + "/" + path; }

// Every PE's operations from the source, the PEs asking in turn (a chunk each), as a run interleaves them.
std::vector<std::vector<core::Op>> streamed_programs(const core::Workload& w) {
  std::vector<std::vector<core::Op>> out(static_cast<size_t>(w.pes));
  std::vector<bool> done(static_cast<size_t>(w.pes), false);
  int left = w.pes;
  std::vector<core::Op> chunk;
  while (left > 0)
    for (int pe = w.pes - 1; pe >= 0; --pe) {  // from the last PE: not the order the first reading took
      if (done[static_cast<size_t>(pe)]) continue;
      chunk.clear();
      if (!w.source->next_ops(pe, chunk)) {
        done[static_cast<size_t>(pe)] = true;
        --left;
        continue;
      }
      EXPECT_FALSE(chunk.empty());
      auto& mine = out[static_cast<size_t>(pe)];
      mine.insert(mine.end(), chunk.begin(), chunk.end());
    }
  return out;
}

void expect_same_replay(const std::string& path, const core::MessageProtocols& protocols = {1024}) {
  const io::LoadedWorkload whole = io::load_ti_trace(path, protocols);
  const io::LoadedWorkload streamed = io::load_ti_trace_streamed(path, protocols);
  ASSERT_TRUE(streamed.workload.source) << "the message index could not match " << path;
  EXPECT_TRUE(streamed.workload.ops.empty());
  EXPECT_TRUE(streamed.workload.summed_records);
  EXPECT_EQ(streamed.account.lines, whole.account.lines);
  EXPECT_EQ(streamed.account.replayed, whole.account.replayed);
  EXPECT_EQ(streamed.account.no_cost, whole.account.no_cost);
  ASSERT_EQ(streamed.account.warnings.size(), whole.account.warnings.size());
  for (size_t i = 0; i < whole.account.warnings.size(); ++i) {
    EXPECT_EQ(streamed.account.warnings[i].what, whole.account.warnings[i].what);
    EXPECT_EQ(streamed.account.warnings[i].lines, whole.account.warnings[i].lines);
  }
  std::vector<core::Op> pairs;
  streamed.workload.source->for_each_peer_operation([&](const core::Op& op) { pairs.push_back(op); });
  const auto expected = whole.workload.programs();
  const auto got = streamed_programs(streamed.workload);
  const core::InternTable& flags = streamed.workload.source->flags();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t pe = 0; pe < expected.size(); ++pe) {
    ASSERT_EQ(got[pe].size(), expected[pe].size()) << "PE " << pe;
    for (size_t i = 0; i < expected[pe].size(); ++i) {
      const core::Op& a = got[pe][i];
      const core::Op& b = expected[pe][i];
      const std::string at = "PE " + std::to_string(pe) + " op " + std::to_string(i);
      ASSERT_EQ(a.kind, b.kind) << at;
      EXPECT_EQ(a.pe, b.pe) << at;
      EXPECT_EQ(a.peer, b.peer) << at;
      EXPECT_EQ(a.bytes, b.bytes) << at;
      EXPECT_EQ(a.seconds, b.seconds) << at;
      EXPECT_EQ(a.flops, b.flops) << at;
      EXPECT_EQ(a.step, b.step) << at;
      EXPECT_EQ(a.iteration, b.iteration) << at;
      EXPECT_EQ(a.complete, b.complete) << at;
      EXPECT_EQ(a.message_data, b.message_data) << at;
      EXPECT_EQ(a.order, b.order) << at;
      EXPECT_EQ(streamed.workload.labels.name(a.label), whole.workload.labels.name(b.label)) << at;
      EXPECT_EQ(a.flag == core::kNoName ? "" : flags.name(a.flag),
                b.flag == core::kNoName ? "" : whole.workload.flags.name(b.flag))
          << at;
      if (a.peer >= 0 && a.peer != a.pe && core::Workload::peer_is_pe(a)) {
        const bool listed = std::any_of(pairs.begin(), pairs.end(), [&](const core::Op& p) {
          return p.pe == a.pe && p.peer == a.peer && p.kind == a.kind && p.message_data == a.message_data;
        });
        EXPECT_TRUE(listed) << at << ": its pair is not among the source's peer operations";
      }
    }
  }
}

core::Call message(core::Call::Kind kind, int peer, double bytes, int tag) {
  core::Call c;
  c.kind = kind;
  c.peer = peer;
  c.bytes = bytes;
  c.tag = tag;
  return c;
}

}  // namespace

class TiStreamCorpus : public testing::TestWithParam<std::string> {};

TEST_P(TiStreamCorpus, EveryPeGetsTheWholeExpansionsOperations) {
  expect_same_replay(test::ti_corpus_trace(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Real, TiStreamCorpus, testing::ValuesIn(test::ti_corpus_names()), test::ti_corpus_test_name);

TEST(TiStream, ExamplesReplayAsTheWholeExpansion) {
  for (const char* name : {"ti-ring-128.txt", "ti-alltoall-128.txt"})
    expect_same_replay(source_file(std::string("workloads/traces/") + name));
}

// With the queue path (mpi_queue_bytes, as on the T3E-900) the streamed replay still gives every PE
// the whole expansion's operations, and the traces do send messages by it.
TEST(TiStream, QueuePathReplaysAsTheWholeExpansion) {
  const core::MessageProtocols protocols{0, 40};
  size_t queued = 0;
  std::vector<std::string> paths;
  for (const char* name : {"ti-ring-128.txt", "ti-alltoall-128.txt"})
    paths.push_back(source_file(std::string("workloads/traces/") + name));
  for (const std::string& name : test::ti_corpus_names()) paths.push_back(test::ti_corpus_trace(name));
  for (const std::string& path : paths) {
    expect_same_replay(path, protocols);
    const core::Workload whole = io::load_ti_trace(path, protocols).workload;
    for (const core::Op& op : whole.ops)
      queued += op.kind == core::OpKind::Put && op.flag != core::kNoName &&
                whole.flags.name(op.flag).rfind("mp.queue ", 0) == 0;
  }
  EXPECT_GT(queued, 0u);
}

TEST(MessageIndex, NamedReceivesTakeTheirChannelsSendsInOrderAndWildcardsTheRest) {
  core::MessageIndex index({100});
  using K = core::Call::Kind;
  // PE 0 sends 50, 500 and 70 bytes to PE 1 with tag 3; PE 1 receives one from any source first,
  // then two naming PE 0 and tag 3: the named ones take the first two sends, the wildcard the third.
  index.add(0, {message(K::Send, 1, 50, 3), message(K::Send, 1, 500, 3), message(K::Send, 1, 70, 3)});
  index.add(1,
            {message(K::Recv, core::kAnySource, 1000, 3), message(K::Recv, 0, 1000, 3), message(K::Recv, 0, 1000, 3)});
  ASSERT_TRUE(index.resolve());
  EXPECT_EQ(index.messages(), 3u);
  const core::Matched wild = index.next(1, message(K::Recv, core::kAnySource, 1000, 3));
  EXPECT_EQ(wild.bytes, 70);
  EXPECT_EQ(wild.source, 0);
  const core::Matched first = index.next(1, message(K::Recv, 0, 1000, 3));
  EXPECT_EQ(first.bytes, 50);
  EXPECT_EQ(first.protocol, core::MessageProtocol::Eager);
  const core::Matched second = index.next(1, message(K::Recv, 0, 1000, 3));
  EXPECT_EQ(second.bytes, 500);
  EXPECT_EQ(second.protocol, core::MessageProtocol::Rendezvous);  // above the threshold: rendezvous
}

TEST(MessageIndex, SaysWhenItCannotMatch) {
  using K = core::Call::Kind;
  {
    core::MessageIndex index({100});  // a send nobody receives
    index.add(0, {message(K::Send, 1, 50, 3)});
    index.add(1, {});
    EXPECT_FALSE(index.resolve());
  }
  {
    core::MessageIndex index({100});  // a receive smaller than its message
    index.add(0, {message(K::Send, 1, 50, 3)});
    index.add(1, {message(K::Recv, 0, 40, 3)});
    EXPECT_FALSE(index.resolve());
  }
  {
    core::MessageIndex index({100});  // a collective's receive (negative tag) larger than what was sent
    index.add(0, {message(K::Send, 1, 50, -1)});
    index.add(1, {message(K::Recv, 0, 60, -1)});
    EXPECT_FALSE(index.resolve());
  }
  {
    core::MessageIndex index({100});  // the same collective with both sides agreeing
    index.add(0, {message(K::Send, 1, 50, -1)});
    index.add(1, {message(K::Recv, 0, 50, -1)});
    EXPECT_TRUE(index.resolve());
    EXPECT_EQ(index.messages(), 0u);  // not held
  }
  {
    core::MessageIndex index({100});  // a receive from any source with no send left: MPI_PROC_NULL
    core::Call null = message(K::Recv, core::kAnySource, 8, 0);
    null.maybe_null = true;
    index.add(0, {null});
    ASSERT_TRUE(index.resolve());
    EXPECT_EQ(index.null_receives(), 1u);
    EXPECT_TRUE(index.next(0, null).null);
  }
}
