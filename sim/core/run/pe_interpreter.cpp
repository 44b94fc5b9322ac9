#include "sim/core/run/pe_interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/program/op_description.hpp"

namespace t3sim::core {

namespace {
// hops_ is kept for machines of at most this many nodes (a byte per pair: 4 MiB at most).
constexpr int kMostNodesForHops = 2048;
}  // namespace

PeInterpreter::PeInterpreter(const CostModel& cost, const Workload& workload, Transport& transport)
    : cost_(cost),
      transport_(transport),
      workload_(workload),
      records_(static_cast<size_t>(workload.pes)),
      last_end_(workload.summed_records ? static_cast<size_t>(workload.pes) : 0, 0.0),
      step_unit_(workload.step_unit) {
  auto programs = workload.program_indices();
  pes_.resize(static_cast<size_t>(workload.pes));
  for (size_t pe = 0; pe < pes_.size(); ++pe) {
    Pe& s = pes_[pe];
    s.program = std::move(programs[pe]);
    records_[pe].reserve(s.program.size());  // one record per operation
    // The PE's loops: the positions of its operations inside each repeated block (indices ascend).
    size_t r = 0;
    for (size_t i = 0; i < s.program.size(); ++i) {
      const uint32_t op = s.program[i];
      while (r < workload.repeats.size() && workload.repeats[r].end_op <= op) ++r;
      if (r == workload.repeats.size() || op < workload.repeats[r].first_op) continue;
      if (s.loops.empty() || s.loops.back().repeat != r)
        s.loops.push_back({i, i + 1, workload.repeats[r].count, r});
      else
        s.loops.back().end = i + 1;  // a repeat's operations are consecutive in a PE's program
    }
    for (const Loop& l : s.loops) {
      if (l.count == 0 && workload.job_of(static_cast<int>(pe)) == 0)
        throw ModelError("workload '" + workload.name +
                         "' repeats until the main job has finished, yet it is the main job: run it as "
                         "a background job (--background)");
    }
  }
  if (workload.source) {
    for (int pe = 0; pe < workload.source->pes(); ++pe) {
      Pe& s = pes_[static_cast<size_t>(pe)];
      if (!s.program.empty()) throw std::logic_error("a streamed PE has operations of its own");
      s.streamed = true;
      workload.source->next_ops(pe, s.window);
    }
  }
  fences_ = workload.source != nullptr || std::any_of(workload.ops.begin(), workload.ops.end(), [](const Op& op) {
              return op.kind == OpKind::Put && op.flag != kNoName && op.order != SignalOrder::OnArrival;
            });
  for (size_t j = 0; j < workload.job_first_pe.size(); ++j)
    jobs_.push_back({workload.job_first_pe[j], workload.job_size(static_cast<int>(j)), 0});
  for (int pe = 0; pe < workload.pes; ++pe) job_of_.push_back(workload.job_of(pe));
  main_left_ = workload.job_size(0);
  nodes_ = cost.machine().torus().node_count();
  if (nodes_ <= kMostNodesForHops) hops_.assign(static_cast<size_t>(nodes_) * static_cast<size_t>(nodes_), 0);
  if (cost.machine().has_io())
    io_ = std::make_unique<FileIo>(cost, transport, workload.pes, workload.job_size(0));
  else if (workload.has_io())
    throw ModelError("the workload writes or reads files, and machine '" + cost.machine().name +
                     "' has no I/O nodes (its file has no io section)");
}

void PeInterpreter::start() {
  for (int pe = 0; pe < static_cast<int>(pes_.size()); ++pe) transport_.after(0, task(Step::Advance, pe));
}

void PeInterpreter::run_task(int what, int id) {
  switch (static_cast<Step>(what)) {
    case Step::Advance:
      return advance(id);
    case Step::CompleteOp:
      return complete_op(id);
    case Step::IssuePut:
      return issue_put(id);
    case Step::StartFlow:
      return start_flow(id);
    case Step::EndFlow:
      return end_flow(id);
    case Step::PutAcked:
      return put_acked(id);
  }
}

int PeInterpreter::add_movement(int src, int dst, double bytes, FlowKind kind, int iteration, FlowNote note,
                                int landing, int then) {
  const int id = movements_.take();
  movements_[id] = {src, dst, bytes, kind, iteration, transport_.now(), 0, note, landing, then};
  return id;
}

void PeInterpreter::launch(int id) {
  if (transport_.times_latency()) return start_flow(id);
  const Movement& m = movements_[id];
  transport_.after(path_latency(m.src, m.dst), task(Step::StartFlow, id));
}

double PeInterpreter::path_latency(int src, int dst) {
  const int a = cost_.placement().node_of(src);
  const int b = cost_.placement().node_of(dst);
  if (hops_.empty() || a >= nodes_ || b >= nodes_) return cost_.latency(src, dst);
  uint8_t& known = hops_[static_cast<size_t>(a) * static_cast<size_t>(nodes_) + static_cast<size_t>(b)];
  if (known == 0) {
    const int h = cost_.hops(src, dst);
    if (h >= 255) return cost_.latency_of_hops(h);  // too far to keep (no torus of the project's is)
    known = static_cast<uint8_t>(h + 1);
  }
  return cost_.latency_of_hops(known - 1);
}

void PeInterpreter::transfer(int src, int dst, double bytes, FlowKind kind, int iteration, Callback then,
                             FlowNote note) {
  launch(add_movement(src, dst, bytes, kind, iteration, note, -1, callbacks_.put(std::move(then))));
}

void PeInterpreter::transfer_put(int put, int src, int dst, double bytes, int iteration, FlowNote note) {
  launch(add_movement(src, dst, bytes, FlowKind::Put, iteration, note, put, -1));
}

void PeInterpreter::start_flow(int id) {
  Movement& m = movements_[id];
  m.flow_start = transport_.now();
  transport_.flow(m.src, m.dst, m.bytes, m.kind, task(Step::EndFlow, id));
}

void PeInterpreter::end_flow(int id) {
  Movement& m = movements_[id];
  if (m.note.pe >= 0) {
    const double flow = transport_.now() - m.flow_start;
    Pe& owner = pes_[static_cast<size_t>(m.note.pe)];
    if (owner.executed > m.note.seq)  // the call has returned (a non-blocking put)
      records_[static_cast<size_t>(m.note.pe)][m.note.record].flow += flow;
    else
      owner.flow_time = flow;
  }
  if (m.iteration >= 0) {
    const bool pulled = m.kind == FlowKind::GetData || m.kind == FlowKind::MessageData;
    add_transfer({m.src, m.dst, m.bytes, m.start, transport_.now(), m.iteration, pulled ? m.dst : m.src});
    if (m.note.repeated && !workload_.summed_records)
      repeated_transfers_.push_back({transfers_.size() - 1, m.note.pe, m.note.record});
  }
  const int landing = m.landing;
  const int then = m.then;
  movements_.release(id);  // before what follows, which may start another
  if (landing >= 0)
    put_landed(landing);
  else
    callbacks_.take(then)();
}

void PeInterpreter::add_transfer(const Transfer& t) {
  if (!workload_.summed_records) return transfers_.push_back(t);
  // One transfer per pair, direction, measurement and mover: its bytes summed, its end its start plus
  // the transfers' durations summed (so bytes / (end - start) is their mean rate).
  const uint64_t key = (static_cast<uint64_t>(t.src) << 40) ^ (static_cast<uint64_t>(t.dst) << 16) ^
                       (static_cast<uint64_t>(t.iteration & 0x7fff) << 1) ^ static_cast<uint64_t>(t.initiator == t.dst);
  const auto [it, made] = summed_transfers_.try_emplace(key, transfers_.size());
  if (made) return transfers_.push_back(t);
  Transfer& sum = transfers_[it->second];
  sum.bytes += t.bytes;
  sum.end += t.end - t.start;
}

size_t PeInterpreter::summed_record(int pe, const Op& op) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  const uint64_t key = (static_cast<uint64_t>(op.label) << 32) ^ (static_cast<uint64_t>(op.kind) << 24) ^
                       static_cast<uint64_t>(op.iteration & 0xffffff);
  auto& recs = records_[static_cast<size_t>(pe)];
  const auto [it, made] = s.summed.try_emplace(key, static_cast<uint32_t>(recs.size()));
  if (made) {
    OpRecord r{op.step, op.iteration, op.label, op.kind, pe, op.peer, 0, s.op_start, s.op_start, 0, false};
    r.repeats = 0;
    recs.push_back(r);
  }
  return it->second;
}

