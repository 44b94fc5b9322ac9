#include "sim/core/pe_interpreter.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/core/op_description.hpp"

namespace t3sim::core {

PeInterpreter::PeInterpreter(const CostModel& cost, const Workload& workload, Transport& transport)
    : cost_(cost),
      transport_(transport),
      workload_(workload),
      records_(static_cast<size_t>(workload.pes)),
      step_unit_(workload.step_unit) {
  auto programs = workload.program_indices();
  pes_.resize(static_cast<size_t>(workload.pes));
  for (size_t pe = 0; pe < pes_.size(); ++pe) {
    pes_[pe].program = std::move(programs[pe]);
    records_[pe].reserve(pes_[pe].program.size());  // one record per operation
  }
  for (size_t j = 0; j < workload.job_first_pe.size(); ++j)
    jobs_.push_back({workload.job_first_pe[j], workload.job_size(static_cast<int>(j)), 0});
  for (int pe = 0; pe < workload.pes; ++pe) job_of_.push_back(workload.job_of(pe));
}

void PeInterpreter::start() {
  for (int pe = 0; pe < static_cast<int>(pes_.size()); ++pe) transport_.after(0, [this, pe] { advance(pe); });
}

void PeInterpreter::transfer(int src, int dst, double bytes, FlowKind kind, int iteration, Callback then,
                             FlowNote note) {
  const double start = transport_.now();
  transport_.after(cost_.latency(src, dst), [this, src, dst, bytes, kind, iteration, start, note,
                                             then = std::move(then)]() mutable {
    const double flow_start = transport_.now();
    transport_.flow(src, dst, bytes, kind,
                    [this, src, dst, bytes, kind, iteration, start, flow_start, note, then = std::move(then)] {
                      if (note.pe >= 0) {
                        const double flow = transport_.now() - flow_start;
                        auto& recs = records_[static_cast<size_t>(note.pe)];
                        if (note.op < recs.size())
                          recs[note.op].flow = flow;  // the call has returned (a non-blocking put)
                        else
                          pes_[static_cast<size_t>(note.pe)].flow_time = flow;
                      }
                      if (iteration >= 0) {
                        const bool pulled = kind == FlowKind::GetData || kind == FlowKind::MessageData;
                        transfers_.push_back({src, dst, bytes, start, transport_.now(), iteration, pulled ? dst : src});
                      }
                      then();
                    });
  });
}

void PeInterpreter::advance(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  while (!s.finished) {
    s.op_start = transport_.now();
    s.flow_time = 0;
    if (!start_op(pe)) return;
    record(pe);
  }
}

void PeInterpreter::record(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.next == s.program.size()) {  // the final quiet
    s.finished = true;
    end_time_ = std::max(end_time_, transport_.now());
    return;
  }
  const Op& op = op_at(s);
  const bool background = op.kind == OpKind::Put && !op.complete && op.peer != pe;
  records_[static_cast<size_t>(pe)].push_back({op.step, op.iteration, op.label, op.kind, pe, op.peer, op.bytes,
                                               s.op_start, transport_.now(), s.flow_time, background});
  ++s.next;
}

void PeInterpreter::complete_op(int pe) {
  record(pe);
  advance(pe);
}

