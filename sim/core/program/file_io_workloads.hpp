// Generated workloads that exercise file I/O (io_layer.hpp): a molecular-dynamics run that writes a
// trajectory (pmemd's shape), and other users' writers for a background job. Each PE's repeated
// work is a Workload::repeats block, so a 5000-step run holds one step's operations per frame, not
// 5000 steps' worth.
#pragma once
#include <string>

#include "sim/core/program/workload.hpp"

namespace t3sim::core {

// An MD run in the shape of pmemd (Amber) on P PEs, step by step:
//   compute      step_compute seconds (the force evaluation and integration: fitted, not derived)
//   halo         each PE puts halo_bytes to each of its neighbours in the most cubic 3D grid of the
//                job's PEs (balanced_grid; 6 at most), each put raising the neighbour's flag, then
//                waits for its own neighbours' puts (coordinates of the atoms near its faces)
//   all-reduce   allreduce_bytes by recursive doubling over the largest power of two <= P (the PEs
//                above it fold in first and get the result last): log2 rounds of put + wait
// and every frame_interval steps the trajectory frame: each PE but 0 puts its share of gather_bytes
// (gather_bytes / P) to PE 0, which waits for them all and writes frame_bytes in records of
// record_bytes to `file` through `buffering`; the other PEs go on (they wait for PE 0 at the next
// all-reduce). PE 0 closes the file at the end. Labels: compute, halo, halo_wait, allreduce,
// gather, gather_wait, write, close.
// communication_every = G > 1 coarsens the run: G steps are one compute of G x step_compute followed by
// one halo exchange and one all-reduce (G must divide frame_interval). The I/O's effect is kept (the
// PEs still meet PE 0 at the all-reduce after each frame), the communication is counted once per G
// steps instead of G times, and the simulation does G times fewer flows (docs/results.md, The io-buffering study,
// measures both). sized_for_pes = R > 0 says step_compute and halo_bytes were given for a run of R PEs; at P PEs each
// PE computes step_compute x R / P (the force work divided evenly: perfect strong scaling, assumed) and sends
// halo_bytes x (R / P)^(2/3) (the face of a cubic subdomain R / P times the volume). The frame, the gather and the
// all-reduce are the system's, not the PE's: they do not scale.
struct MdRunSpec {
  int steps = 1;
  int frame_interval = 1;
  int communication_every = 1;
  double step_compute = 0;     // s
  int sized_for_pes = 0;       // 0: step_compute and halo_bytes are the job's own
  double halo_bytes = 0;       // bytes per neighbour per step; 0: no halo exchange
  double allreduce_bytes = 0;  // bytes; 0: no all-reduce
  double gather_bytes = 0;     // bytes per frame over all PEs
  double frame_bytes = 0;      // bytes per frame written; 0: no trajectory
  double record_bytes = 1;     // bytes per formatted record
  std::string file = "trajectory";
  IoMode buffering = IoMode::Runtime;
};
void append_md_run(Workload& w, const MdRunSpec& spec);

// Other users' writers: every PE of the job, again and again until the main job has finished (a
// background job) or `writes` times, thinks for an exponentially distributed time of mean
// think_seconds (seeded: Workload::seed) and then writes `bytes` to a file of its own through
// `buffering`, in records of record_bytes. Each writer is a closed loop: it writes again only when
// its last write has returned, so a loaded file system slows the writers down too.
struct IoWritersSpec {
  double bytes = 0;
  double record_bytes = 0;  // 0: the whole write is one record
  double think_seconds = 0;
  int writes = 0;  // 0: until the main job has finished (a background job only)
  IoMode buffering = IoMode::Runtime;
};
void append_io_writers(Workload& w, const IoWritersSpec& spec);

}  // namespace t3sim::core
