// Which ranks run each collective of a SimGrid TI trace. SimGrid records no communicator, so the
// importer infers one from what the ranks run: collective calls are matched across ranks as MPI
// matches them on one communicator, in each rank's program order, by their signature (kind, root,
// and size where every member writes the same one). When every rank that has collectives left runs
// the same signature next, that is one collective of all of them (the common case, and all a trace
// of MPI_COMM_WORLD collectives needs). When they differ (a sub-communicator's collective, or ranks
// that disagree on a root or size), each group of ranks running one signature goes ahead unless
// that signature is still ahead, within the next kLookAhead collectives, of a rank outside the group
// (it waits for it); if every group would wait, the largest goes. Every collective not run by all
// ranks is a warning naming it and its ranks.
#pragma once
#include <memory>
#include <vector>

#include "sim/core/messages/collectives.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/trace/common/trace_program.hpp"

namespace t3sim::io {

// What a rank's collective line says: kind, root (as written: relative to its communicator) and size,
// and where (a trace may hold millions: the file's name is not copied into each).
struct CollectiveVote {
  core::Collective kind = core::Collective::Barrier;
  int root = 0;
  double bytes = 0;
  const std::string* file = nullptr;  // the trace's, alive while the trace is read
  int line = 0;
  int column = 0;
  SourcePos at() const { return {*file, line, column}; }
};

struct CollectiveInstance {
  int id = 0;                                     // the same on every rank that runs it (its tag)
  std::shared_ptr<const std::vector<int>> group;  // its ranks, ascending; null: every rank
  double bytes = 0;  // gather, scatter: the block most members wrote (an MPI_IN_PLACE root writes 0)
};

// [rank][k]: the instance rank's k-th collective belongs to.
using CollectivePlan = std::vector<std::vector<CollectiveInstance>>;

constexpr size_t kLookAhead = 256;

CollectivePlan plan_collectives(const std::vector<std::vector<CollectiveVote>>& votes, TraceProgram& out);

}  // namespace t3sim::io
