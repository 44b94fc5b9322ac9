// What both trace readers build: every PE's calls (SHMEM operations, messages, collectives), checked
// as a whole (every PE runs the same collectives in the same order; every message is matched) and
// expanded by the message layer into a workload. Errors point at the trace line of the call.
#pragma once
#include <string>
#include <vector>

#include "sim/core/messages/collectives.hpp"
#include "sim/core/messages/message_layer.hpp"
#include "sim/io/trace/common/trace_lines.hpp"
#include "sim/io/workload/trace_account.hpp"

namespace t3sim::io {

class TraceProgram {
 public:
  // `max_calls`: the most operations the trace may expand to (core::kMaxOperations; less in the fuzzer).
  // `strict`: every warning is an error.
  TraceProgram(int pes, std::vector<std::string> files, double max_calls, bool strict = false)
      : programs_(static_cast<size_t>(pes)),
        files_(std::move(files)),
        next_request_(static_cast<size_t>(pes), 0),
        collectives_(static_cast<size_t>(pes)),
        collectives_made_(static_cast<size_t>(pes), 0),
        max_calls_(max_calls),
        strict_(strict) {}
  double max_calls() const { return max_calls_; }
  int pes() const { return static_cast<int>(programs_.size()); }

  // Every call is made at `at` (file index into `files`, line), under `label` (interned into the
  // workload's labels when the call is added), in measurement `iteration`.
  struct Where {
    int file = 0;
    int line = 0;
    std::string label;
    int iteration = 0;
  };
  // The id of a flag a SHMEM operation names, for its Op::flag.
  core::NameId flag(const std::string& name) { return flags_.intern(name); }
  void shmem(int pe, core::Op op, const Where& at);
  // Returns the request number of a non-blocking call.
  int message(int pe, core::Call::Kind kind, int peer, double bytes, int tag, bool blocking, const Where& at,
              core::Call::Mode mode = core::Call::Mode::Standard, bool maybe_null = false);
  void wait_request(int pe, int request, const Where& at);
  void wait_all(int pe, const Where& at);
  void collective(int pe, const core::CollectiveCall& c, const Where& at);
  // A collective whose ranks and instance the reader planned (ti_collective_plan.hpp): `group` its
  // ranks ascending (empty: every PE; the call's root is relative to it), `instance` the same number on
  // each of them (its tag). Not part of the same-collectives check.
  void collective_instance(int pe, core::CollectiveCall c, const Where& at, const std::vector<int>& group,
                           int instance);

  // Every action line is read between begin_line and end_line, and becomes calls (the methods above)
  // or no cost by a named `rule` (no_cost); end_line throws std::logic_error when a line did neither,
  // so a reader cannot drop a line silently.
  void begin_line();
  void no_cost(const std::string& rule);
  void end_line(const Where& at);
  // A guess the trace forced at `pos` (`key`: the action): counted per key and `what`, the first
  // line's `detail` kept; an error when strict.
  void warn(const SourcePos& pos, const std::string& key, const std::string& what, const std::string& detail = "");
  const TraceAccount& account() const { return account_; }

  // Checks and expands. `name` and `doc` name the workload.
  core::Workload finish(const std::string& name, const std::string& doc, const core::MessageProtocols& protocols);

  // For the streamed replay (ti_trace_stream.hpp), which reads the trace twice: the first reading
  // checks, counts and indexes every PE's calls, taken as they are made; the second, by a program made
  // with replay_of(), makes them again as the replay reaches them, with the first's names and ids, no
  // warnings (they were counted) and no limit.
  std::vector<core::Call>& calls(int pe) { return programs_[static_cast<size_t>(pe)]; }
  // Every PE runs the same collectives in the same order (finish() checks it first).
  void check_collectives() const;
  // Moves `received` receives that turned out to be from MPI_PROC_NULL from replayed to without cost.
  void null_receives(size_t received);
  const core::InternTable& flags() const { return flags_; }
  const core::InternTable& labels() const { return labels_; }
  static TraceProgram replay_of(const TraceProgram& first);

 private:
  core::Call call(core::Call::Kind kind, const Where& at);
  void count(const Where& at);
  struct CollectiveUse {
    core::Collective kind;
    Where at;
  };
  std::vector<std::vector<core::Call>> programs_;
  std::vector<std::string> files_;
  std::vector<int> next_request_;
  std::vector<std::vector<CollectiveUse>> collectives_;
  std::vector<int> collectives_made_;  // per PE: collective() calls so far
  core::InternTable flags_;            // the workload's flags: the SHMEM operations', then the message layer's
  core::InternTable labels_;           // the workload's labels
  double calls_ = 0;
  double max_calls_;
  bool strict_;
  bool replay_ = false;  // made by replay_of: warnings and the limit were the first reading's
  enum class LineFate { Open, Replayed, NoCost, Closed } line_ = LineFate::Closed;
  TraceAccount account_;
};

}  // namespace t3sim::io
