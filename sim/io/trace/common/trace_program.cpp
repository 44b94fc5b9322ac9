#include "sim/io/trace/common/trace_program.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace t3sim::io {

void TraceProgram::begin_line() {
  if (line_ != LineFate::Closed) throw std::logic_error("trace line begun twice");
  line_ = LineFate::Open;
  ++account_.lines;
}

void TraceProgram::no_cost(const std::string& rule) {
  if (line_ != LineFate::Open) throw std::logic_error("trace line without cost after it was replayed");
  line_ = LineFate::NoCost;
  ++account_.no_cost[rule];
}

void TraceProgram::end_line(const Where& at) {
  if (line_ == LineFate::Open)
    throw std::logic_error(fmt::format("{}:{}: {}: the trace reader neither replayed this line nor named a rule",
                                       files_[static_cast<size_t>(at.file)], at.line, at.label));
  if (line_ == LineFate::Replayed) ++account_.replayed;
  line_ = LineFate::Closed;
}

void TraceProgram::warn(const SourcePos& pos, const std::string& key, const std::string& what,
                        const std::string& detail) {
  if (replay_) return;
  if (strict_)
    throw InputError(pos, key, what + (detail.empty() ? "" : " (" + detail + ")") + " (an error under --strict)");
  for (TraceWarning& w : account_.warnings)
    if (w.key == key && w.what == what) {
      ++w.lines;
      return;
    }
  account_.warnings.push_back({pos, key, what, detail, 1});
}

core::Call TraceProgram::call(core::Call::Kind kind, const Where& at) {
  if (line_ == LineFate::NoCost) throw std::logic_error("trace line replayed after it was given no cost");
  if (line_ == LineFate::Open) line_ = LineFate::Replayed;
  core::Call c;
  c.kind = kind;
  c.label = labels_.intern(at.label);
  c.line = at.line;
  c.file = at.file;
  c.iteration = at.iteration;
  return c;
}

void TraceProgram::count(const Where& at) {
  if (replay_) return;
  if (++calls_ > max_calls_)
    throw InputError({files_[static_cast<size_t>(at.file)], at.line, 0}, at.label,
                     fmt::format("the trace expands to more than the limit of {:.3g} operations", max_calls_));
}

void TraceProgram::shmem(int pe, core::Op op, const Where& at) {
  count(at);
  core::Call c = call(core::Call::Kind::Shmem, at);
  c.op = std::move(op);
  programs_[static_cast<size_t>(pe)].push_back(std::move(c));
}

int TraceProgram::message(int pe, core::Call::Kind kind, int peer, double bytes, int tag, bool blocking,
                          const Where& at, core::Call::Mode mode, bool maybe_null) {
  count(at);
  core::Call c = call(kind, at);
  c.peer = peer;
  c.bytes = bytes;
  c.tag = tag;
  c.blocking = blocking;
  c.mode = mode;
  c.maybe_null = maybe_null;
  if (!blocking) c.request = next_request_[static_cast<size_t>(pe)]++;
  programs_[static_cast<size_t>(pe)].push_back(c);
  return c.request;
}

void TraceProgram::wait_request(int pe, int request, const Where& at) {
  core::Call c = call(core::Call::Kind::WaitRequest, at);
  c.request = request;
  programs_[static_cast<size_t>(pe)].push_back(std::move(c));
}

void TraceProgram::wait_all(int pe, const Where& at) {
  programs_[static_cast<size_t>(pe)].push_back(call(core::Call::Kind::WaitAll, at));
}

void TraceProgram::collective(int pe, const core::CollectiveCall& c, const Where& at) {
  // the PE's k-th collective is instance k on every PE: finish() checks they all run the same ones
  // (the replay of a checked program keeps only their count)
  auto& uses = collectives_[static_cast<size_t>(pe)];
  if (!replay_) uses.push_back({c.kind, at});
  collective_instance(pe, c, at, {}, collectives_made_[static_cast<size_t>(pe)]++);
}

