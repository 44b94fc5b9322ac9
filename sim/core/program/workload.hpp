// A workload expanded into operations: each PE runs its own operations in program order; a barrier
// is one operation that every PE of the job runs. Bytes, seconds and flops in SI units.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/support/enum_names.hpp"
#include "sim/core/support/intern_table.hpp"
#include "sim/core/support/seeded_permutation.hpp"

namespace t3sim::core {

enum class OpKind : uint8_t {
  Get,            // pe reads `bytes` from peer's memory into its own (peer == pe: a local memory copy)
  Put,            // pe writes `bytes` into peer's memory; complete=true also waits for delivery (shmem_quiet)
  Quiet,          // pe waits until all its outstanding puts are delivered
  Barrier,        // every PE of the job waits for all the others (pe == kAllPes)
  Compute,        // pe computes for `seconds`, or `flops` at the node's peak rate
  Wait,           // pe waits until its flag `flag` has been signalled, then consumes one signal (wait_until + reset)
  Overhead,       // pe spends the profile's message_overhead: one message's software cost in PSTSWM's message layer
  Atomic,         // pe runs an atomic swap / fetch-add on peer's memory: a round trip like a get of `bytes` (8)
  MpiSend,        // pe spends the profile's mpi_send_overhead: an MPI send call's own software cost
  MpiRecv,        // pe spends the profile's mpi_recv_overhead: an MPI receive call's own software cost
  MpiCollective,  // pe spends the profile's mpi_collective_overhead: entering an MPI collective call
  Write,          // pe writes `bytes` to file `peer` (Workload::files) in records of record_bytes(op), through the
                  // buffering op.io_mode says (io_layer.hpp)
  Read,           // pe reads `bytes` from file `peer`, in buffer-sized forwarded calls
  Close,          // pe closes file `peer`: writes what its buffer holds and waits for every write of the file
                  // (the last kind: results_writer's parser counts up to it)
};

// How a PE's writes reach the file servers (io_layer.hpp):
//   Runtime: the language runtime's own buffer (io.runtime_buffer): a full buffer is one synchronous
//            forwarded write, the writer waits for it (a program without a buffering library).
//   Iobuf:   a buffering library's buffers (io.iobuf_size x io.iobuf_count): a full buffer is written
//            asynchronously; the writer waits only when every buffer is being written (Cray's iobuf).
enum class IoMode : uint8_t { Runtime, Iobuf };
// As a workload's `buffering:` names them.
constexpr NameTable<IoMode, 2> kIoModeNames = {{IoMode::Runtime, "none"}, {IoMode::Iobuf, "iobuf"}};
constexpr const auto& name_table(IoMode) { return kIoModeNames; }

constexpr int kAllPes = -1;

// How a put's signal reaches its target (Op::order; only for a put with a flag):
//   OnArrival: the flag rises when the put itself lands: a flag put, whose data is the flag word.
//   Fence:     a data put with a signal, as SHMEM codes wrote it: the put, shmem_fence, then a flag
//              put (8 bytes); the fence orders delivery per target (the flag rises only when every
//              earlier put of the PE to that target has landed), it does not wait.
//   Quiet:     the put, shmem_quiet (wait until every put of the PE is acknowledged), then the flag put.
enum class SignalOrder : uint8_t { OnArrival, Fence, Quiet };
// As a workload's put `order:` names them (in the order its messages list them: fence, quiet or none).
constexpr NameTable<SignalOrder, 3> kSignalOrderNames = {
    {SignalOrder::Fence, "fence"}, {SignalOrder::Quiet, "quiet"}, {SignalOrder::OnArrival, "none"}};
constexpr const auto& name_table(SignalOrder) { return kSignalOrderNames; }
constexpr double kFlagWordBytes = 8;  // what a flag put moves: one 64-bit word

// As records, reports and workload steps name them (a workload step may be get, put, quiet, wait, barrier,
// compute, write, read or close: io/workload/workload_loader.cpp).
constexpr NameTable<OpKind, 14> kOpKindNames = {{OpKind::Get, "get"},
                                                {OpKind::Put, "put"},
                                                {OpKind::Quiet, "quiet"},
                                                {OpKind::Barrier, "barrier"},
                                                {OpKind::Compute, "compute"},
                                                {OpKind::Wait, "wait"},
                                                {OpKind::Overhead, "overhead"},
                                                {OpKind::Atomic, "atomic"},
                                                {OpKind::MpiSend, "mpi_send"},
                                                {OpKind::MpiRecv, "mpi_recv"},
                                                {OpKind::MpiCollective, "mpi_collective"},
                                                {OpKind::Write, "write"},
                                                {OpKind::Read, "read"},
                                                {OpKind::Close, "close"}};
constexpr const auto& name_table(OpKind) { return kOpKindNames; }
inline const char* op_kind_name(OpKind k) { return enum_name(k); }  // the records' writers and readers use this

// A flag a workload or trace names (lower-case letters, digits and _); kFlagNameRule says so in errors.
bool is_flag_name(const std::string& name);
constexpr const char* kFlagNameRule = "flag names are lower-case letters, digits and _";

// 56 bytes (a trace may hold millions): names are ids into the workload's tables, and the fields are
// ordered by size so that only the last 2 bytes are padding.
struct Op {
  double bytes = 0;
  double seconds = 0;  // compute: duration, or the mean of an exponential draw when `exponential`
  double flops = 0;    // compute: floating-point operations; write/read: the record size (record_bytes)
  int pe = 0;
  int peer = -1;
  NameId flag = kNoName;   // put: flag signalled at peer when the data is delivered; wait: flag waited on
                           // (an id in Workload::flags)
  NameId label = kNoName;  // name of the step it came from, reported with its timing (Workload::labels)
  int job = 0;             // Barrier: the job whose PEs take part (0: the main job, 1: background)
  int step = 0;            // index of the step in the workload file
  int iteration = 0;       // index into the workload's size sweep
  OpKind kind = OpKind::Get;
  bool complete = true;
  bool message_data = false;                   // get: a message layer's rendezvous pull (FlowKind::MessageData)
  SignalOrder order = SignalOrder::OnArrival;  // put with a flag: how the signal follows the data
  IoMode io_mode = IoMode::Runtime;            // write/read: the buffering
  bool exponential = false;                    // compute: `seconds` is the mean of a seeded exponential draw
  bool loopback = false;  // put with peer == pe: through the node's interface and router, not a memory copy
};

inline double record_bytes(const Op& op) { return op.flops; }

// Operations [first_op, end_op) of Workload::ops run `count` times in a row by every PE that has
// operations there (a barrier among them by every PE of its job). count 0: until every PE of the main
// job (job 0) has finished (a background job that lasts as long as the main one). A repeated
// operation has one record: its first start, and its repetitions' durations summed (OpRecord::repeats);
// the data movements of its repetitions after the first are not listed (RunResult::transfers).
struct Repeat {
  uint32_t first_op = 0;
  uint32_t end_op = 0;
  int count = 1;
};

// An operation of a generated pattern: puts do not wait for delivery (quiet does), as isend. `flag` and
// `label` are ids the caller interned.
Op pattern_op(OpKind kind, int pe, int peer, double bytes, NameId flag, NameId label, int size_index);

constexpr const char* kBackgroundPrefix = "background.";

// The most operations a workload may expand to. A run costs about 0.7 KiB per operation (measured: a
// 512-PE all-to-all of 785k operations peaks at 577 MiB, its 261k routes included), so this keeps a
// run near 11 GB; 16M is 18 sizes of all-to-all on 532 PEs, or one size on 2048.
constexpr double kMaxOperations = 16e6;
// The most operations a streamed trace replay (Workload::source) may make: its memory does not grow with
// them, so this bounds only time (at 0.1-0.8 million operations per wall-second, a day or more).
constexpr double kMaxStreamedOperations = 1e11;

// Operations generated as the run reaches them: a replay of a large trace holds, instead of every
// operation, only each PE's next few (a SimGrid TI trace of millions of lines, sim/io/trace/ti/ti_trace_stream.hpp).
// PEs 0 .. pes()-1 of a workload with a source take their operations from it; the workload's own ops
// (a background job's) are for the PEs after them.
class OpSource {
 public:
  virtual ~OpSource() = default;
  virtual int pes() const = 0;
  // Appends PE `pe`'s next operations, in program order (at least one), to `out`; false, appending
  // nothing, when its program has ended. Each PE's operations come in the order it runs them, and a
  // PE's calls may be interleaved with any other's.
  virtual bool next_ops(int pe, std::vector<Op>& out) = 0;
  // The names of the operations' flags: grows as operations are generated (an Op::flag is an id here).
  virtual const InternTable& flags() const = 0;
  // Calls f with one operation for each distinct (pe, peer, kind, message_data) of PE-to-PE operations
  // the source will generate (a superset is allowed), in a fixed order: what the drivers route before
  // the run starts.
  virtual void for_each_peer_operation(const std::function<void(const Op&)>& f) const = 0;
};

struct Workload;
// The main job with a background job after it: the background's PEs follow the main job's, its
// barriers span only its own PEs, and its labels start with kBackgroundPrefix, so reports of the main
// job leave it out while its traffic still loads the links. The background's names are interned into
// the main job's tables (the main job's ids are kept).
Workload with_background(const Workload& main, const Workload& background);

struct Workload {
  std::string name;
  std::string doc;
  int pes = 0;  // PEs the job uses: ids 0 .. pes-1
  std::vector<Op> ops;
  InternTable flags;                 // the names of Op::flag (a flag is per PE: the same name at two PEs is two flags)
  InternTable labels;                // the names of Op::label, printed with records
  InternTable files;                 // the names of the files of write/read/close (Op::peer)
  std::vector<Repeat> repeats;       // in op order, disjoint
  uint64_t seed = 1;                 // of the exponential compute draws (each PE its own stream)
  int swap_iterations = 0;           // > 0 when the ops come from a swap pattern: swaps per measurement
  std::string pattern;               // the pattern the ops come from ("swap", "neighbor", ...), "" for steps
  std::vector<int> job_first_pe{0};  // jobs are consecutive PE ranges; a barrier spans one job
  std::string step_unit = "step";    // what Op::step counts, for messages: "step" or, for a trace, "line"
  // When set, PEs 0 .. source->pes()-1 take their operations from it as the run reaches them (none of
  // them in `ops`), and a run's records and transfers are sums (summed_records).
  std::shared_ptr<OpSource> source;
  // Records are summed per PE, label, kind and measurement, and transfers per pair, direction,
  // measurement and mover, as the run goes (RunResult::summed): memory does not grow with operations.
  bool summed_records = false;

  int job_of(int pe) const;
  int job_size(int job) const;

  // The operations PE `pe` runs, in order (barriers included); splits every program (tests, one PE).
  std::vector<Op> program_of(int pe) const;
  // Every PE's program at once, in one pass over the ops (program_of for each PE would be quadratic).
  std::vector<std::vector<Op>> programs() const;
  // The same as indices into `ops` (a barrier's index in every PE of its job): no copies.
  std::vector<std::vector<uint32_t>> program_indices() const;
  // Whether an operation names a PE as its peer (file operations name a file there).
  static bool peer_is_pe(const Op& op) {
    return op.kind != OpKind::Write && op.kind != OpKind::Read && op.kind != OpKind::Close;
  }
  bool has_io() const;
  // Calls f(op) for every PE-to-PE operation's kind of pairing: the ops, and the source's
  // peer_operations.
  template <class F>
  void for_each_peer_operation(F&& f) const;
};

template <class F>
void Workload::for_each_peer_operation(F&& f) const {
  for (const Op& op : ops) f(op);
  if (source) source->for_each_peer_operation(f);
}
}  // namespace t3sim::core
