#include "sim/engine/simgrid_transport.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/simix.hpp>

#include <cmath>
#include <stdexcept>

namespace t3sim::engine {
namespace sg4 = simgrid::s4u;

namespace {
// SimGrid's completion signal is process-wide and cannot be disconnected in 3.32; it is connected once
// and forwards to the transport of the simulation under way (one simulation per process).
SimGridTransport* g_active = nullptr;
}  // namespace

SimGridTransport::SimGridTransport(const PlatformBuilder& platform, bool actor_per_flow)
    : platform_(platform), actor_per_flow_(actor_per_flow) {
  if (g_active != nullptr) throw std::logic_error("one SimGridTransport per process at a time");
  g_active = this;
  static const bool connected = [] {
    sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
      if (g_active != nullptr) g_active->on_completion(a);
    });
    return true;
  }();
  (void)connected;
}

SimGridTransport::~SimGridTransport() { g_active = nullptr; }

double SimGridTransport::now() const { return sg4::Engine::get_clock(); }

void SimGridTransport::after(double delay, Callback then) {
  simgrid::kernel::timer::Timer::set(now() + delay, std::move(then));
}

void SimGridTransport::flow(int src, int dst, double bytes, core::FlowKind kind, Callback then) {
  sg4::Host* from = platform_.flow_source(src, kind);
  sg4::Host* to = platform_.flow_destination(dst, kind);
  const auto size = static_cast<uint64_t>(std::llround(bytes));
  if (actor_per_flow_) {
    sg4::Actor::create("flow", from, [from, to, size, then = std::move(then)]() mutable {
      sg4::Comm::sendto(from, to, size);
      simgrid::kernel::actor::simcall_answered([&then] { then(); });  // back in maestro's world
    });
    return;
  }
  sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
  comm->set_payload_size(size);
  pending_.emplace(comm.get(), Pending{comm, std::move(then)});
  comm->start();
}

void SimGridTransport::disk_io(int disk, double bytes, bool write, Callback then) {
  sg4::Disk* d = platform_.disk(disk);
  const auto size = static_cast<sg_size_t>(std::llround(bytes));
  const auto type = write ? sg4::Io::OpType::WRITE : sg4::Io::OpType::READ;
  if (actor_per_flow_) {
    sg4::Actor::create("io", d->get_host(), [d, size, type, then = std::move(then)]() mutable {
      d->io_init(size, type)->wait();
      simgrid::kernel::actor::simcall_answered([&then] { then(); });
    });
    return;
  }
  sg4::IoPtr io = d->io_init(size, type);
  pending_.emplace(io.get(), Pending{io, std::move(then)});
  io->start();
}

void SimGridTransport::on_completion(const sg4::Activity& activity) {
  finished_.clear();  // activities of earlier completions: no signal of theirs is running any more
  auto it = pending_.find(&activity);
  if (it == pending_.end()) return;
  Pending p = std::move(it->second);
  pending_.erase(it);
  finished_.push_back(std::move(p.activity));  // `activity` is still inside its own completion
  p.then();
}

}  // namespace t3sim::engine
