#include "sim/core/run/closed_form_transport.hpp"

#include <algorithm>

namespace t3sim::core {

double ClosedFormTransport::flow_time(int src, int dst, double bytes, FlowKind kind) const {
  const double rate =
      std::min({cost_.bottleneck(src, dst), flow_cap(cost_.profile(), kind), node_cap(cost_.machine().node, kind)});
  return bytes / rate;
}

void ClosedFormTransport::flow(int src, int dst, double bytes, FlowKind kind, Callback then) {
  after(flow_time(src, dst, bytes, kind), std::move(then));
}

void ClosedFormTransport::flow(int src, int dst, double bytes, FlowKind kind, Task then) {
  after(flow_time(src, dst, bytes, kind), then);
}

void ClosedFormTransport::disk_io(int /*disk*/, double bytes, bool write, Callback then) {
  const IoParams& io = cost_.machine().io;
  after(bytes / (write ? io.disk_write_bandwidth : io.disk_read_bandwidth), std::move(then));
}

double ClosedFormTransport::run() {
  while (!calendar_.empty()) {
    now_ = calendar_.next_time();
    calendar_.pop()();
  }
  return now_;
}

}  // namespace t3sim::core
