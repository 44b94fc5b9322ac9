#include "sim/core/program/swap_pattern.hpp"

namespace t3sim::core {
namespace {

// The names a swap's operations carry, interned once per measurement rather than per operation.
struct SwapNames {
  NameId label, data, posted, ready, done;  // kSwapLabel; the flags "swap_data" .. "swap_done"
};

Op make(const SwapNames& names, OpKind kind, int pe, int peer, double bytes, NameId flag, int size_index) {
  return pattern_op(kind, pe, peer, bytes, flag, names.label, size_index);
}

// The start and the finish of one swap of PE p with q.
void one_side(std::vector<Op>& start, std::vector<Op>& finish, const SwapNames& names, const SwapSpec& spec, int p,
              int q, double bytes, int size_index) {
  auto add = [&](std::vector<Op>& to, OpKind kind, int peer, double b, NameId flag) {
    to.push_back(make(names, kind, p, peer, b, flag, size_index));
  };
  add(start, OpKind::Overhead, -1, 0, kNoName);
  switch (spec.protocol) {
    case SwapProtocol::NonblockingSend:
    case SwapProtocol::NonblockingSendReceive:
      add(start, OpKind::Put, q, bytes, names.data);
      start.back().order = SignalOrder::Fence;  // the data, then its flag behind a fence
      add(finish, OpKind::Wait, -1, 0, names.data);
      break;
    case SwapProtocol::ReadySend:
      add(start, OpKind::Put, q, kFlagBytes, names.posted);
      add(finish, OpKind::Wait, -1, 0, names.posted);
      [[fallthrough]];
    case SwapProtocol::NonblockingReceive: {
      std::vector<Op>& first = spec.protocol == SwapProtocol::ReadySend ? finish : start;
      add(first, OpKind::Put, q, kFlagBytes, names.ready);
      add(finish, OpKind::Wait, -1, 0, names.ready);
      add(finish, OpKind::Get, q, bytes, kNoName);
      add(finish, OpKind::Put, q, kFlagBytes, names.done);
      add(finish, OpKind::Wait, -1, 0, names.done);
      break;
    }
  }
  add(finish, OpKind::Quiet, -1, 0, kNoName);
}

}  // namespace

void append_swap_measurement(Workload& w, const SwapSpec& spec, double bytes, int size_index) {
  const NameId sync = w.labels.intern("sync");
  const SwapNames names{w.labels.intern(kSwapLabel), w.flags.intern("swap_data"), w.flags.intern("swap_posted"),
                        w.flags.intern("swap_ready"), w.flags.intern("swap_done")};
  std::vector<Op>& ops = w.ops;
  ops.push_back(pattern_op(OpKind::Barrier, kAllPes, -1, 0, kNoName, sync, size_index));
  for (int it = 0; it < spec.iterations; ++it) {
    for (const auto& [a, b] : spec.pairs) {
      for (const auto& [p, q] : {std::pair<int, int>{a, b}, std::pair<int, int>{b, a}}) {
        std::vector<Op> start, finish;
        one_side(start, finish, names, spec, p, q, bytes, size_index);
        ops.insert(ops.end(), start.begin(), start.end());
        if (spec.overlap && spec.overlap_work > 0) {
          Op work = make(names, OpKind::Compute, p, -1, 0, kNoName, size_index);
          work.seconds = spec.overlap_work;
          ops.push_back(work);
        }
        ops.insert(ops.end(), finish.begin(), finish.end());
      }
    }
  }
}

}  // namespace t3sim::core
