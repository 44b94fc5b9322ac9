#include "sim/engine/shmem_pe.hpp"

#include <algorithm>
#include <cmath>

#include "sim/engine/op_description.hpp"

namespace t3sim::engine {

void ShmemPe::operator()() {
  std::string& doing = (*ctx_.doing)[static_cast<size_t>(pe_)];
  for (const core::Op& op : program_) {
    doing = describe_op(op, ctx_.step_unit);
    const double start = sg4::Engine::get_clock();
    run_op(op);
    (*ctx_.records)[static_cast<size_t>(pe_)].push_back(
        {op.step, op.iteration, op.label, op.kind, pe_, op.peer, op.bytes, start, sg4::Engine::get_clock()});
  }
  doing = kFinalQuiet;
  quiet();  // a PE's program ends when its puts are delivered
  doing.clear();
}

void ShmemPe::run_op(const core::Op& op) {
  const core::SoftwareProfile& p = ctx_.cost->profile();
  switch (op.kind) {
    case core::OpKind::Get:
    case core::OpKind::Atomic:
      if (op.peer == pe_)
        sg4::this_actor::sleep_for(p.call_overhead + p.local_overhead + op.bytes / p.copy_bandwidth);
      else
        remote_get(op);
      break;
    case core::OpKind::Put:
      if (op.peer == pe_)
        sg4::this_actor::sleep_for(p.call_overhead + p.local_overhead + op.bytes / p.copy_bandwidth);
      else
        remote_put(op);
      break;
    case core::OpKind::Quiet:
      quiet();
      break;
    case core::OpKind::Wait:
      wait(op.flag);
      break;
    case core::OpKind::Overhead:
      sg4::this_actor::sleep_for(p.message_overhead);
      break;
    case core::OpKind::Barrier:
      ctx_.barrier->wait();
      sg4::this_actor::sleep_for(p.barrier_latency);
      break;
    case core::OpKind::Compute:
      if (op.seconds > 0) sg4::this_actor::sleep_for(op.seconds);
      if (op.flops > 0) sg4::this_actor::execute(op.flops);
      break;
  }
}

void ShmemPe::transfer(int src_pe, int dst_pe, double bytes, double cap, int iteration) const {
  const double start = sg4::Engine::get_clock();
  // A rendezvous comm through a mailbox used once: SimGrid 3.32 honours a per-comm rate only on
  // mailbox comms (host-to-host sendto ignores set_rate). The peer side is a short-lived helper actor.
  sg4::Mailbox* mb = sg4::Mailbox::by_name("xfer" + std::to_string((*ctx_.next_transfer)++));
  const auto size = static_cast<uint64_t>(std::llround(bytes));
  static int token = 0;
  auto send = [mb, size, cap] {
    auto comm = mb->put_init(&token, size);
    if (std::isfinite(cap)) comm->set_rate(cap);
    comm->wait();
  };
  auto receive = [mb] { mb->get<int>(); };
  if (sg4::this_actor::get_host() == ctx_.platform->host(src_pe)) {
    sg4::Actor::create("recv", ctx_.platform->host(dst_pe), receive);
    send();
  } else {
    sg4::Actor::create("send", ctx_.platform->host(src_pe), send);
    receive();
  }
  if (iteration >= 0) ctx_.transfers->push_back({src_pe, dst_pe, bytes, start, sg4::Engine::get_clock(), iteration});
}

void ShmemPe::remote_get(const core::Op& op) {
  const core::SoftwareProfile& p = ctx_.cost->profile();
  sg4::this_actor::sleep_for(p.call_overhead);
  transfer(pe_, op.peer, ctx_.cost->machine().network.request_bytes, INFINITY);
  transfer(op.peer, pe_, op.bytes, p.get_bandwidth, op.iteration);
}

void ShmemPe::remote_put(const core::Op& op) {
  const core::SoftwareProfile& p = ctx_.cost->profile();
  sg4::this_actor::sleep_for(p.call_overhead);
  const int src = pe_;
  const int dst = op.peer;
  const double bytes = op.bytes;
  const std::string flag = op.flag;
  const core::CostModel* cost = ctx_.cost;
  if (op.complete) {
    transfer(src, dst, bytes, p.put_bandwidth, op.iteration);
    if (!flag.empty()) signal(dst, flag);
    sg4::this_actor::sleep_for(cost->latency(dst, src));  // the delivery acknowledgement
    return;
  }
  ShmemPe* self = this;
  const int iteration = op.iteration;
  in_flight_.push_back(
      sg4::Actor::create("put", ctx_.platform->host(src), [self, src, dst, bytes, flag, cost, iteration] {
        self->transfer(src, dst, bytes, cost->profile().put_bandwidth, iteration);
        if (!flag.empty()) self->signal(dst, flag);
        sg4::this_actor::sleep_for(cost->latency(dst, src));
      })->get_pid());
}

void ShmemPe::signal(int pe, const std::string& flag) const {
  FlagBoard& board = (*ctx_.flags)[static_cast<size_t>(pe)];
  std::unique_lock<sg4::Mutex> lock(*board.mutex);
  ++board.signalled[flag];
  board.changed->notify_all();
}

void ShmemPe::wait(const std::string& flag) const {
  FlagBoard& board = (*ctx_.flags)[static_cast<size_t>(pe_)];
  std::unique_lock<sg4::Mutex> lock(*board.mutex);
  while (board.signalled[flag] == 0) board.changed->wait(lock);
  --board.signalled[flag];
}

void ShmemPe::quiet() {
  for (aid_t pid : in_flight_)
    if (sg4::ActorPtr a = sg4::Actor::by_pid(pid)) a->join();  // null: it has finished
  in_flight_.clear();
}

}  // namespace t3sim::engine
