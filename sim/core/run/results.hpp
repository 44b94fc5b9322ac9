// What a run produced: one record per operation, in the order operations were issued.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/program/workload.hpp"

namespace t3sim::core {

// 64 bytes: the label is an id in RunResult::labels.
struct OpRecord {
  int step = 0;
  int iteration = 0;
  NameId label = kNoName;
  OpKind kind = OpKind::Get;
  int pe = 0;
  int peer = -1;
  double bytes = 0;
  double start = 0;  // s of simulated time
  double end = 0;    // s
  // s the call's data took on its own: from the data's first byte leaving (after the path latency) to
  // its delivery, or a local copy's copy; 0 when the call moved no data. bytes / flow is the
  // transfer's own rate, which no shared link can exceed, while bytes / duration() is what the
  // caller saw (a non-blocking put returns long before its data lands).
  double flow = 0;
  bool background = false;  // the call returned before its data was delivered (a non-blocking put)
  // Repetitions summed into this record (Workload::repeats): then `end` is start + their durations
  // summed and `flow` their flow times summed.
  int repeats = 1;
  double duration() const { return end - start; }
};

// One data movement of a put or get (requests and flags' own packets excluded): from the start of its
// latency to its delivery.
struct Transfer {
  int src = 0;
  int dst = 0;
  double bytes = 0;
  double start = 0;    // s
  double end = 0;      // s
  int iteration = 0;   // the measurement (size index) it belongs to
  int initiator = -1;  // the PE whose call moved it (get data: the getter, dst); -1: src
  // The data movements it stands for: a repeated block's (Workload::repeats) first repetition stands for
  // its later ones, which move the same bytes between the same PEs and are not listed themselves.
  int repeats = 1;
  int mover() const { return initiator >= 0 ? initiator : src; }
  double bytes_moved() const { return bytes * repeats; }  // over every movement it stands for
};

// What the file servers did in a run (io_layer.hpp).
struct IoStats {
  long calls = 0;             // forwarded calls (each may be one request per disk it touches)
  long requests = 0;          // requests served by the disks' servers
  double bytes_written = 0;   // bytes
  double bytes_read = 0;      // bytes
  double queue_wait = 0;      // s summed over requests: waiting for a disk's server (FIFO)
  double max_queue_wait = 0;  // s: the longest one request waited
  double main_calls = 0;      // forwarded calls of the main job's PEs
  double main_call_time = 0;  // s summed: from a main-job call's issue (after its overhead) to its reply
};

// What the packet driver measured (sim/core/packet/packet_transport.hpp): BookSim's throughput figures
// over the sample periods after the warm-up in which every source was backlogged.
// One virtual channel's activity in a packet run's recorded window (run --vc-report;
// core/packet/vc_recorder.hpp says what each figure measures). port 0-5: an output VC of a torus link
// (Torus::link_id's direction), 6: the ejection into the node; injection: the node's injection VC vc.
struct VcActivity {
  int node = 0, port = 0, vc = 0;
  bool injection = false;
  uint64_t packets = 0;     // granted it in the window (injection: made on it)
  double wait_sum = 0;      // cycles, over those packets: from the cycle their input VC asked to the grant
  uint64_t held = 0;        // packets whose holding time ended (granted in the window)
  double hold_sum = 0;      // cycles, over those: from the grant to the cycle it could be granted again
  double hold_squares = 0;  // cycles^2
  std::array<uint64_t, 7> packets_from{};  // by the input port they came through (0-5: the direction of the link it
                                           // came over, 6: injection)
  std::array<double, 7> wait_from{};       // cycles, their waits
};

struct PacketRunStats {
  bool present = false;  // the run used the packet driver
  double cycle_s = 0;
  uint64_t cycles = 0;
  uint64_t window_begin = 0, window_end = 0;  // cycles; empty: no period was measured
  double accepted_flits_per_cycle = 0;        // mean over source nodes (valid when the window is not empty)
  double accepted_flits_per_cycle_min = 0;    // the slowest source node's
  double mean_packet_latency_cycles = 0;      // from a message's arrival to each of its packets' last flit
  uint64_t packets = 0;
  uint64_t flits = 0;
  uint64_t vc_from = 0, vc_to = 0;  // cycles: the window vcs was recorded over (run --vc-report)
  std::vector<VcActivity> vcs;      // the VCs with any activity in it, by node, injection last, port, vc
};

struct RunResult {
  std::string machine;
  std::string profile;
  std::string workload;
  int pes = 0;
  double makespan = 0;              // s: when the last PE finished (outstanding puts delivered and acknowledged)
  int swap_iterations = 0;          // from the workload: > 0 when the run is a swap pattern
  std::vector<OpRecord> records;    // sorted by (pe, start, step) for deterministic output
  InternTable labels;               // the names of OpRecord::label (the workload's label table)
  std::vector<Transfer> transfers;  // sorted by (start, src, dst, end)
  std::string placement;            // how the job's PEs were placed
  // Bytes of data each network resource carried (NetworkResources' numbering: interfaces, then links),
  // when the links a transfer used depend on the load (minimal_adaptive); empty when they follow from
  // the routing alone (the reports then route the transfers themselves).
  std::vector<double> network_bytes;
  // When every PE of the main job (job 0) had finished: the makespan without a background job's tail.
  double main_job_end = 0;
  IoStats io;  // file I/O (io_layer.hpp), when the workload has any
  // Records and transfers are sums (Workload::summed_records, a streamed trace's replay): a record per PE,
  // label, kind and measurement (OpRecord::repeats calls; `end` its start plus their durations summed,
  // `bytes` the largest call's, `peer` -1 when they differ) and a transfer per pair, direction, measurement and
  // mover (`bytes` summed, `end` its start plus their durations summed).
  bool summed = false;
  // summed: when each PE's last operation ended (a summed record's `end` is not), by PE.
  std::vector<double> last_end;
  PacketRunStats packet;  // the packet driver's measures
};

void sort_records(std::vector<OpRecord>& records);
void sort_transfers(std::vector<Transfer>& transfers);

}  // namespace t3sim::core
