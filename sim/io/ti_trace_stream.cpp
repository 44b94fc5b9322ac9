#include "sim/io/ti_trace_stream.hpp"

#include <filesystem>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "sim/core/message_index.hpp"
#include "sim/io/ti_collective_plan.hpp"
#include "sim/io/ti_rank_reader.hpp"
#include "sim/io/ti_trace_reader.hpp"
#include "sim/io/trace_program.hpp"

namespace t3sim::io {
namespace {

// The second reading: each rank's lines read again as its PE asks for operations.
class TiTraceStream : public core::OpSource {
 public:
  TiTraceStream(TiTraceText trace, CollectivePlan plan, core::MessageIndex index, const TraceProgram& first)
      : trace_(std::move(trace)),
        plan_(std::move(plan)),
        index_(std::move(index)),
        program_(TraceProgram::replay_of(first)) {
    ranks_.reserve(static_cast<size_t>(trace_.ranks()));
    for (int rank = 0; rank < trace_.ranks(); ++rank) {
      ranks_.emplace_back(program_, rank, trace_, flags_);
      ranks_.back().reader.take_votes();  // planned by the first reading
      ranks_.back().reader.start_reading(plan_[static_cast<size_t>(rank)]);
    }
    flags_ = program_.flags();
  }
  int pes() const override { return trace_.ranks(); }
  const core::InternTable& flags() const override { return flags_; }
  const std::vector<core::Op>& peer_operations() const override { return index_.peer_operations(); }

  bool next_ops(int pe, std::vector<core::Op>& out) override {
    Rank& r = ranks_[static_cast<size_t>(pe)];
    std::vector<core::Call>& calls = program_.calls(pe);
    while (out.empty()) {
      if (r.next_call < calls.size()) {
        const core::Call& c = calls[r.next_call++];
        r.expander.feed(c, index_.next(pe, c), out);
        continue;
      }
      calls.clear();
      r.next_call = 0;
      if (r.reader.read_next()) continue;
      if (r.finished) return false;
      r.finished = true;
      r.expander.finish(out);
    }
    return true;
  }

 private:
  struct Rank {
    Rank(TraceProgram& program, int rank, const TiTraceText& trace, core::InternTable& flags)
        : reader(program, rank, trace.texts, trace.per_rank[static_cast<size_t>(rank)]), expander(rank, flags) {}
    TiRankReader reader;
    core::MessageExpander expander;
    size_t next_call = 0;  // the rank's calls made and not yet expanded start here
    bool finished = false;
  };
  TiTraceText trace_;
  CollectivePlan plan_;
  core::MessageIndex index_;
  TraceProgram program_;
  core::InternTable flags_;  // the message layer's flags after the trace's own (the first reading's ids)
  std::vector<Rank> ranks_;
};

}  // namespace

namespace {
// The first reading: every line checked and counted, the collectives planned, the messages indexed
// (those of the collectives in `exact` held as point-to-point messages are).
struct FirstReading {
  TraceProgram program;
  CollectivePlan plan;
  core::MessageIndex index;
};

FirstReading read_first(const TiTraceText& trace, double eager_threshold, double max_operations, bool strict,
                        const std::set<int>& exact) {
  const int ranks = trace.ranks();
  FirstReading first{
      TraceProgram(ranks, trace.files, max_operations, strict), {}, core::MessageIndex(eager_threshold, exact)};
  std::vector<TiRankReader> readers;
  std::vector<std::vector<CollectiveVote>> votes;
  readers.reserve(static_cast<size_t>(ranks));
  for (int rank = 0; rank < ranks; ++rank) {
    readers.emplace_back(first.program, rank, trace.texts, trace.per_rank[static_cast<size_t>(rank)]);
    votes.push_back(readers.back().take_votes());
  }
  first.plan = plan_collectives(votes, first.program);
  for (int rank = 0; rank < ranks; ++rank) {
    readers[static_cast<size_t>(rank)].read(first.plan[static_cast<size_t>(rank)]);
    std::vector<core::Call>& calls = first.program.calls(rank);
    first.index.add(rank, calls);
    std::vector<core::Call>().swap(calls);
  }
  first.program.check_collectives();
  return first;
}
}  // namespace

LoadedWorkload load_ti_trace_streamed(const std::string& path, double eager_threshold, double max_operations,
                                      bool strict) {
  TiTraceText trace = read_ti_trace_text(path);
  const int ranks = trace.ranks();
  FirstReading first = read_first(trace, eager_threshold, max_operations, strict, {});
  bool matched = first.index.resolve();
  if (!matched && !first.index.disagreeing_collectives().empty()) {
    // Ranks disagree on some collectives' sizes: read again, holding those collectives' messages.
    const std::set<int> exact = first.index.disagreeing_collectives();
    first = read_first(trace, eager_threshold, max_operations, strict, exact);
    matched = first.index.resolve();
  }
  if (!matched)  // the whole-trace path matches every message and names the one that fails
    return load_ti_trace(path, eager_threshold, max_operations, strict);
  TraceProgram& program = first.program;
  program.null_receives(first.index.null_receives());
  LoadedWorkload out;
  core::Workload& w = out.workload;
  w.name = std::filesystem::path(path).stem().string();
  w.doc = fmt::format("SimGrid time-independent trace of {} ranks", ranks);
  w.pes = ranks;
  w.step_unit = "line";
  w.flags = program.flags();
  w.labels = program.labels();
  w.summed_records = true;
  out.pes_pos = {path, 0, 0};
  out.account = program.account();
  w.source = std::make_shared<TiTraceStream>(std::move(trace), std::move(first.plan), std::move(first.index), program);
  return out;
}

}  // namespace t3sim::io
