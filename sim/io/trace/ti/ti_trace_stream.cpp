#include "sim/io/trace/ti/ti_trace_stream.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "sim/core/messages/message_index.hpp"
#include "sim/io/trace/common/trace_program.hpp"
#include "sim/io/trace/ti/ti_collective_plan.hpp"
#include "sim/io/trace/ti/ti_rank_reader.hpp"
#include "sim/io/trace/ti/ti_trace_reader.hpp"

namespace t3sim::io {
namespace {

// The second reading: each rank's lines read again as its PE asks for operations.
class TiTraceStream : public core::OpSource {
 public:
  // `readers`: the first reading's, copied before they read (their look-ahead made once).
  TiTraceStream(TiTraceText trace, CollectivePlan plan, core::MessageIndex index, const TraceProgram& first,
                std::vector<TiRankReader> readers)
      : trace_(std::move(trace)),
        plan_(std::move(plan)),
        index_(std::move(index)),
        program_(TraceProgram::replay_of(first)),
        flags_(program_.flags()) {
    ranks_.reserve(static_cast<size_t>(trace_.ranks()));
    for (int rank = 0; rank < trace_.ranks(); ++rank) {
      ranks_.emplace_back(std::move(readers[static_cast<size_t>(rank)]), rank, flags_);
      TiRankReader& reader = ranks_.back().reader;
      reader.rebind(program_, trace_.texts, trace_.per_rank[static_cast<size_t>(rank)]);
      reader.start_reading(plan_[static_cast<size_t>(rank)]);
    }
  }
  int pes() const override { return trace_.ranks(); }
  const core::InternTable& flags() const override { return flags_; }
  void for_each_peer_operation(const std::function<void(const core::Op&)>& f) const override {
    index_.for_each_peer_operation(f);
  }

  bool next_ops(int pe, std::vector<core::Op>& out) override {
    Rank& r = ranks_[static_cast<size_t>(pe)];
    while (out.empty()) {
      if (r.next_call < r.calls.size()) {
        const core::Call& c = r.calls[r.next_call++];
        r.expander.feed(c, index_.next(pe, c), out);
      } else if (r.next_call < r.packed.size()) {
        const core::Call c = unpack(r.packed[r.next_call++], r.proto);
        r.expander.feed(c, index_.next(pe, c), out);
      } else if (r.reader.read_next()) {
        take_line(pe);
      } else if (!r.finished) {
        r.finished = true;
        r.expander.finish(out);
      } else {
        return false;
      }
    }
    return true;
  }

 private:
  // A call of a line that made many (a collective's, every PE holding its own at once): only what
  // differs from the line's first call, 32 bytes instead of a Call's 104. A Shmem call's operation
  // peer is in `peer` and its bytes (or a Compute's flops) in `bytes`.
  struct Packed {
    double bytes = 0;
    int peer = -1;
    int request = -1;
    int tag = 0;
    core::Call::Kind kind = core::Call::Kind::Shmem;
    core::OpKind op_kind = core::OpKind::Get;
    bool blocking = true;
    core::Call::Mode mode = core::Call::Mode::Standard;
    bool maybe_null = false;
  };
  static Packed pack(const core::Call& c) {
    const bool shmem = c.kind == core::Call::Kind::Shmem;
    const double bytes = !shmem ? c.bytes : c.op.kind == core::OpKind::Compute ? c.op.flops : c.op.bytes;
    return {bytes, shmem ? c.op.peer : c.peer, c.request, c.tag, c.kind, c.op.kind, c.blocking, c.mode, c.maybe_null};
  }
  static core::Call unpack(const Packed& p, const core::Call& proto) {
    core::Call c = proto;
    c.kind = p.kind;
    c.request = p.request;
    c.tag = p.tag;
    c.blocking = p.blocking;
    c.mode = p.mode;
    c.maybe_null = p.maybe_null;
    if (p.kind != core::Call::Kind::Shmem) {
      c.peer = p.peer;
      c.bytes = p.bytes;
      return c;
    }
    c.op.kind = p.op_kind;
    c.op.peer = p.peer;
    (p.op_kind == core::OpKind::Compute ? c.op.flops : c.op.bytes) = p.bytes;
    return c;
  }
  static bool same(const core::Op& a, const core::Op& b) {
    return a.bytes == b.bytes && a.seconds == b.seconds && a.flops == b.flops && a.pe == b.pe && a.peer == b.peer &&
           a.flag == b.flag && a.label == b.label && a.job == b.job && a.step == b.step && a.iteration == b.iteration &&
           a.kind == b.kind && a.complete == b.complete && a.message_data == b.message_data && a.order == b.order &&
           a.io_mode == b.io_mode && a.exponential == b.exponential;
  }
  static bool same(const core::Call& a, const core::Call& b) {
    return a.kind == b.kind && same(a.op, b.op) && a.peer == b.peer && a.bytes == b.bytes && a.tag == b.tag &&
           a.blocking == b.blocking && a.mode == b.mode && a.maybe_null == b.maybe_null && a.request == b.request &&
           a.label == b.label && a.line == b.line && a.file == b.file && a.iteration == b.iteration;
  }
  // The calls the line just read made: kept whole, or packed when there are many and each packs
  // without loss (checked, so that a packed call is exactly the call).
  void take_line(int pe) {
    Rank& r = ranks_[static_cast<size_t>(pe)];
    std::vector<core::Call>& made = program_.calls(pe);
    r.next_call = 0;
    std::vector<Packed>().swap(r.packed);
    r.calls.clear();
    if (made.size() >= kPackFrom) {
      r.proto = made.front();  // what the calls share: the line's label, place and operation defaults
      r.proto.peer = -1;
      r.proto.bytes = 0;
      r.proto.op.kind = core::OpKind::Get;
      r.proto.op.peer = -1;
      r.proto.op.bytes = r.proto.op.flops = 0;
      r.packed.reserve(made.size());
      for (const core::Call& c : made) {
        r.packed.push_back(pack(c));
        if (same(unpack(r.packed.back(), r.proto), c)) continue;
        std::vector<Packed>().swap(r.packed);
        break;
      }
    }
    if (r.packed.empty()) r.calls.swap(made);
    if (made.capacity() > kPackFrom) std::vector<core::Call>().swap(made);  // a collective's: not kept
    made.clear();
  }
  static constexpr size_t kPackFrom = 16;