bool PeInterpreter::start_op(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.next == s.program.size()) {  // a PE's program ends when its puts are delivered
    if (s.in_flight == 0) return true;
    s.when_quiet = [this, pe] { complete_op(pe); };
    return false;
  }
  const Op& op = op_at(s);
  const SoftwareProfile& p = cost_.profile();
  auto done = [this, pe] { complete_op(pe); };
  switch (op.kind) {
    case OpKind::Get:
    case OpKind::Atomic:
    case OpKind::Put:
      if (op.peer == pe) {
        s.flow_time = op.bytes / p.copy_bandwidth;  // the copy itself, without the call's set-up
        const NameId flag = op.kind == OpKind::Put ? op.flag : kNoName;
        transport_.after(cost_.local_copy_time(op.bytes), [this, pe, flag, done] {
          if (flag != kNoName) signal(pe, flag);  // a put to itself signals like any other (MPI's send to self)
          done();
        });
      } else if (op.kind != OpKind::Put) {  // get or atomic: request out, data back
        const int peer = op.peer;
        const double bytes = op.bytes;
        const int iteration = op.iteration;
        const FlowKind data = op.message_data ? FlowKind::MessageData : FlowKind::GetData;
        const FlowNote note{pe, s.next};
        transport_.after(p.call_overhead, [this, pe, peer, bytes, iteration, data, note, done] {
          transfer(pe, peer, cost_.machine().network.request_bytes, FlowKind::GetRequest, -1,
                   [this, pe, peer, bytes, iteration, data, note, done] {
                     transfer(peer, pe, bytes, data, iteration, done, note);
                   });
        });
      } else if (op.flag == kNoName || op.order == SignalOrder::OnArrival) {
        const int dst = op.peer;
        const double bytes = op.bytes;
        const int iteration = op.iteration;
        const NameId flag = op.flag;
        const bool blocking = op.complete;
        const FlowNote note{pe, s.next};
        transport_.after(p.call_overhead, [this, pe, dst, bytes, iteration, flag, blocking, note, done] {
          // Non-blocking: the PE goes on; the put continues in the background until its quiet.
          start_put(pe, dst, bytes, iteration, flag, false, !blocking, note, blocking ? done : Callback());
          if (!blocking) done();
        });
      } else {  // a data put with a signal: put, fence or quiet, flag put
        const int dst = op.peer;
        const double bytes = op.bytes;
        const int iteration = op.iteration;
        const NameId flag = op.flag;
        const bool blocking = op.complete;
        const bool fence = op.order == SignalOrder::Fence;
        const FlowNote note{pe, s.next};
        transport_.after(p.call_overhead, [this, pe, dst, bytes, iteration, flag, blocking, fence, note, done] {
          start_put(pe, dst, bytes, iteration, kNoName, false, true, note, Callback());
          Callback flag_put = [this, pe, dst, flag, blocking, done] {
            transport_.after(cost_.profile().call_overhead, [this, pe, dst, flag, blocking, done] {
              start_put(pe, dst, kFlagWordBytes, -1, flag, true, true, FlowNote{}, Callback());
              if (blocking)
                when_quiet(pe, done);
              else
                done();
            });
          };
          if (fence)
            after_sync(std::move(flag_put));
          else
            after_sync([this, pe, flag_put = std::move(flag_put)]() mutable { when_quiet(pe, std::move(flag_put)); });
        });
      }
      return false;
    case OpKind::Quiet:
      if (p.sync_overhead <= 0) {  // no event of its own: the wait alone
        if (s.in_flight == 0) return true;
        s.when_quiet = done;
        return false;
      }
      transport_.after(p.sync_overhead, [this, pe, done] { when_quiet(pe, done); });
      return false;
    case OpKind::Wait: {
      const NameId flag = op.flag;
      auto it = s.signalled.find(flag);
      if (it != s.signalled.end() && it->second > 0) {
        --it->second;
        return true;
      }
      s.waiting_flag = flag;
      return false;
    }
    case OpKind::Overhead:
    case OpKind::MpiSend:
    case OpKind::MpiRecv:
    case OpKind::Compute:
      transport_.after(cost_.uncontended_time(op), done);
      return false;
    case OpKind::Barrier: {
      Job& job = jobs_[static_cast<size_t>(job_of_[static_cast<size_t>(pe)])];
      if (++job.arrived == job.size) {
        job.arrived = 0;
        for (int q = job.first_pe; q < job.first_pe + job.size; ++q)
          transport_.after(p.barrier_latency, [this, q] { complete_op(q); });
      }
      return false;
    }
  }
  return false;
}

