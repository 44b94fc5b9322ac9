#include "sim/core/workload.hpp"

namespace t3sim::core {

const char* op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::Get:
      return "get";
    case OpKind::Put:
      return "put";
    case OpKind::Quiet:
      return "quiet";
    case OpKind::Barrier:
      return "barrier";
    case OpKind::Compute:
      return "compute";
    case OpKind::Wait:
      return "wait";
    case OpKind::Overhead:
      return "overhead";
  }
  return "?";
}

std::vector<Op> Workload::program_of(int pe) const {
  std::vector<Op> mine;
  for (const Op& op : ops)
    if (op.pe == pe || op.pe == kAllPes) mine.push_back(op);
  return mine;
}

}  // namespace t3sim::core
