#include "sim/core/run/file_io.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace t3sim::core {

std::vector<int> disks_of_file(const MachineSpec& m, int file) {
  const int disks = m.disk_count();
  const int count = static_cast<int>(m.io.stripe_count);
  std::vector<int> out;
  for (int s = 0; s < count; ++s) out.push_back(static_cast<int>((static_cast<long>(file) * count + s) % disks));
  return out;
}

FileIo::FileIo(const CostModel& cost, Transport& transport, int first_server, int main_pes)
    : cost_(cost),
      transport_(transport),
      io_(cost.machine().io),
      first_server_(first_server),
      main_pes_(main_pes),
      servers_(static_cast<size_t>(cost.machine().disk_count())) {}

double FileIo::buffer_bytes(IoMode mode, double record) const {
  const double size = mode == IoMode::Iobuf ? io_.iobuf_size : io_.runtime_buffer;
  return std::max(record, std::floor(size / record) * record);  // whole records, at least one
}

double FileIo::open(int pe, const Op& op) {
  open_[{pe, op.peer}].mode = op.io_mode;
  return buffer_bytes(op.io_mode, record_bytes(op));
}

void FileIo::write(int pe, const Op& op, Callback done) { fill(pe, op.peer, op.bytes, open(pe, op), std::move(done)); }

void FileIo::fill(int pe, int file, double left, double buffer, Callback done) {
  if (left <= 0) return done();
  OpenFile& f = open_.at({pe, file});
  const double take = std::min(buffer - f.fill, left);
  transport_.after(take / io_.buffer_copy_bandwidth,
                   [this, pe, file, left, take, buffer, done = std::move(done)]() mutable {
                     OpenFile& g = open_.at({pe, file});
                     g.fill += take;
                     if (g.fill < buffer) return fill(pe, file, left - take, buffer, std::move(done));
                     flush(pe, file, [this, pe, file, left, take, buffer, done = std::move(done)]() mutable {
                       fill(pe, file, left - take, buffer, std::move(done));
                     });
                   });
}

void FileIo::flush(int pe, int file, Callback then) {
  OpenFile& f = open_.at({pe, file});
  const double bytes = f.fill;
  const double offset = f.offset;
  f.offset += bytes;
  f.fill = 0;
  // The caller posts the call (its forwarding overhead) in either mode.
  transport_.after(io_.forwarding_overhead, [this, pe, file, offset, bytes, then = std::move(then)]() mutable {
    OpenFile& g = open_.at({pe, file});
    if (g.mode == IoMode::Runtime) return forward(pe, file, offset, bytes, true, std::move(then));
    // iobuf: the write goes on while the PE fills its next buffer, if it has one free.
    ++g.in_flight;
    const Key key{pe, file};
    forward(pe, file, offset, bytes, true, [this, key] { written(key); });
    if (g.in_flight < static_cast<int>(io_.iobuf_count))
      then();
    else
      g.on_free = std::move(then);
  });
}

void FileIo::written(Key key) {
  OpenFile& f = open_.at(key);
  --f.in_flight;
  if (f.on_free) {
    Callback go = std::move(f.on_free);
    f.on_free = nullptr;
    go();
  } else if (f.in_flight == 0 && f.on_idle) {
    Callback go = std::move(f.on_idle);
    open_.erase(key);
    go();
  }
}

void FileIo::read(int pe, const Op& op, Callback done) {
  read_chunks(pe, op.peer, op.bytes, open(pe, op), std::move(done));
}

void FileIo::read_chunks(int pe, int file, double left, double buffer, Callback done) {
  if (left <= 0) return done();
  OpenFile& f = open_.at({pe, file});
  const double bytes = std::min(buffer, left);
  const double offset = f.offset;
  f.offset += bytes;
  auto copied = [this, pe, file, left, bytes, buffer, done = std::move(done)]() mutable {
    transport_.after(bytes / io_.buffer_copy_bandwidth,
                     [this, pe, file, left, bytes, buffer, done = std::move(done)]() mutable {
                       read_chunks(pe, file, left - bytes, buffer, std::move(done));
                     });
  };
  transport_.after(io_.forwarding_overhead, [this, pe, file, offset, bytes, copied = std::move(copied)]() mutable {
    forward(pe, file, offset, bytes, false, std::move(copied));
  });
}

void FileIo::close(int pe, int file, Callback done) {
  auto it = open_.find({pe, file});
  if (it == open_.end()) return done();  // never written, or closed already
  const Key key{pe, file};
  auto wait_all = [this, key, done = std::move(done)]() mutable {
    OpenFile& f = open_.at(key);
    if (f.in_flight == 0) {
      open_.erase(key);
      return done();
    }
    f.on_idle = std::move(done);
  };
  if (it->second.fill > 0) return flush(pe, file, std::move(wait_all));
  wait_all();
}

