// The fast driver: every PE of the job is a state machine advanced from SimGrid's maestro, with no actor
// per PE or per message (an actor costs a context and a stack; at 512 PEs the reference driver spends
// more time creating actors for messages than SimGrid spends sharing bandwidth). Delays (overheads,
// latencies, barrier latency) are kernel timers; transfers are host-to-host comms started from
// maestro, their completions delivered by Activity::on_completion; per-transfer rate caps are links
// (see platform_builder.hpp). Semantics and times are those of ShmemPe (shmem_pe.hpp), which stays as
// the reference driver; tests/engine checks both against the same closed forms.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/cost_model.hpp"
#include "sim/core/results.hpp"
#include "sim/core/workload.hpp"
#include "sim/engine/platform_builder.hpp"

namespace t3sim::engine {

class EventDriver {
 public:
  EventDriver(const core::CostModel& cost, const PlatformBuilder& platform, const core::Workload& workload);
  ~EventDriver();
  EventDriver(const EventDriver&) = delete;
  EventDriver& operator=(const EventDriver&) = delete;

  void start();  // schedules every PE's first operation; call before engine.run()

  std::vector<core::OpRecord> take_records();
  std::vector<core::Transfer> take_transfers() { return std::move(transfers_); }
  // "" when every PE finished; else one line per PE that did not, naming what it waits in.
  std::string stuck() const;

 private:
  using Callback = std::function<void()>;
  struct Pe {
    std::vector<core::Op> program;
    size_t next = 0;        // index of the operation under way (program.size(): the final quiet)
    double op_start = 0;    // when it started
    int in_flight = 0;      // non-blocking puts not yet acknowledged
    bool in_quiet = false;  // blocked until in_flight is 0
    bool finished = false;
    std::string waiting_flag;  // blocked in wait on this flag when not empty
    std::map<std::string, int> signalled;
  };
  struct Job {
    int first_pe = 0;
    int size = 0;
    int arrived = 0;
  };

  void after(double delay, Callback then);
  // Latency of the path, then a flow of `bytes` (recorded as a transfer when iteration >= 0), then `then`.
  void transfer(int src, int dst, double bytes, FlowKind kind, int iteration, Callback then);
  void advance(int pe);   // runs the PE's operations until one has to wait
  bool start_op(int pe);  // true when the operation finished at once
  void complete_op(int pe);
  void record(int pe);
  void put_delivered(int src, int dst, const std::string& flag, bool blocking);
  void signal(int pe, const std::string& flag);
  void on_completion(const simgrid::s4u::Activity& activity);

  const core::CostModel& cost_;
  const PlatformBuilder& platform_;
  std::vector<Pe> pes_;
  std::vector<Job> jobs_;
  std::vector<int> job_of_;
  std::vector<std::vector<core::OpRecord>> records_;
  std::string step_unit_;  // what Op::step counts, for the deadlock report
  std::vector<core::Transfer> transfers_;
  struct Pending {
    simgrid::s4u::ActivityPtr activity;
    Callback then;
  };
  std::unordered_map<const simgrid::s4u::Activity*, Pending> pending_;
  std::vector<simgrid::s4u::ActivityPtr> finished_;  // released outside the completion signal
};

}  // namespace t3sim::engine
