#include "sim/core/uncontended_replay.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace t3sim::core {
namespace {

struct Event {
  double time;
  long seq;          // ties broken by creation order: deterministic
  int pe;            // the PE to resume, or the PE whose flag is signalled
  std::string flag;  // empty: resume pe
  bool operator>(const Event& o) const { return std::tie(time, seq) > std::tie(o.time, o.seq); }
};

struct PeState {
  std::vector<Op> program;
  size_t next = 0;
  double now = 0;
  double op_start = 0;
  double outstanding = 0;  // when the last background put is acknowledged
  std::string waiting_flag;
  bool done = false;
  std::map<std::string, int> signals;
};

class Replay {
 public:
  Replay(const CostModel& cost, const Workload& w) : cost_(cost), workload_(w), pes_(static_cast<size_t>(w.pes)) {
    auto programs = w.programs();
    for (int pe = 0; pe < w.pes; ++pe) {
      pes_[static_cast<size_t>(pe)].program = std::move(programs[static_cast<size_t>(pe)]);
      push(0, pe, "");
    }
  }

  std::vector<OpRecord> run() {
    while (!queue_.empty()) {
      const Event e = queue_.top();
      queue_.pop();
      if (e.flag.empty()) {
        resume(e.pe, e.time);
      } else {
        PeState& s = pes_[static_cast<size_t>(e.pe)];
        ++s.signals[e.flag];
        if (s.waiting_flag == e.flag) {
          s.waiting_flag.clear();
          --s.signals[e.flag];
          finish_op(e.pe, e.time);
        }
      }
    }
    std::string stuck;
    for (size_t pe = 0; pe < pes_.size(); ++pe)
      if (!pes_[pe].done) stuck += " " + std::to_string(pe);
    if (!stuck.empty()) throw std::runtime_error("deadlock: PEs" + stuck + " cannot finish");
    return std::move(records_);
  }

 private:
  void push(double time, int pe, const std::string& flag) { queue_.push({time, seq_++, pe, flag}); }

  // Records the current op of pe as ending at `end` and schedules the PE to go on from there.
  void finish_op(int pe, double end) {
    PeState& s = pes_[static_cast<size_t>(pe)];
    const Op& op = s.program[s.next];
    records_.push_back({op.step, op.iteration, op.label, op.kind, pe, op.peer, op.bytes, s.op_start, end});
    ++s.next;
    push(end, pe, "");
  }

  void resume(int pe, double time) {
    PeState& s = pes_[static_cast<size_t>(pe)];
    s.now = time;
    if (s.next == s.program.size()) {
      s.done = true;  // the engine's final quiet only moves the makespan
      makespan_ = std::max({makespan_, s.now, s.outstanding});
      return;
    }
    const Op& op = s.program[s.next];
    s.op_start = s.now;
    const SoftwareProfile& p = cost_.profile();
    switch (op.kind) {
      case OpKind::Put:
        if (op.peer != pe) {
          if (op.complete) {
            const double delivered = s.now + p.call_overhead + cost_.latency(pe, op.peer) +
                                     op.bytes / std::min(cost_.bottleneck(pe, op.peer), p.put_bandwidth);
            if (!op.flag.empty()) push(delivered, op.peer, op.flag);
            transfers_.push_back({pe, op.peer, op.bytes, s.now + p.call_overhead, delivered, op.iteration});
            return finish_op(pe, delivered + cost_.latency(op.peer, pe));
          }
          const double issued = s.now + p.call_overhead;
          const double delivered =
              issued + cost_.latency(pe, op.peer) + op.bytes / std::min(cost_.bottleneck(pe, op.peer), p.put_bandwidth);
          if (!op.flag.empty()) push(delivered, op.peer, op.flag);
          transfers_.push_back({pe, op.peer, op.bytes, issued, delivered, op.iteration});
          s.outstanding = std::max(s.outstanding, delivered + cost_.latency(op.peer, pe));
          return finish_op(pe, issued);
        }
        return finish_op(pe, s.now + cost_.uncontended_time(op));
      case OpKind::Get:
      case OpKind::Atomic:
        if (op.peer != pe) {
          const double end = s.now + cost_.uncontended_time(op);
          const double data = op.bytes / std::min(cost_.bottleneck(op.peer, pe), p.get_bandwidth);
          transfers_.push_back({op.peer, pe, op.bytes, end - data - cost_.latency(op.peer, pe), end, op.iteration});
          return finish_op(pe, end);
        }
        return finish_op(pe, s.now + cost_.uncontended_time(op));
      case OpKind::Compute:
      case OpKind::Overhead:
        return finish_op(pe, s.now + cost_.uncontended_time(op));
      case OpKind::Quiet:
        return finish_op(pe, std::max(s.now, s.outstanding));
      case OpKind::Wait:
        if (s.signals[op.flag] > 0) {
          --s.signals[op.flag];
          return finish_op(pe, s.now);
        }
        s.waiting_flag = op.flag;
        return;
      case OpKind::Barrier: {
        const int job = workload_.job_of(pe);
        if (++barrier_arrived_[job] == workload_.job_size(job)) {
          barrier_arrived_[job] = 0;
          const int first = workload_.job_first_pe[static_cast<size_t>(job)];
          for (int q = first; q < first + workload_.job_size(job); ++q) {
            finish_op(q, s.now + p.barrier_latency);
          }
        }
        return;
      }
    }
  }

 public:
  double makespan_ = 0;

 private:
  const CostModel& cost_;
  const Workload& workload_;
  std::vector<PeState> pes_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  std::vector<OpRecord> records_;
  long seq_ = 0;

 public:
  std::vector<Transfer> transfers_;

 private:
  std::map<int, int> barrier_arrived_;  // by job
};

}  // namespace

RunResult replay_uncontended(const CostModel& cost, const Workload& workload) {
  Replay replay(cost, workload);
  RunResult r;
  r.machine = cost.machine().name;
  r.profile = cost.profile().name;
  r.workload = workload.name;
  r.pes = workload.pes;
  r.swap_iterations = workload.swap_iterations;
  r.records = replay.run();
  r.makespan = replay.makespan_;
  for (const auto& rec : r.records) r.makespan = std::max(r.makespan, rec.end);
  sort_records(r.records);
  r.transfers = std::move(replay.transfers_);
  sort_transfers(r.transfers);
  r.placement = cost.placement().description();
  return r;
}

}  // namespace t3sim::core