void TraceProgram::collective_instance(int pe, core::CollectiveCall c, const Where& at, const std::vector<int>& group,
                                       int instance) {
  auto& program = programs_[static_cast<size_t>(pe)];
  const size_t before = program.size();
  const int tag = -1 - instance;  // apart from the program's tags (>= 0)
  if (group.empty()) {
    core::append_collective(program, c, pe, pes(), tag, call(core::Call::Kind::Shmem, at),
                            &next_request_[static_cast<size_t>(pe)]);
  } else {
    // Expanded among the group's ranks numbered 0..g-1, then renamed to PEs. The barrier hardware
    // spans the job: a group's barrier is a zero-byte allreduce.
    if (c.kind == core::Collective::Barrier) c = {core::Collective::Allreduce, 0, 0, 0};
    const int rank = static_cast<int>(std::lower_bound(group.begin(), group.end(), pe) - group.begin());
    const int size = static_cast<int>(group.size());
    if (c.root >= size) {  // not relative to the group: the group's PE of that number, else its first
      const auto it = std::lower_bound(group.begin(), group.end(), c.root);
      c.root = it != group.end() && *it == c.root ? static_cast<int>(it - group.begin()) : 0;
    }
    core::append_collective(program, c, rank, size, tag, call(core::Call::Kind::Shmem, at),
                            &next_request_[static_cast<size_t>(pe)]);
    auto to_pe = [&](int member) { return member >= 0 ? group[static_cast<size_t>(member)] : member; };
    for (size_t i = before; i < program.size(); ++i) {
      core::Call& made = program[i];
      if (made.kind == core::Call::Kind::Send || made.kind == core::Call::Kind::Recv) made.peer = to_pe(made.peer);
      if (made.kind == core::Call::Kind::Shmem) made.op.peer = to_pe(made.op.peer);
    }
  }
  for (size_t i = before; i < program.size(); ++i) count(at);
}

TraceProgram TraceProgram::replay_of(const TraceProgram& first) {
  TraceProgram p(first.pes(), first.files_, first.max_calls_, false);
  p.flags_ = first.flags_;
  p.labels_ = first.labels_;
  p.replay_ = true;
  return p;
}

void TraceProgram::null_receives(size_t received) {
  if (received == 0) return;  // lines read as receives that turned out to be from MPI_PROC_NULL
  account_.replayed -= received;
  account_.no_cost["receive from -333 that no send matches (MPI_PROC_NULL)"] += received;
}

void TraceProgram::check_collectives() const {
  auto located = [&](const Where& at) { return SourcePos{files_[static_cast<size_t>(at.file)], at.line, 0}; };
  // Every PE must run the same collectives in the same order, or their messages would cross.
  const auto& first = collectives_.front();
  for (size_t pe = 1; pe < collectives_.size(); ++pe) {
    const auto& mine = collectives_[pe];
    for (size_t k = 0; k < std::max(first.size(), mine.size()); ++k) {
      if (k < first.size() && k < mine.size() && first[k].kind == mine[k].kind) continue;
      const bool short_here = k >= mine.size();
      const CollectiveUse& shown = short_here ? first[k] : mine[k];
      const std::string what =
          short_here
              ? fmt::format("PE {} runs only {} collectives; PE 0's collective {} is here", pe, mine.size(), k + 1)
          : k >= first.size()
              ? fmt::format("PE {}'s collective {} ({}) has no counterpart: PE 0 runs only {}", pe, k + 1,
                            core::enum_name(mine[k].kind), first.size())
              : fmt::format("PE {}'s collective {} is {} but PE 0's is {} (line {})", pe, k + 1,
                            core::enum_name(mine[k].kind), core::enum_name(first[k].kind), first[k].at.line);
      throw InputError(located(shown.at), core::enum_name(shown.kind),
                       "every PE must run the same collectives in the same order: " + what);
    }
  }
}

core::Workload TraceProgram::finish(const std::string& name, const std::string& doc,
                                    const core::MessageProtocols& protocols) {
  check_collectives();
  core::Workload w;
  w.name = name;
  w.doc = doc;
  w.pes = pes();
  w.step_unit = "line";
  w.flags = flags_;
  w.labels = labels_;
  try {
    size_t null_receives = 0;
    w.ops = core::expand_messages(std::move(programs_), protocols, w.flags, &null_receives);
    this->null_receives(null_receives);
  } catch (const core::MessageError& e) {
    throw InputError({files_[static_cast<size_t>(e.file())], e.line(), 0}, "message", e.what());
  }
  return w;
}

}  // namespace t3sim::io
