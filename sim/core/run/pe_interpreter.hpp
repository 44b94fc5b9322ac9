// THE one SHMEM PE state machine: every PE of a job runs its operations in program order over a
// Transport (transport.hpp), which says only when delays and flows end. Semantics (times as in
// cost_model.hpp when nothing else shares the path):
//   get local  : call_overhead + local_overhead + bytes/copy_bandwidth (a memory copy; put to self too)
//   get remote : call_overhead; the path latency, the request (request_bytes) as a flow; the return
//                path latency, then the data as a flow capped at get_bandwidth. An atomic is a get of
//                its reply.
//   put        : call_overhead; the path latency, then the data as a flow capped at put_bandwidth;
//                when delivered the target's flag (if any, order OnArrival: a flag put) is raised,
//                and the acknowledgement takes the return latency. complete=true waits for the
//                acknowledgement; complete=false returns after call_overhead and the put goes on
//                until the PE's next quiet.
//   signalled  : a put with a flag of order Fence or Quiet is three calls: the put (as above, in the
//                background), then shmem_fence (sync_overhead; orders delivery per target: the flag
//                rises only when the PE's earlier puts to that target have landed) or shmem_quiet
//                (sync_overhead, then until every put of the PE is acknowledged), then the flag put
//                (call_overhead, 8 bytes). complete=true also waits for both acknowledgements.
//   quiet      : sync_overhead, then until every put of the PE is acknowledged; a program ends with
//                one (without the call's cost).
//   wait       : until the PE's flag has been raised, then lowers it once (no cost of its own).
//   barrier    : when every PE of the job has arrived, barrier_latency.
//   compute    : seconds + flops / (clock x flops_per_cycle), or a seeded exponential draw of mean
//                seconds (Op::exponential); overhead: message_overhead.
//   write, read, close: file calls over the machine's I/O nodes (io_layer.hpp); a program ends by
//                closing the files it left open.
// Repeated blocks (Workload::repeats) run again from their first operation; their records are summed.
// A workload with a source (Workload::source) hands its PEs their operations as they reach them, a few
// at a time; with summed_records the records and transfers are sums kept as the run goes.
#pragma once
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/program/workload.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/file_io.hpp"
#include "sim/core/run/results.hpp"
#include "sim/core/run/transport.hpp"
#include "sim/core/support/callback_slots.hpp"
#include "sim/core/support/model_error.hpp"
#include "sim/core/support/slot_pool.hpp"
#include "sim/core/support/task.hpp"

namespace t3sim::core {

// Where a data flow's own time is written: the record `record` of PE `pe` once the operation that
// started it (the PE's `seq`-th) has returned, or the PE's flow_time while it is still under way;
// pe < 0: nowhere (requests, acknowledgements, flag puts).
struct FlowNote {
  int pe = -1;
  size_t record = 0;
  uint64_t seq = 0;
  bool repeated = false;  // the operation is in a repeated block: its listed transfer stands for its repetitions
};

class PeInterpreter : private TaskHandler {
 public:
  // On a machine with I/O nodes, transport endpoints workload.pes .. are the I/O nodes
  // (JobPlacement::with_io_nodes).
  PeInterpreter(const CostModel& cost, const Workload& workload, Transport& transport);
  PeInterpreter(const PeInterpreter&) = delete;
  PeInterpreter& operator=(const PeInterpreter&) = delete;

  // Schedules every PE's first operation at the transport's time 0; then run the transport.
  void start();

  // Once the transport has run out of events: the run's result (records and transfers sorted, the
  // makespan the last PE's end, its background puts' acknowledgements included). Throws
  // ModelError naming each PE that could not finish and what it waits in (a deadlock).
  RunResult take_result();

