// THE one SHMEM PE state machine: every PE of a job runs its operations in program order over a
// Transport (transport.hpp), which says only when delays and flows end. Semantics (times as in
// cost_model.hpp when nothing else shares the path):
//   get local  : call_overhead + local_overhead + bytes/copy_bandwidth (a memory copy; put to self too)
//   get remote : call_overhead; the path latency, the request (request_bytes) as a flow; the return
//                path latency, then the data as a flow capped at get_bandwidth. An atomic is a get of
//                its reply.
//   put        : call_overhead; the path latency, then the data as a flow capped at put_bandwidth;
//                when delivered the target's flag (if any) is raised, and the acknowledgement takes
//                the return latency. complete=true waits for the acknowledgement; complete=false
//                returns after call_overhead and the put goes on until the PE's next quiet.
//   quiet      : until every put of the PE is acknowledged; a program ends with one.
//   wait       : until the PE's flag has been raised, then lowers it once (no cost of its own).
//   barrier    : when every PE of the job has arrived, barrier_latency.
//   compute    : seconds + flops / (clock x flops_per_cycle); overhead: message_overhead.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/core/cost_model.hpp"
#include "sim/core/results.hpp"
#include "sim/core/transport.hpp"
#include "sim/core/workload.hpp"

namespace t3sim::core {

// Where a data flow's own time is written: the flow_time of the PE's operation under way (record
// kNoFlowRecord), or a record already written (a non-blocking put's); pe < 0: nowhere (requests, acks).
constexpr size_t kNoFlowRecord = static_cast<size_t>(-1);
struct FlowNote {
  int pe = -1;
  size_t record = kNoFlowRecord;
};

class PeInterpreter {
 public:
  PeInterpreter(const CostModel& cost, const Workload& workload, Transport& transport);
  PeInterpreter(const PeInterpreter&) = delete;
  PeInterpreter& operator=(const PeInterpreter&) = delete;

  // Schedules every PE's first operation at the transport's time 0; then run the transport.
  void start();

  // Once the transport has run out of events: the run's result (records and transfers sorted, the
  // makespan the last PE's end, its background puts' acknowledgements included). Throws
  // std::runtime_error naming each PE that could not finish and what it waits in (a deadlock).
  RunResult take_result();

 private:
  using Callback = Transport::Callback;
  struct Pe {
    std::vector<uint32_t> program;  // indices into the workload's ops
    size_t next = 0;                // position of the operation under way (program.size(): the final quiet)
    double op_start = 0;            // when it started
    double flow_time = 0;           // its data's own flow time so far (OpRecord::flow)
    int in_flight = 0;              // non-blocking puts not yet acknowledged
    bool in_quiet = false;          // blocked until in_flight is 0
    bool finished = false;
    NameId waiting_flag = kNoName;    // blocked in wait on this flag (Workload::flags id) unless kNoName
    std::map<NameId, int> signalled;  // flag id -> signals not yet consumed
  };
  struct Job {
    int first_pe = 0;
    int size = 0;
    int arrived = 0;
  };

  static constexpr size_t kNoRecord = kNoFlowRecord;
  // The path latency, then a flow of `bytes` (recorded as a transfer when iteration >= 0), then `then`.
  void transfer(int src, int dst, double bytes, FlowKind kind, int iteration, Callback then, FlowNote note = {});
  void advance(int pe);   // runs the PE's operations until one has to wait
  bool start_op(int pe);  // true when the operation finished at once
  void complete_op(int pe);
  void record(int pe);
  void put_delivered(int src, int dst, NameId flag, bool blocking);
  void signal(int pe, NameId flag);
  // "" when every PE finished; else one line per PE that did not, naming what it waits in.
  std::string stuck() const;
  const Op& op_at(const Pe& s) const { return workload_.ops[s.program[s.next]]; }

  const CostModel& cost_;
  Transport& transport_;
  std::vector<Pe> pes_;
  const Workload& workload_;
  std::vector<Job> jobs_;
  std::vector<int> job_of_;
  std::vector<std::vector<OpRecord>> records_;
  std::string step_unit_;  // what Op::step counts, for the deadlock report
  std::vector<Transfer> transfers_;
  double end_time_ = 0;  // when the last PE finished
};

}  // namespace t3sim::core
