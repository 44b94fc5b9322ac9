// File I/O on the torus: a compute PE's file calls are forwarded over the torus to I/O nodes, whose
// disks the files are striped over (the Cray XT3's model: compute nodes run no file system, I/O nodes
// serve it; docs/research/io-model.md states each quantity's meaning and source). Used by the one PE
// interpreter for write / read / close; times as below when nothing else shares the path:
//
//   forwarded call of b bytes to disk k of I/O node s (one request per disk the bytes touch, in parallel):
//     io.forwarding_overhead                  the caller's own time (RPC set-up), then
//     latency(pe->s) + b / bottleneck(pe->s)  the request and its data over the torus (a write)
//     queue                                   disk k's server holds io.server_threads requests in service
//                                             at once; the others wait, first come, first served
//     io.service_time + b / disk bandwidth    in service: the thread's own time, then the data on the disk,
//                                             shared max-min with the other requests in service on it
//                                             (SimGrid's disk model: a read and a write limit each, and
//                                             max(read, write) for both together)
//     latency(s->pe)                          the reply (a read: + b / bottleneck(s->pe), its data)
//   write of n bytes, records of r bytes, buffer B (none: io.runtime_buffer; iobuf: io.iobuf_size),
//     holding floor(B / r) whole records (at least one): the bytes are copied into the buffer at
//     io.buffer_copy_bandwidth; a full buffer is one forwarded call:
//       none  : synchronous, the writer waits for the reply (a language runtime's buffer)
//       iobuf : asynchronous; the writer goes on into its next buffer and waits only when all
//               io.iobuf_count buffers are being written (Cray's iobuf library)
//   read of n bytes: buffer-sized synchronous forwarded calls, each copied out of the buffer
//   close : the partly filled buffer is written, then the PE waits for every write of the file;
//           a PE's program ends by closing the files it left open.
// A file (numbered in order of first use: Workload::files) starts at disk f x stripe_count mod disks
// and deals its bytes over stripe_count disks in stripe_size pieces, as Lustre's round-robin allocator.
#pragma once
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "sim/core/program/workload.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/results.hpp"
#include "sim/core/run/transport.hpp"

namespace t3sim::core {

// The disks file `file` is striped over (distinct, in stripe order).
std::vector<int> disks_of_file(const MachineSpec& m, int file);
// The I/O node (its index in MachineSpec::io_nodes) of disk `disk`.
inline int io_node_of_disk(const MachineSpec& m, int disk) { return disk / static_cast<int>(m.io.disks_per_node); }

class FileIo {
 public:
  using Callback = Transport::Callback;
  // I/O node i is transport endpoint first_server + i (the placement appends them after the PEs);
  // PEs below main_pes belong to the main job (counted in IoStats::main_*).
  FileIo(const CostModel& cost, Transport& transport, int first_server, int main_pes);

  void write(int pe, const Op& op, Callback done);
  void read(int pe, const Op& op, Callback done);
  void close(int pe, int file, Callback done);
  // Closes every file the PE has open, then `done`.
  void close_all(int pe, Callback done);
  // Whether closing the file (every file of the PE) has nothing to write or wait for: then it is
  // closed at once (no event), and the caller goes on without calling close.
  bool idle(int pe, int file);
  bool idle(int pe);
  const IoStats& stats() const { return stats_; }

 private:
  struct OpenFile {
    IoMode mode = IoMode::Runtime;
    double offset = 0;  // bytes handed to the servers so far
    double fill = 0;    // bytes in the buffer being filled
    int in_flight = 0;  // buffers being written (iobuf)
    Callback on_free;   // the writer, waiting for a buffer
    Callback on_idle;   // close, waiting for every write
  };
  using Key = std::pair<int, int>;  // (pe, file)

  double buffer_bytes(IoMode mode, double record) const;
  // Opens (or keeps open) the operation's file in its mode; returns the bytes of one buffer.
  double open(int pe, const Op& op);
  // Copies `left` more bytes of a write into the file's buffers, writing each full one, then `done`.
  void fill(int pe, int file, double left, double buffer, Callback done);
  // Hands the buffer's bytes to a forwarded write; `then` when the writer may go on.
  void flush(int pe, int file, Callback then);
  void written(Key key);  // an asynchronous buffer's write has ended
  void read_chunks(int pe, int file, double left, double buffer, Callback done);
  // One forwarded call, posted (the caller has paid its overhead): one request per disk the bytes touch.
  void forward(int pe, int file, double offset, double bytes, bool write, Callback done);
  void request(int pe, int disk, double bytes, bool write, Callback done);

  const CostModel& cost_;
  Transport& transport_;
  const IoParams& io_;
  int first_server_;
  int main_pes_;
  std::map<Key, OpenFile> open_;
  // One disk's server: requests in service, and those waiting for a thread (when each arrived, and
  // what starts its service).
  struct Server {
    int busy = 0;
    std::deque<std::pair<double, Callback>> waiting;
  };
  // `serve` when disk's server has a thread free (at once, or when its turn comes).
  void enqueue(int disk, Callback serve);
  void release(int disk);        // a request's service has ended: the next waiting one starts
  std::vector<Server> servers_;  // by disk
  IoStats stats_;
};

}  // namespace t3sim::core