 private:
  using Callback = Transport::Callback;
  struct Loop {  // a repeated block of the PE's program (Workload::repeats)
    size_t begin = 0;
    size_t end = 0;
    int count = 1;      // 0: until the main job has finished
    size_t repeat = 0;  // its Workload::repeats entry
  };
  struct Pe {
    std::vector<uint32_t> program;  // indices into the workload's ops
    size_t next = 0;                // position of the operation under way (program.size(): the final quiet)
    bool streamed = false;          // its operations come from the workload's source, into `window`
    std::vector<Op> window;         // streamed: the operations fetched and not yet run (next indexes it)
    std::unordered_map<uint64_t, uint32_t> summed;  // summed_records: (label, kind, iteration) -> its record
    std::vector<Loop> loops;                        // in program order
    size_t loop = 0;                                // the next or current loop
    int repetition = 0;                             // of the current loop (0: the first, whose records are kept)
    size_t loop_record = 0;                         // the record of the loop's first operation
    uint64_t executed = 0;                          // operations returned so far (repetitions counted)
    bool files_closed = false;                      // the program's end has closed the PE's files
    std::unique_ptr<std::mt19937_64> random;        // exponential compute draws, made on first use
    double op_start = 0;                            // when it started
    double flow_time = 0;                           // its data's own flow time so far (OpRecord::flow)
    int in_flight = 0;          // non-blocking puts (and signalled puts' flag puts) not yet acknowledged
    Callback when_quiet;        // set while blocked until in_flight is 0: what runs then
    bool waiting_slot = false;  // a non-blocking put waits for in_flight below outstanding_puts
    bool finished = false;
    NameId waiting_flag = kNoName;    // blocked in wait on this flag (Workload::flags id) unless kNoName
    std::map<NameId, int> signalled;  // flag id -> signals not yet consumed
    // This PE's puts to each target, for fences: sequence numbers issued, those not landed yet, and
    // flags that landed before the puts they were fenced behind ((puts before them, flag), in order).
    // Puts mostly land in the order issued, so those not landed are kept as the first of them plus
    // the few later ones that landed early (a set of every put in flight cost a node per put).
    struct TargetPuts {
      uint64_t issued = 0;
      uint64_t landed_below = 0;        // every put numbered below this has landed
      std::set<uint64_t> landed_early;  // puts above landed_below that have landed
      std::vector<std::pair<uint64_t, NameId>> held;
      bool quiet() const { return landed_below == issued; }    // none in flight
      uint64_t first_pending() const { return landed_below; }  // only when !quiet()
      void land(uint64_t seq);
    };
    // By target. Hashed, and each put keeps a pointer to its entry (stable while the put is in
    // flight), since a PE may talk to thousands of targets and puts are the hot path of a run.
    std::unordered_map<int, TargetPuts> to;
  };
  struct Job {
    int first_pe = 0;
    int size = 0;
    int arrived = 0;
  };

  // A data movement under way (transfer): what its end records and what runs then.
  struct Movement {
    int src, dst;
    double bytes;
    FlowKind kind;
    int iteration;
    double start;       // when transfer() was called
    double flow_start;  // when its flow started (after the path latency, unless the transport times it)
    FlowNote note;
    int landing;  // a put's data (puts_ id): put_landed(landing) at its end instead of `then`; else -1
    int then;     // what runs at its end (unless landing): its callbacks_ slot
  };
  // A put from issue to acknowledgement (start_put).
  struct PutInFlight {
    int pe, dst;
    Pe::TargetPuts* to;  // its target's numbering (null when the workload has no fence)
    uint64_t seq;        // its number among the PE's puts to dst
    NameId flag;         // raised at dst when it lands (kNoName: none)
    bool ordered;        // the flag waits for the PE's earlier puts to dst
    bool background;     // counted in the PE's in_flight
    int acked;           // runs on its acknowledgement: its callbacks_ slot, or -1 for nothing
  };

  // What the interpreter's own events do (a Task's `what`; its `id` a PE, movement or put): the hot
  // paths schedule these rather than std::function callbacks.
  enum class Step { Advance, CompleteOp, IssuePut, StartFlow, EndFlow, PutAcked };
  Task task(Step step, int id) { return Task{this, static_cast<int>(step), id}; }
  void run_task(int what, int id) override;