void PeInterpreter::step_on(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  ++s.next;
  if (!s.streamed || s.next < s.window.size()) return;
  s.window.clear();
  s.next = 0;
  workload_.source->next_ops(pe, s.window);  // nothing more: the window stays empty, at its end
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

const PeInterpreter::Loop* PeInterpreter::current_loop(const Pe& s) const {
  if (s.loop >= s.loops.size() || s.next < s.loops[s.loop].begin) return nullptr;
  return &s.loops[s.loop];
}

size_t PeInterpreter::record_index(int pe) {
  const Pe& s = pes_[static_cast<size_t>(pe)];
  if (workload_.summed_records) return summed_record(pe, op_at(s));
  const Loop* l = current_loop(s);
  if (l != nullptr && s.repetition > 0) return s.loop_record + (s.next - l->begin);
  return records_[static_cast<size_t>(pe)].size();
}

FlowNote PeInterpreter::note_of(int pe) {
  const Pe& s = pes_[static_cast<size_t>(pe)];
  return {pe, record_index(pe), s.executed, current_loop(s) != nullptr};
}

int PeInterpreter::listed_iteration(const Pe& s, const Op& op) const {
  return current_loop(s) != nullptr && s.repetition > 0 ? -1 : op.iteration;
}

double PeInterpreter::exponential_draw(int pe, double mean) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (!s.random) {  // each PE its own stream: the draws do not depend on the order PEs run in
    uint64_t z = workload_.seed + 0x9E3779B97F4A7C15ULL * (static_cast<uint64_t>(pe) + 1);  // splitmix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    s.random = std::make_unique<std::mt19937_64>(z ^ (z >> 31));
  }
  const double u = static_cast<double>((*s.random)() >> 11) * 0x1.0p-53;  // uniform in [0, 1)
  return -mean * std::log1p(-u);
}

