// File I/O over the torus (core/io_layer.hpp) against closed forms, under both drivers: a forwarded
// call's times, the two buffering modes, a disk's server threads and its shared bandwidth, striping
// over two I/O nodes, and reads. Each expected time is written out from the model in io_layer.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "driver_under_test.hpp"

#include "../unit/test_machine.hpp"
#include "sim/core/machine/job_placement.hpp"
#include "sim/core/program/file_io_workloads.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/engine/simulation.hpp"

using namespace t3sim;

namespace {

constexpr int kPes = 20;  // nodes 20..23 of the 2 x 3 x 4 torus hold no PE: I/O nodes

// The small test machine with I/O nodes at nodes 20.. (one disk each), a slow disk and round costs.
core::MachineSpec io_machine(int io_nodes = 1) {
  core::MachineSpec m = test::small_machine();
  m.populated_nodes = kPes;
  for (int i = 0; i < io_nodes; ++i) m.io_nodes.push_back(kPes + i);
  core::IoParams& io = m.io;
  io.disks_per_node = 1;
  io.disk_write_bandwidth = 10e6;
  io.disk_read_bandwidth = 20e6;
  io.service_time = 50e-6;
  io.server_threads = 1;
  io.forwarding_overhead = 7e-6;
  io.stripe_size = 1e6;
  io.stripe_count = 1;
  io.runtime_buffer = 400;
  io.buffer_copy_bandwidth = 100e6;
  io.iobuf_size = 400;
  io.iobuf_count = 8;
  return m;
}

// Interfaces, links and PE rates so fast, and latencies 0, that the network takes no measurable time.
core::MachineSpec instant_network(core::MachineSpec m) {
  m.network = {1e15, 0, 0, 1e15, 1e15, 16};
  return m;
}

core::Op file_op(core::OpKind kind, int pe, int file, double bytes, double record, core::IoMode mode) {
  core::Op op;
  op.kind = kind;
  op.pe = pe;
  op.peer = file;
  op.bytes = bytes;
  op.flops = record;  // record_bytes(op)
  op.io_mode = mode;
  return op;
}

core::Workload io_workload(std::vector<core::Op> ops, int files) {
  core::Workload w = test::workload("io", kPes, std::move(ops));
  for (int f = 0; f < files; ++f) w.files.intern("f" + std::to_string(f));
  return w;
}

core::RunResult run(const core::MachineSpec& m, const core::Workload& w) {
  return engine::simulate(m, m.profiles[0], w, core::JobPlacement::contiguous(m, kPes), driver_under_test());
}

// The model's costs between PE `pe` and I/O node `node` (endpoint kPes + node).
struct Path {
  double to, back, rate_to, rate_back;
};
Path path(const core::MachineSpec& m, int pe, int node) {
  const core::CostModel cost(m, m.profiles[0], core::JobPlacement::contiguous(m, kPes).with_io_nodes(m));
  const int s = kPes + node;
  return {cost.latency(pe, s), cost.latency(s, pe), cost.bottleneck(pe, s), cost.bottleneck(s, pe)};
}

// One synchronous forwarded write of b bytes from PE 0 to disk 0, alone: overhead, request and data over
// the torus, service time, the disk, the reply's latency.
double sync_write(const core::MachineSpec& m, double b) {
  const Path p = path(m, 0, 0);
  return m.io.forwarding_overhead + p.to + b / p.rate_to + m.io.service_time + b / m.io.disk_write_bandwidth + p.back;
}

TEST(IoClosedForm, RuntimeBufferWritesEachFullBufferSynchronously) {
  // 10 records of 100 B through a 400 B runtime buffer: copies of 400, 400 and 200 B, the two full
  // buffers written during the write and the last 200 B at the program's end (its files are closed).
  const core::MachineSpec m = io_machine();
  const auto r = run(m, io_workload({file_op(core::OpKind::Write, 0, 0, 1000, 100, core::IoMode::Runtime)}, 1));
  const double expected = 1000 / m.io.buffer_copy_bandwidth + 2 * sync_write(m, 400) + sync_write(m, 200);
  EXPECT_NEAR(r.makespan, expected, 1e-9 * expected);
  EXPECT_EQ(r.io.calls, 3);
  EXPECT_DOUBLE_EQ(r.io.bytes_written, 1000);
}

TEST(IoClosedForm, RecordsAreNotSplitAcrossBuffers) {
  // Records of 300 B in a 400 B buffer: it holds one whole record, so 3 records are 3 calls of 300 B.
  const core::MachineSpec m = io_machine();
  const auto r = run(m, io_workload({file_op(core::OpKind::Write, 0, 0, 900, 300, core::IoMode::Runtime)}, 1));
  const double expected = 900 / m.io.buffer_copy_bandwidth + 3 * sync_write(m, 300);
  EXPECT_NEAR(r.makespan, expected, 1e-9 * expected);
  EXPECT_EQ(r.io.calls, 3);
}

// iobuf: the writer copies and posts each full buffer (its overhead) and goes on; the disk's one server
// thread serves the buffers in arrival order. `count` buffers: the writer waits when all are in flight.
double iobuf_expected(const core::MachineSpec& m, const std::vector<double>& buffers, int count) {
  const Path p = path(m, 0, 0);
  const core::IoParams& io = m.io;
  double t = 0, server_free = 0, last_reply = 0;
  std::vector<double> replies;  // of the buffers in flight, in order
  for (size_t i = 0; i < buffers.size(); ++i) {
    const double b = buffers[i];
    if (i + 1 < buffers.size()) t += b / io.buffer_copy_bandwidth;  // the last buffer was copied before close
    if (i + 1 == buffers.size()) t += b / io.buffer_copy_bandwidth;
    t += io.forwarding_overhead;  // posted
    const double arrives = t + p.to + b / p.rate_to;
    const double start = std::max(arrives, server_free);
    server_free = start + io.service_time + b / io.disk_write_bandwidth;
    const double reply = server_free + p.back;
    replies.push_back(reply);
    last_reply = std::max(last_reply, reply);
    // A full set in flight: wait for the oldest (FIFO: the first to end) before copying on.
    if (static_cast<int>(replies.size()) >= count && i + 1 < buffers.size()) {
      t = std::max(t, replies[replies.size() - static_cast<size_t>(count)]);
    }
  }
  return std::max(t, last_reply);
}

TEST(IoClosedForm, IobufWritesBuffersAsynchronously) {
  const core::MachineSpec m = io_machine();
  const auto r = run(m, io_workload({file_op(core::OpKind::Write, 0, 0, 1000, 100, core::IoMode::Iobuf)}, 1));
  const double expected = iobuf_expected(m, {400, 400, 200}, 8);
  EXPECT_NEAR(r.makespan, expected, 1e-9 * expected);
  // Far below the synchronous writer's, which waits for every buffer.
  EXPECT_LT(r.makespan, 1000 / m.io.buffer_copy_bandwidth + 2 * sync_write(m, 400) + sync_write(m, 200));
}

TEST(IoClosedForm, OneIobufBufferMakesTheWriterWaitForEach) {
  core::MachineSpec m = io_machine();
  m.io.iobuf_count = 1;
  const auto r = run(m, io_workload({file_op(core::OpKind::Write, 0, 0, 1000, 100, core::IoMode::Iobuf)}, 1));
  // The serial form: copy, post, wait for the reply, for each buffer.
  const double expected = 1000 / m.io.buffer_copy_bandwidth + 2 * sync_write(m, 400) + sync_write(m, 200);
  EXPECT_NEAR(r.makespan, expected, 1e-9 * expected);
  EXPECT_NEAR(r.makespan, iobuf_expected(m, {400, 400, 200}, 1), 1e-9 * expected);
}

TEST(IoClosedForm, TwoWritersShareOneDiskFirstComeFirstServed) {
  // Two PEs write 1 MB each to files on the one disk at the same instant. One server thread: the
  // second waits for the first (service + 0.1 s), then takes its own turn.
  core::MachineSpec m = instant_network(io_machine());
  m.io.runtime_buffer = 1e6;
  const auto w = io_workload({file_op(core::OpKind::Write, 0, 0, 1e6, 1e6, core::IoMode::Runtime),
                              file_op(core::OpKind::Write, 1, 1, 1e6, 1e6, core::IoMode::Runtime)},
                             2);
  const double lone = m.io.service_time + 1e6 / m.io.disk_write_bandwidth;
  const double start = 1e6 / m.io.buffer_copy_bandwidth + m.io.forwarding_overhead;
  const auto r = run(m, w);
  EXPECT_NEAR(r.makespan, start + 2 * lone, 1e-6 * r.makespan);
  EXPECT_GT(r.io.max_queue_wait, 0.99 * lone);
}

TEST(IoClosedForm, TwoWritersInServiceTogetherShareTheDiskHalfAndHalf) {
  core::MachineSpec m = instant_network(io_machine());
  m.io.runtime_buffer = 1e6;
  m.io.server_threads = 2;
  const auto w = io_workload({file_op(core::OpKind::Write, 0, 0, 1e6, 1e6, core::IoMode::Runtime),
                              file_op(core::OpKind::Write, 1, 1, 1e6, 1e6, core::IoMode::Runtime)},
                             2);
  // Both in service at once: each at half the disk's rate, 2 MB / 10 MB/s.
  const double expected =
      1e6 / m.io.buffer_copy_bandwidth + m.io.forwarding_overhead + m.io.service_time + 2e6 / m.io.disk_write_bandwidth;
  const auto r = run(m, w);
  EXPECT_NEAR(r.makespan, expected, 1e-6 * expected);
  EXPECT_DOUBLE_EQ(r.io.queue_wait, 0);
}

TEST(IoClosedForm, AFileStripedOverTwoIoNodesWritesBothDisksAtOnce) {
  // 2 MB in one call, stripes of 1 MB over the disks of two I/O nodes: each disk takes 1 MB at once.
  core::MachineSpec m = instant_network(io_machine(2));
  m.io.runtime_buffer = 2e6;
  m.io.stripe_count = 2;
  const auto r = run(m, io_workload({file_op(core::OpKind::Write, 0, 0, 2e6, 2e6, core::IoMode::Runtime)}, 1));
  const double expected =
      2e6 / m.io.buffer_copy_bandwidth + m.io.forwarding_overhead + m.io.service_time + 1e6 / m.io.disk_write_bandwidth;
  EXPECT_NEAR(r.makespan, expected, 1e-6 * expected);
  EXPECT_EQ(r.io.calls, 1);
  EXPECT_EQ(r.io.requests, 2);
}

TEST(IoClosedForm, AReadIsARequestTheDiskAndTheDataBack) {
  core::MachineSpec m = io_machine();
  m.io.runtime_buffer = 1000;
  const auto r = run(m, io_workload({file_op(core::OpKind::Read, 0, 0, 1000, 1000, core::IoMode::Runtime)}, 1));
  const Path p = path(m, 0, 0);
  const double expected = m.io.forwarding_overhead + p.to + m.network.request_bytes / p.rate_to + m.io.service_time +
                          1000 / m.io.disk_read_bandwidth + p.back + 1000 / p.rate_back +
                          1000 / m.io.buffer_copy_bandwidth;
  EXPECT_NEAR(r.makespan, expected, 1e-9 * expected);
  EXPECT_DOUBLE_EQ(r.io.bytes_read, 1000);
}

TEST(IoWriters, ABackgroundJobOfWritersEndsWithTheMainJob) {
  // The main job computes 50 ms; 4 writers write 1 kB after exponential think times of mean 1 ms
  // until it has finished. (Same seed, same run: tests/CMakeLists.txt compares two runs byte for byte.)
  const core::MachineSpec m = io_machine(2);
  core::Op compute;
  compute.kind = core::OpKind::Compute;
  compute.pe = 0;
  compute.seconds = 0.05;
  core::Workload main = test::workload("main", 1, {compute});
  core::Workload bg = test::workload("writers", 4, {});
  core::append_io_writers(bg, {1000, 0, 1e-3, 0, core::IoMode::Runtime});
  const core::Workload w = core::with_background(main, bg);
  const auto placement = core::with_background_placement(m, core::JobPlacement::contiguous(m, 1), 4, "contiguous");
  const auto a = engine::simulate(m, m.profiles[0], w, placement, driver_under_test());
  EXPECT_DOUBLE_EQ(a.main_job_end, 0.05);
  EXPECT_GT(a.makespan, a.main_job_end);  // the writers finish the write under way
  EXPECT_GT(a.io.calls, 4 * 20);          // about 50 ms / (1 ms + the write) each
}

}  // namespace
