// One PE of a job as an S4U actor: runs its operations in order and records their timing.
// Semantics (times as in core/cost_model.hpp when nothing else shares the path):
//   get local  : call_overhead + local_overhead + bytes/copy_bandwidth, a memory copy on the PE.
//   get remote : call_overhead; the request crosses the network (latency, then request_bytes as a flow);
//                then the data flows back (latency, then a flow capped at get_bandwidth).
//   put        : call_overhead; latency, then a flow capped at put_bandwidth; complete=true waits for the
//                delivery acknowledgement (return latency); complete=false returns after call_overhead
//                and the transfer goes on in the background until the PE's next quiet.
//                signal: the target's flag is raised when the data is delivered.
//   wait       : blocks until the PE's flag has been raised, then lowers it once (no cost of its own).
//   barrier    : every PE of the job waits for all, then barrier_latency.
//   compute    : seconds, or flops at clock x flops_per_cycle.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/cost_model.hpp"
#include "sim/core/results.hpp"
#include "sim/engine/platform_builder.hpp"

namespace t3sim::engine {

// The signal flags of one PE (shmem_wait_until targets): a count per flag name.
struct FlagBoard {
  std::map<std::string, int> signalled;
  sg4::MutexPtr mutex;
  sg4::ConditionVariablePtr changed;
};

struct JobContext {
  const core::CostModel* cost = nullptr;
  const PlatformBuilder* platform = nullptr;
  sg4::BarrierPtr barrier;
  std::vector<std::vector<core::OpRecord>>* records = nullptr;  // one vector per PE
  uint64_t* next_transfer = nullptr;                            // names each transfer's mailbox
  std::vector<FlagBoard>* flags = nullptr;                      // one board per PE
  std::vector<core::Transfer>* transfers = nullptr;             // data movements, in completion order
  std::vector<std::string>* doing = nullptr;  // per PE: the operation under way, "" once the PE finished
  std::string step_unit = "step";             // what Op::step counts (core::Workload::step_unit)
};

class ShmemPe {
 public:
  ShmemPe(JobContext ctx, int pe, std::vector<core::Op> program)
      : ctx_(std::move(ctx)), pe_(pe), program_(std::move(program)) {}
  void operator()();

 private:
  void run_op(const core::Op& op);
  void remote_get(const core::Op& op);
  void remote_put(const core::Op& op);
  // A flow of `bytes` from src to dst (rate <= cap), its path latency on the links, waited for.
  // `iteration` >= 0 records the transfer in the run's data movements.
  void transfer(int src_pe, int dst_pe, double bytes, double cap, int iteration = -1) const;
  void quiet();
  void signal(int pe, const std::string& flag) const;
  void wait(const std::string& flag) const;

  JobContext ctx_;
  int pe_;
  std::vector<core::Op> program_;
  // Background puts, joined by quiet. Held by pid, not ActorPtr: a held ActorPtr keeps a finished
  // actor's stack mapped, and a trace's thousands of puts before a quiet ran out of mappings.
  std::vector<aid_t> in_flight_;
};

}  // namespace t3sim::engine