void PeInterpreter::finished(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  s.finished = true;
  end_time_ = std::max(end_time_, transport_.now());
  if (job_of_[static_cast<size_t>(pe)] == 0 && --main_left_ == 0) main_end_ = transport_.now();
}

void PeInterpreter::record(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (at_end(s)) return finished(pe);  // the final quiet
  const Op& op = op_at(s);
  const bool background = op.kind == OpKind::Put && !op.complete && op.peer != pe;
  auto& recs = records_[static_cast<size_t>(pe)];
  const Loop* loop = current_loop(s);
  if (workload_.summed_records) {  // one record per label, kind and measurement: durations summed
    last_end_[static_cast<size_t>(pe)] = transport_.now();
    OpRecord& r = recs[summed_record(pe, op)];
    r.end += transport_.now() - s.op_start;
    r.flow += s.flow_time;
    ++r.repeats;
    r.bytes = std::max(r.bytes, op.bytes);  // one call's, as a repeated record's: the largest
    if (r.peer != op.peer) r.peer = -1;
    r.background = r.background || background;
  } else if (loop != nullptr && s.repetition > 0) {  // a later repetition: summed into the first's record
    OpRecord& r = recs[s.loop_record + (s.next - loop->begin)];
    r.end += transport_.now() - s.op_start;
    r.flow += s.flow_time;
    ++r.repeats;
  } else {
    if (loop != nullptr && s.next == loop->begin) s.loop_record = recs.size();
    recs.push_back({op.step, op.iteration, op.label, op.kind, pe, op.peer, op.bytes, s.op_start, transport_.now(),
                    s.flow_time, background});
  }
  ++s.executed;
  step_on(pe);
  if (loop != nullptr && s.next == loop->end) {
    ++s.repetition;
    const bool again = loop->count > 0 ? s.repetition < loop->count : main_left_ > 0;
    if (again) {
      s.next = loop->begin;
    } else {
      s.repetition = 0;
      ++s.loop;
    }
  }
}

void PeInterpreter::complete_op(int pe) {
  record(pe);
  advance(pe);
}