  // The path latency, then a flow of `bytes` (recorded as a transfer when iteration >= 0), then `then`.
  void transfer(int src, int dst, double bytes, FlowKind kind, int iteration, Callback then, FlowNote note = {});
  // transfer() of a put's data: put_landed(put) at its end.
  void transfer_put(int put, int src, int dst, double bytes, int iteration, FlowNote note);
  // Records a movement under way from now; returns its id.
  int add_movement(int src, int dst, double bytes, FlowKind kind, int iteration, FlowNote note, int landing, int then);
  // Starts its flow, after the path latency unless the transport times it.
  void launch(int movement);
  // cost_.latency(src, dst), with the hop count of each pair of nodes worked out once (hops_).
  double path_latency(int src, int dst);
  void start_flow(int movement);
  void end_flow(int movement);
  void advance(int pe);   // runs the PE's operations until one has to wait
  bool start_op(int pe);  // true when the operation finished at once
  void complete_op(int pe);
  void record(int pe);
  // The loop the operation under way is in, or null.
  const Loop* current_loop(const Pe& s) const;
  // Its record's index (the first repetition's in a loop), and where its data's flow time goes.
  size_t record_index(int pe);  // summed_records: made on first use
  FlowNote note_of(int pe);
  // Its data movements are listed (iteration >= 0) only outside a loop's later repetitions.
  int listed_iteration(const Pe& s, const Op& op) const;
  double exponential_draw(int pe, double mean);
  void finished(int pe);
  // A put of `bytes` from pe to dst: counted in in_flight when `background`; when it lands, `flag` (if
  // any) rises at dst, after the PE's earlier puts to dst when `ordered`; on its acknowledgement
  // `acked` runs (if set).
  void start_put(int pe, int dst, double bytes, int iteration, NameId flag, bool ordered, bool background,
                 FlowNote note, Callback acked);
  // A plain put's call (its overhead over): issued now, or once one of outstanding_puts is free.
  void issue_put(int pe);
  void issue_put_now(int pe);
  void put_landed(int put);
  void put_acked(int put);
  void landed(int pe, int dst, Pe::TargetPuts& t, uint64_t seq);
  void put_acknowledged(int pe);
  // `then` at once when no put of the PE is in flight, else when the last is acknowledged.
  void when_quiet(int pe, Callback then);
  // `then` after the profile's sync_overhead (at once, without an event, when it is 0).
  void after_sync(Callback then);
  void signal(int pe, NameId flag);
  // "" when every PE finished; else one line per PE that did not, naming what it waits in.
  std::string stuck() const;
  const Op& op_at(const Pe& s) const { return s.streamed ? s.window[s.next] : workload_.ops[s.program[s.next]]; }
  // Whether the PE has run its last operation (what remains is the final quiet).
  static bool at_end(const Pe& s) { return s.next == (s.streamed ? s.window.size() : s.program.size()); }
  // Moves to the PE's next operation, fetching more from the source when its window is used up.
  void step_on(int pe);
  // summed_records: the record operation `op` of `pe` is summed into (made on first use).
  size_t summed_record(int pe, const Op& op);
  void add_transfer(const Transfer& t);

  const CostModel& cost_;
  Transport& transport_;
  std::vector<Pe> pes_;
  const Workload& workload_;
  std::vector<Job> jobs_;
  std::vector<int> job_of_;
  // By node pair (source node x nodes_ + destination node): its hop count + 1, or 0 until worked out
  // (routing a pair costs more than the rest of a put's acknowledgement); empty on a machine too large.
  std::vector<uint8_t> hops_;
  int nodes_ = 0;
  std::vector<std::vector<OpRecord>> records_;
  std::vector<double> last_end_;  // summed_records: when each PE's last operation ended
  std::string step_unit_;         // what Op::step counts, for the deadlock report
  std::vector<Transfer> transfers_;
  // Listed transfers of a repeated block's first repetition, with the record whose repeats they take
  // at the end (Transfer::repeats): (transfer index, pe, record).
  struct RepeatedTransfer {
    size_t transfer;
    int pe;
    size_t record;
  };
  std::vector<RepeatedTransfer> repeated_transfers_;
  std::unordered_map<uint64_t, size_t> summed_transfers_;  // summed_records: (src, dst, iteration, pulled) -> index
  double end_time_ = 0;                                    // when the last PE finished
  int main_left_ = 0;                                      // PEs of the main job not finished yet
  double main_end_ = 0;                                    // when the main job's last PE finished
  std::unique_ptr<FileIo> io_;                             // on a machine with I/O nodes
  // Pooled, so that the transport's callbacks carry only an id and `this` (small enough for
  // std::function's own storage: a put's dozen captured values cost a heap allocation each time).
  SlotPool<Movement> movements_;
  SlotPool<PutInFlight> puts_;
  CallbackSlots callbacks_;  // the movements' and puts' callbacks, parked (the records stay plain data)
  // Some put's flag is ordered behind the PE's earlier puts (fence or quiet), or a source may make one.
  bool fences_ = false;
};

}  // namespace t3sim::core