  struct Rank {
    Rank(TiRankReader r, int rank, core::InternTable& flags) : reader(std::move(r)), expander(rank, flags) {}
    TiRankReader reader;
    core::MessageExpander expander;
    std::vector<core::Call> calls;  // the calls of the line read last, unless packed
    std::vector<Packed> packed;     // or packed, after `proto`
    core::Call proto;
    size_t next_call = 0;  // the next of them to expand
    bool finished = false;
  };
  TiTraceText trace_;
  CollectivePlan plan_;
  core::MessageIndex index_;
  TraceProgram program_;
  core::InternTable flags_;  // the message layer's flags after the trace's own (the first reading's ids)
  std::vector<Rank> ranks_;
};

constexpr size_t kCallBatch = 4096;

// The first reading: every line checked and counted, the collectives planned, the messages indexed
// (those of the collectives in `exact` held as point-to-point messages are).
struct FirstReading {
  TraceProgram program;
  CollectivePlan plan;
  core::MessageIndex index;
  std::vector<TiRankReader> unread;  // the readers as they were before reading: for the second reading
};

FirstReading read_first(const TiTraceText& trace, const core::MessageProtocols& protocols, double max_operations,
                        bool strict, const std::set<int>& exact) {
  const int ranks = trace.ranks();
  FirstReading first{
      TraceProgram(ranks, trace.files, max_operations, strict), {}, core::MessageIndex(protocols, exact), {}};
  std::vector<TiRankReader> readers = look_ahead(first.program, trace, &first.plan);
  first.unread = readers;
  for (int rank = 0; rank < ranks; ++rank) {
    TiRankReader& reader = readers[static_cast<size_t>(rank)];
    std::vector<core::Call>& calls = first.program.calls(rank);
    reader.start_reading(first.plan[static_cast<size_t>(rank)]);
    while (reader.read_next()) {
      if (calls.size() < kCallBatch) continue;
      first.index.add(rank, calls);  // indexed in batches: a rank's calls are never all held
      calls.clear();
    }
    first.index.add(rank, calls);
    std::vector<core::Call>().swap(calls);
  }
  first.program.check_collectives();
  return first;
}
}  // namespace

LoadedWorkload load_ti_trace_streamed(const std::string& path, const core::MessageProtocols& protocols,
                                      double max_operations, bool strict) {
  TiTraceText trace = read_ti_trace_text(path);
  const int ranks = trace.ranks();
  FirstReading first = read_first(trace, protocols, max_operations, strict, {});
  bool matched = first.index.resolve();
  if (!matched && !first.index.disagreeing_collectives().empty()) {
    // Ranks disagree on some collectives' sizes: read again, holding those collectives' messages.
    const std::set<int> exact = first.index.disagreeing_collectives();
    first = read_first(trace, protocols, max_operations, strict, exact);
    matched = first.index.resolve();
  }
  if (!matched)  // the whole-trace path matches every message and names the one that fails
    return load_ti_trace(path, protocols, std::min(max_operations, core::kMaxOperations), strict);
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
  w.source = std::make_shared<TiTraceStream>(std::move(trace), std::move(first.plan), std::move(first.index), program,
                                             std::move(first.unread));
  return out;
}

}  // namespace t3sim::io