bool PeInterpreter::start_op(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (at_end(s)) {  // a PE's program ends when its files are closed and its puts delivered
    if (io_ && !s.files_closed) {
      s.files_closed = true;
      if (!io_->idle(pe)) {
        io_->close_all(pe, [this, pe] { advance(pe); });
        return false;
      }
    }
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
      if (op.peer == pe && !op.loopback) {
        s.flow_time = op.bytes / p.copy_bandwidth;  // the copy itself, without the call's set-up
        const NameId flag = op.kind == OpKind::Put ? op.flag : kNoName;
        transport_.after(cost_.local_copy_time(op.bytes), [this, pe, flag, done] {
          if (flag != kNoName) signal(pe, flag);  // a put to itself signals like any other (MPI's send to self)
          done();
        });
      } else if (op.kind != OpKind::Put) {  // get or atomic: request out, data back
        const int peer = op.peer;
        const double bytes = op.bytes;
        const int iteration = listed_iteration(s, op);
        const FlowKind data = op.message_data ? FlowKind::MessageData : FlowKind::GetData;
        const FlowNote note = note_of(pe);
        transport_.after(p.call_overhead, [this, pe, peer, bytes, iteration, data, note, done] {
          transfer(pe, peer, cost_.machine().network.request_bytes, FlowKind::GetRequest, -1,
                   [this, pe, peer, bytes, iteration, data, note, done] {
                     transfer(peer, pe, bytes, data, iteration, done, note);
                   });
        });
      } else if (op.flag == kNoName || op.order == SignalOrder::OnArrival) {
        // The call's overhead, then the put (its values read again then: the PE is still at this op).
        transport_.after(p.call_overhead, task(Step::IssuePut, pe));
      } else {  // a data put with a signal: put, fence or quiet, flag put
        const int dst = op.peer;
        const double bytes = op.bytes;
        const int iteration = listed_iteration(s, op);
        const NameId flag = op.flag;
        const bool blocking = op.complete;
        const bool fence = op.order == SignalOrder::Fence;
        const FlowNote note = note_of(pe);
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
    case OpKind::Compute:
      if (op.exponential) {
        transport_.after(exponential_draw(pe, op.seconds), task(Step::CompleteOp, pe));
        return false;
      }
      [[fallthrough]];
    case OpKind::Overhead:
    case OpKind::MpiSend:
    case OpKind::MpiRecv:
    case OpKind::MpiCollective:
      transport_.after(cost_.uncontended_time(op), task(Step::CompleteOp, pe));
      return false;
    case OpKind::Write:
      io_->write(pe, op, done);
      return false;
    case OpKind::Read:
      io_->read(pe, op, done);
      return false;
    case OpKind::Close:
      if (io_->idle(pe, op.peer)) return true;
      io_->close(pe, op.peer, done);
      return false;
    case OpKind::Barrier: {
      Job& job = jobs_[static_cast<size_t>(job_of_[static_cast<size_t>(pe)])];
      if (++job.arrived == job.size) {
        job.arrived = 0;
        for (int q = job.first_pe; q < job.first_pe + job.size; ++q)
          transport_.after(p.barrier_latency, task(Step::CompleteOp, q));
      }
      return false;
    }
  }
  return false;
}

void PeInterpreter::issue_put(int pe) {
  // Non-blocking: the PE goes on; the put continues in the background until its quiet. With
  // outstanding_puts in flight already, it first waits for one to be acknowledged.
  Pe& s = pes_[static_cast<size_t>(pe)];
  const Op& op = op_at(s);
  const double limit = cost_.profile().outstanding_puts;
  if (!op.complete && limit > 0 && s.in_flight >= limit) {
    s.waiting_slot = true;  // put_acknowledged issues it
    return;
  }
  issue_put_now(pe);
}

void PeInterpreter::issue_put_now(int pe) {
  const Pe& s = pes_[static_cast<size_t>(pe)];
  const Op& op = op_at(s);
  const bool blocking = op.complete;
  start_put(pe, op.peer, op.bytes, listed_iteration(s, op), op.flag, false, !blocking, note_of(pe),
            blocking ? Callback([this, pe] { complete_op(pe); }) : Callback());
  if (!blocking) complete_op(pe);
}

void PeInterpreter::start_put(int pe, int dst, double bytes, int iteration, NameId flag, bool ordered, bool background,
                              FlowNote note, Callback acked) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (background) ++s.in_flight;
  // Puts are numbered per target only when a fence may order a flag behind them.
  Pe::TargetPuts* t = fences_ ? &s.to[dst] : nullptr;  // stays put until this put has landed
  const int id = puts_.take();
  const int acked_slot = acked ? callbacks_.put(std::move(acked)) : -1;
  puts_[id] = {pe, dst, t, t != nullptr ? t->issued++ : 0, flag, ordered, background, acked_slot};
  transfer_put(id, pe, dst, bytes, iteration, note);
}