void PeInterpreter::start_put(int pe, int dst, double bytes, int iteration, NameId flag, bool ordered, bool background,
                              FlowNote note, Callback acked) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (background) ++s.in_flight;
  Pe::TargetPuts& t = s.to[dst];
  const uint64_t seq = t.issued++;
  t.pending.insert(seq);
  transfer(
      pe, dst, bytes, FlowKind::Put, iteration,
      [this, pe, dst, seq, flag, ordered, background, acked = std::move(acked)]() mutable {
        Pe::TargetPuts& tp = pes_[static_cast<size_t>(pe)].to[dst];
        if (flag != kNoName) {
          // Fenced: the flag rises once every earlier put to dst has landed (this one is the last).
          if (ordered && !tp.pending.empty() && *tp.pending.begin() < seq)
            tp.held.emplace_back(seq, flag);
          else
            signal(dst, flag);
        }
        landed(pe, dst, seq);
        transport_.after(cost_.latency(dst, pe), [this, pe, background, acked = std::move(acked)] {
          if (background) put_acknowledged(pe);
          if (acked) acked();
        });
      },
      note);
}

void PeInterpreter::landed(int pe, int dst, uint64_t seq) {
  auto& to = pes_[static_cast<size_t>(pe)].to;
  auto it = to.find(dst);
  Pe::TargetPuts& t = it->second;
  t.pending.erase(seq);
  // Release every held flag whose earlier puts have all landed, in the order they were held.
  size_t kept = 0;
  for (size_t i = 0; i < t.held.size(); ++i) {
    if (t.pending.empty() || *t.pending.begin() > t.held[i].first)
      signal(dst, t.held[i].second);
    else
      t.held[kept++] = t.held[i];
  }
  t.held.resize(kept);
  // Nothing of this target left to order: forget it (numbering may start again, as no put of it is
  // in flight), so a PE that has talked to every other keeps no per-target state.
  if (t.pending.empty() && t.held.empty()) to.erase(it);
}

void PeInterpreter::put_acknowledged(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (--s.in_flight == 0 && s.when_quiet) {
    Callback then = std::move(s.when_quiet);
    s.when_quiet = nullptr;
    then();
  }
}

void PeInterpreter::when_quiet(int pe, Callback then) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.in_flight == 0) return then();
  s.when_quiet = std::move(then);
}

void PeInterpreter::after_sync(Callback then) {
  const double t = cost_.profile().sync_overhead;
  if (t <= 0) return then();
  transport_.after(t, std::move(then));
}

void PeInterpreter::signal(int pe, NameId flag) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.waiting_flag == flag) {
    s.waiting_flag = kNoName;
    transport_.after(0, [this, pe] { complete_op(pe); });
  } else {
    ++s.signalled[flag];
  }
}

RunResult PeInterpreter::take_result() {
  const std::string waiting = stuck();
  if (!waiting.empty())
    throw std::runtime_error("deadlock: the run cannot finish at t = " + std::to_string(transport_.now() * 1e6) +
                             " us;" + waiting);
  RunResult r;
  r.machine = cost_.machine().name;
  r.profile = cost_.profile().name;
  r.workload = workload_.name;
  r.pes = workload_.pes;
  r.swap_iterations = workload_.swap_iterations;
  size_t n = 0;
  for (const auto& v : records_) n += v.size();
  r.records.reserve(n);
  for (auto& v : records_)
    for (auto& rec : v) r.records.push_back(rec);
  records_.clear();
  r.makespan = end_time_;
  for (const auto& rec : r.records) r.makespan = std::max(r.makespan, rec.end);
  sort_records(r.records);
  r.labels = workload_.labels;
  r.transfers = std::move(transfers_);
  sort_transfers(r.transfers);
  r.placement = cost_.placement().description();
  return r;
}

std::string PeInterpreter::stuck() const {
  std::string out;
  for (size_t pe = 0; pe < pes_.size(); ++pe) {
    const Pe& s = pes_[pe];
    if (s.finished) continue;
    out += stuck_line(pe, s.next < s.program.size() ? describe_op(op_at(s), step_unit_, workload_.flags) : kFinalQuiet);
  }
  return out;
}

}  // namespace t3sim::core