bool FileIo::idle(int pe, int file) {
  auto it = open_.find({pe, file});
  if (it == open_.end()) return true;
  if (it->second.fill > 0 || it->second.in_flight > 0) return false;
  open_.erase(it);
  return true;
}

bool FileIo::idle(int pe) {
  const auto first = open_.lower_bound({pe, -1});
  auto it = first;
  for (; it != open_.end() && it->first.first == pe; ++it)
    if (it->second.fill > 0 || it->second.in_flight > 0) return false;
  open_.erase(first, it);
  return true;
}

void FileIo::close_all(int pe, Callback done) {
  auto it = open_.lower_bound({pe, -1});
  if (it == open_.end() || it->first.first != pe) return done();
  const int file = it->first.second;
  close(pe, file, [this, pe, done = std::move(done)]() mutable { close_all(pe, std::move(done)); });
}

void FileIo::forward(int pe, int file, double offset, double bytes, bool write, Callback done) {
  ++stats_.calls;
  // The bytes per disk: [offset, offset + bytes) dealt in stripe_size pieces over the file's disks.
  const std::vector<int> disks = disks_of_file(cost_.machine(), file);
  std::vector<double> part(disks.size(), 0.0);
  for (double at = offset, end = offset + bytes; at < end;) {
    const double stripe = std::floor(at / io_.stripe_size);
    const double next = std::min(end, (stripe + 1) * io_.stripe_size);
    part[static_cast<size_t>(std::fmod(stripe, static_cast<double>(disks.size())))] += next - at;
    at = next;
  }
  auto left = std::make_shared<int>(0);
  for (double b : part) *left += b > 0 ? 1 : 0;
  const double issued = transport_.now();
  auto reply = std::make_shared<Callback>([this, pe, issued, left, done = std::move(done)]() mutable {
    if (--*left > 0) return;
    if (pe < main_pes_) {
      stats_.main_calls += 1;
      stats_.main_call_time += transport_.now() - issued;
    }
    done();
  });
  for (size_t i = 0; i < disks.size(); ++i)
    if (part[i] > 0) request(pe, disks[i], part[i], write, [reply] { (*reply)(); });
}

void FileIo::request(int pe, int disk, double bytes, bool write, Callback done) {
  const int server = first_server_ + io_node_of_disk(cost_.machine(), disk);
  ++stats_.requests;
  (write ? stats_.bytes_written : stats_.bytes_read) += bytes;
  // At the server: a thread (or the queue first), its service time, then the disk; the reply.
  auto serve = [this, pe, disk, server, bytes, write, done = std::move(done)]() mutable {
    transport_.after(io_.service_time, [this, pe, disk, server, bytes, write, done = std::move(done)]() mutable {
      transport_.disk_io(disk, bytes, write, [this, pe, disk, server, bytes, write, done = std::move(done)]() mutable {
        release(disk);
        transport_.after(cost_.latency(server, pe), [this, pe, server, bytes, write, done = std::move(done)]() mutable {
          if (write) return done();
          transport_.flow(server, pe, bytes, FlowKind::IoData, std::move(done));  // the data read
        });
      });
    });
  };
  auto arrive = [this, disk, serve = std::move(serve)]() mutable { enqueue(disk, std::move(serve)); };
  // The request over the torus: a write carries its data, a read only its header.
  const double sent = write ? bytes : cost_.machine().network.request_bytes;
  const FlowKind kind = write ? FlowKind::IoData : FlowKind::GetRequest;
  transport_.after(cost_.latency(pe, server), [this, pe, server, sent, kind, arrive = std::move(arrive)]() mutable {
    transport_.flow(pe, server, sent, kind, std::move(arrive));
  });
}

void FileIo::enqueue(int disk, Callback serve) {
  Server& s = servers_[static_cast<size_t>(disk)];
  if (s.busy < static_cast<int>(io_.server_threads)) {
    ++s.busy;
    return serve();
  }
  s.waiting.emplace_back(transport_.now(), std::move(serve));
}

void FileIo::release(int disk) {
  Server& s = servers_[static_cast<size_t>(disk)];
  if (s.waiting.empty()) {
    --s.busy;
    return;
  }
  auto [arrived, serve] = std::move(s.waiting.front());
  s.waiting.pop_front();
  const double waited = transport_.now() - arrived;
  stats_.queue_wait += waited;
  stats_.max_queue_wait = std::max(stats_.max_queue_wait, waited);
  serve();  // the thread passes to it
}

}  // namespace t3sim::core