void PeInterpreter::put_landed(int id) {
  const PutInFlight& put = puts_[id];
  const int pe = put.pe, dst = put.dst;
  if (put.flag != kNoName) {
    // Fenced: the flag rises once every earlier put to dst has landed (this one is the last).
    if (put.ordered && put.to->first_pending() < put.seq)
      put.to->held.emplace_back(put.seq, put.flag);
    else
      signal(dst, put.flag);
  }
  if (put.to != nullptr) landed(pe, dst, *put.to, put.seq);
  if (transport_.acknowledges_with_packets())
    transport_.flow(dst, pe, 0, FlowKind::Ack, task(Step::PutAcked, id));
  else
    transport_.after(path_latency(dst, pe), task(Step::PutAcked, id));
}

void PeInterpreter::put_acked(int id) {
  PutInFlight& put = puts_[id];
  const int pe = put.pe;
  const bool background = put.background;
  const int acked = put.acked;
  puts_.release(id);
  if (background) put_acknowledged(pe);
  if (acked >= 0) callbacks_.take(acked)();
}

void PeInterpreter::Pe::TargetPuts::land(uint64_t seq) {
  if (seq != landed_below) {
    landed_early.insert(seq);
    return;
  }
  ++landed_below;
  while (!landed_early.empty() && *landed_early.begin() == landed_below) {
    landed_early.erase(landed_early.begin());
    ++landed_below;
  }
}

void PeInterpreter::landed(int pe, int dst, Pe::TargetPuts& t, uint64_t seq) {
  t.land(seq);
  // Release every held flag whose earlier puts have all landed, in the order they were held.
  size_t kept = 0;
  for (size_t i = 0; i < t.held.size(); ++i) {
    if (t.quiet() || t.first_pending() > t.held[i].first)
      signal(dst, t.held[i].second);
    else
      t.held[kept++] = t.held[i];
  }
  t.held.resize(kept);
  // Nothing of this target left to order: forget it (numbering may start again, as no put of it is
  // in flight), so a PE that has talked to every other keeps no per-target state.
  if (t.quiet() && t.held.empty()) pes_[static_cast<size_t>(pe)].to.erase(dst);
}

void PeInterpreter::put_acknowledged(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  --s.in_flight;
  if (s.waiting_slot) {  // a non-blocking put waits for a slot (outstanding_puts): this was it
    s.waiting_slot = false;
    issue_put_now(pe);
  }
  if (s.in_flight == 0 && s.when_quiet) {
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
    transport_.after(0, task(Step::CompleteOp, pe));
  } else {
    ++s.signalled[flag];
  }
}

RunResult PeInterpreter::take_result() {
  const std::string waiting = stuck();
  if (!waiting.empty())
    throw ModelError("deadlock: the run cannot finish at t = " + std::to_string(transport_.now() * 1e6) + " us;" +
                     waiting);
  RunResult r;
  r.machine = cost_.machine().name;
  r.profile = cost_.profile().name;
  r.workload = workload_.name;
  r.pes = workload_.pes;
  r.swap_iterations = workload_.swap_iterations;
  for (const RepeatedTransfer& t : repeated_transfers_) {
    const auto& recs = records_[static_cast<size_t>(t.pe)];
    if (t.record >= recs.size()) throw std::logic_error("a repeated transfer's record was never made");
    transfers_[t.transfer].repeats = recs[t.record].repeats;
  }
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
  r.summed = workload_.summed_records;
  if (r.summed) r.last_end = std::move(last_end_);
  r.placement = cost_.placement().description();
  r.main_job_end = main_end_;
  if (io_) r.io = io_->stats();
  return r;
}

std::string PeInterpreter::stuck() const {
  std::string out;
  for (size_t pe = 0; pe < pes_.size(); ++pe) {
    const Pe& s = pes_[pe];
    if (s.finished) continue;
    const InternTable& flags = s.streamed ? workload_.source->flags() : workload_.flags;
    out += stuck_line(pe, !at_end(s) ? describe_op(op_at(s), step_unit_, flags) : kFinalQuiet);
  }
  return out;
}

}  // namespace t3sim::core
