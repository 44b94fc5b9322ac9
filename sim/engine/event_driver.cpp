#include "sim/engine/event_driver.hpp"

#include <simgrid/kernel/Timer.hpp>

#include <cmath>
#include <stdexcept>

#include "sim/engine/op_description.hpp"

namespace t3sim::engine {
namespace sg4 = simgrid::s4u;

namespace {
// SimGrid's completion signal is process-wide and cannot be disconnected in 3.32; it is connected once
// and forwards to the driver of the simulation under way (one simulation per process, see simulation.hpp).
EventDriver* g_active_driver = nullptr;
}  // namespace

EventDriver::EventDriver(const core::CostModel& cost, const PlatformBuilder& platform, const core::Workload& workload)
    : cost_(cost), platform_(platform), records_(static_cast<size_t>(workload.pes)), step_unit_(workload.step_unit) {
  if (g_active_driver != nullptr) throw std::logic_error("one EventDriver per process at a time");
  g_active_driver = this;
  static const bool connected = [] {
    sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
      if (g_active_driver != nullptr) g_active_driver->on_completion(a);
    });
    return true;
  }();
  (void)connected;
  auto programs = workload.programs();
  pes_.resize(static_cast<size_t>(workload.pes));
  for (size_t pe = 0; pe < pes_.size(); ++pe) pes_[pe].program = std::move(programs[pe]);
  for (size_t j = 0; j < workload.job_first_pe.size(); ++j)
    jobs_.push_back({workload.job_first_pe[j], workload.job_size(static_cast<int>(j)), 0});
  for (int pe = 0; pe < workload.pes; ++pe) job_of_.push_back(workload.job_of(pe));
}

EventDriver::~EventDriver() { g_active_driver = nullptr; }

void EventDriver::start() {
  for (int pe = 0; pe < static_cast<int>(pes_.size()); ++pe) after(0, [this, pe] { advance(pe); });
}

void EventDriver::after(double delay, Callback then) {
  simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock() + delay, std::move(then));
}

void EventDriver::transfer(int src, int dst, double bytes, FlowKind kind, int iteration, Callback then) {
  const double start = sg4::Engine::get_clock();
  after(cost_.latency(src, dst), [this, src, dst, bytes, kind, iteration, start, then = std::move(then)]() mutable {
    sg4::CommPtr comm = sg4::Comm::sendto_init(platform_.flow_source(src, kind), platform_.flow_destination(dst, kind));
    comm->set_payload_size(static_cast<uint64_t>(std::llround(bytes)));
    const sg4::Activity* key = comm.get();
    pending_.emplace(key,
                     Pending{comm, [this, src, dst, bytes, iteration, start, then = std::move(then)] {
                               if (iteration >= 0)
                                 transfers_.push_back({src, dst, bytes, start, sg4::Engine::get_clock(), iteration});
                               then();
                             }});
    comm->start();
  });
}

void EventDriver::on_completion(const sg4::Activity& activity) {
  finished_.clear();  // activities of earlier completions: no signal of theirs is running any more
  auto it = pending_.find(&activity);
  if (it == pending_.end()) return;
  Pending p = std::move(it->second);
  pending_.erase(it);
  finished_.push_back(std::move(p.activity));  // `activity` is still inside its own completion
  p.then();
}

void EventDriver::advance(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  while (!s.finished) {
    s.op_start = sg4::Engine::get_clock();
    if (!start_op(pe)) return;
    record(pe);
  }
}

void EventDriver::record(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.next == s.program.size()) {  // the final quiet
    s.finished = true;
    return;
  }
  const core::Op& op = s.program[s.next];
  records_[static_cast<size_t>(pe)].push_back(
      {op.step, op.iteration, op.label, op.kind, pe, op.peer, op.bytes, s.op_start, sg4::Engine::get_clock()});
  ++s.next;
}

void EventDriver::complete_op(int pe) {
  record(pe);
  advance(pe);
}

