// One rank's lines of a SimGrid 3.32 time-independent trace, turned into calls of a TraceProgram: the
// meaning t3sim gives every action the 3.32 writer emits (tests/data/ti-real/README.md lists them with
// their layouts and where SimGrid writes them; workloads/README.md states the rules for users).
//
// A rank is read in two passes over its lines: the constructor looks ahead (the keys of its posts and
// waits, for TiRequests; its collectives, for plan_collectives), then
// read() turns every line into calls or into no cost by a named rule (TraceProgram::no_cost).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/messages/collectives.hpp"
#include "sim/io/trace/common/trace_lines.hpp"
#include "sim/io/trace/common/trace_program.hpp"
#include "sim/io/trace/ti/ti_collective_plan.hpp"
#include "sim/io/trace/ti/ti_requests.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace t3sim::io {

// A rank's line: the index of its file in the trace's texts, and the line there.
using TiLine = std::pair<int, TraceText::Line>;

class TiRankReader {
 public:
  // `lines` (the rank's, in order) must outlive the reader.
  TiRankReader(TraceProgram& out, int rank, const std::vector<TraceText>& texts, const std::vector<TiLine>& lines);
  // The rank's collectives, for plan_collectives (taken: the reader keeps no copy).
  std::vector<CollectiveVote> take_votes() { return std::move(votes_); }
  // `plan`: the instance each of the rank's collectives belongs to (plan_collectives).
  void read(const std::vector<CollectiveInstance>& plan);
  // The same a line at a time (the streamed replay): start_reading, then read_next until it is false.
  void start_reading(const std::vector<CollectiveInstance>& plan);
  bool read_next();
  // A copy made before reading reads again into `out` from `texts` and `lines` (the same trace, moved):
  // the streamed replay's second reading keeps the first's look-ahead instead of making it again.
  void rebind(TraceProgram& out, const std::vector<TraceText>& texts, const std::vector<TiLine>& lines);

 private:
  struct Line;  // a line being read
  // f for each of the rank's lines in order (line_index_ its index), or only for those whose action
  // is in `only` when it is not empty.
  void for_each_line(const std::function<void(const Line&)>& f, const std::vector<std::string_view>& only = {});
  TiRequests::Key request_key(const LineReader& r) const;  // SRC DST TAG of a wait or test line
  std::optional<TiRequests::Key> post_key(const Line& l) const;
  void look_ahead(const Line& l);
  void act(const Line& l);
  void point_to_point(const Line& l);
  void completion(const Line& l);
  void one_sided(const Line& l);
  bool collective(const Line& l);
  // Parses a collective line (`kind_name` without a nonblocking form's leading 'i') of a communicator of
  // `ranks` ranks in which the caller is `self` (vector collectives write one count per rank of it).
  core::CollectiveCall parse_collective(const Line& l, const std::string& kind_name, size_t ranks, size_t self);
  double type_bytes(const Line& l, size_t i);
  void run_collective(core::CollectiveCall c, const TraceProgram::Where& at);
  void wait_for(const std::vector<int>& requests, const TraceProgram::Where& at);
  bool starts_receive(const Line& l) const;
  int start_source() const;

  TraceProgram* out_;
  int rank_;
  const std::vector<TraceText>* texts_;
  const std::vector<TiLine>* lines_;
  double default_type_ = 1;
  TiRequests requests_;
  std::set<std::string> self_receive_tags_;  // as written
  // Tests where their request completed (by line index among the rank's lines): a `test K` followed,
  // among the rank's lines naming K, by a new post of K or by nothing (the program stopped asking).
  std::set<size_t> completing_tests_;
  std::map<size_t, int> start_sources_;  // by line index: a persistent receive's source, from its wait
  size_t line_index_ = 0;                // of the line being read, among the rank's lines
  std::vector<bool> receive_;            // by request number: a receive's (completed before sends by a waitall)
  std::vector<CollectiveVote> votes_;
  const std::vector<CollectiveInstance>* plan_ = nullptr;
  size_t collectives_read_ = 0;
};

// Bytes of SimGrid 3.32's datatype number `id` (the TYPE field); 0 when it names none.
double ti_datatype_bytes(int id);

// The actions the reader knows, documented for `describe trace` (ti_trace_actions.cpp), and their
// names, for "did you mean".
const std::vector<core::KeyDoc>& ti_trace_actions();
const std::vector<std::string>& ti_action_names();

}  // namespace t3sim::io