bool EventDriver::start_op(int pe) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.next == s.program.size()) {  // a PE's program ends when its puts are delivered
    if (s.in_flight == 0) return true;
    s.in_quiet = true;
    return false;
  }
  const core::Op& op = s.program[s.next];
  const core::SoftwareProfile& p = cost_.profile();
  auto done = [this, pe] { complete_op(pe); };
  switch (op.kind) {
    case core::OpKind::Get:
    case core::OpKind::Atomic:
    case core::OpKind::Put:
      if (op.peer == pe) {
        after(p.call_overhead + p.local_overhead + op.bytes / p.copy_bandwidth, done);
      } else if (op.kind != core::OpKind::Put) {  // get or atomic: request out, data back
        const int peer = op.peer;
        const double bytes = op.bytes;
        const int iteration = op.iteration;
        after(p.call_overhead, [this, pe, peer, bytes, iteration, done] {
          transfer(pe, peer, cost_.machine().network.request_bytes, FlowKind::GetRequest, -1,
                   [this, pe, peer, bytes, iteration, done] {
                     transfer(peer, pe, bytes, FlowKind::GetData, iteration, done);
                   });
        });
      } else {
        const int dst = op.peer;
        const double bytes = op.bytes;
        const int iteration = op.iteration;
        const std::string flag = op.flag;
        const bool blocking = op.complete;
        after(p.call_overhead, [this, pe, dst, bytes, iteration, flag, blocking, done] {
          if (!blocking) {
            ++pes_[static_cast<size_t>(pe)].in_flight;
            done();  // the PE goes on; the put continues in the background until its quiet
          }
          transfer(pe, dst, bytes, FlowKind::Put, iteration,
                   [this, pe, dst, flag, blocking] { put_delivered(pe, dst, flag, blocking); });
        });
      }
      return false;
    case core::OpKind::Quiet:
      if (s.in_flight == 0) return true;
      s.in_quiet = true;
      return false;
    case core::OpKind::Wait: {
      auto it = s.signalled.find(op.flag);
      if (it != s.signalled.end() && it->second > 0) {
        --it->second;
        return true;
      }
      s.waiting_flag = op.flag;
      return false;
    }
    case core::OpKind::Overhead:
      after(p.message_overhead, done);
      return false;
    case core::OpKind::Barrier: {
      Job& job = jobs_[static_cast<size_t>(job_of_[static_cast<size_t>(pe)])];
      if (++job.arrived == job.size) {
        job.arrived = 0;
        for (int q = job.first_pe; q < job.first_pe + job.size; ++q)
          after(p.barrier_latency, [this, q] { complete_op(q); });
      }
      return false;
    }
    case core::OpKind::Compute: {
      const double flops = op.flops;
      sg4::Host* host = platform_.host(pe);
      after(op.seconds > 0 ? op.seconds : 0, [this, flops, host, done] {
        if (flops <= 0) return done();
        sg4::ExecPtr exec = sg4::Exec::init();
        exec->set_flops_amount(flops)->set_host(host);
        pending_.emplace(exec.get(), Pending{exec, done});
        exec->start();
      });
      return false;
    }
  }
  return false;
}

void EventDriver::put_delivered(int src, int dst, const std::string& flag, bool blocking) {
  if (!flag.empty()) signal(dst, flag);
  after(cost_.latency(dst, src), [this, src, blocking] {  // the delivery acknowledgement
    if (blocking) return complete_op(src);
    Pe& s = pes_[static_cast<size_t>(src)];
    if (--s.in_flight == 0 && s.in_quiet) {
      s.in_quiet = false;
      complete_op(src);
    }
  });
}

void EventDriver::signal(int pe, const std::string& flag) {
  Pe& s = pes_[static_cast<size_t>(pe)];
  if (s.waiting_flag == flag) {
    s.waiting_flag.clear();
    after(0, [this, pe] { complete_op(pe); });
  } else {
    ++s.signalled[flag];
  }
}

std::vector<core::OpRecord> EventDriver::take_records() {
  std::vector<core::OpRecord> all;
  for (auto& v : records_)
    for (auto& r : v) all.push_back(std::move(r));
  return all;
}

std::string EventDriver::stuck() const {
  std::string out;
  for (size_t pe = 0; pe < pes_.size(); ++pe) {
    const Pe& s = pes_[pe];
    if (s.finished) continue;
    out += stuck_line(pe, s.next < s.program.size() ? describe_op(s.program[s.next], step_unit_) : kFinalQuiet);
  }
  return out;
}

}  // namespace t3sim::engine
