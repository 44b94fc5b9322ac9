#include "sim/core/program/traffic_pattern.hpp"

namespace t3sim::core {
namespace {

bool uses_grid(PatternKind k) { return k == PatternKind::DimShift || k == PatternKind::Neighbor; }

// Rows of the most square r x c matrix of n elements (r <= c, r the largest divisor <= sqrt(n)).
int transpose_rows(int n) {
  int r = 1;
  for (int d = 1; d * d <= n; ++d)
    if (n % d == 0) r = d;
  return r;
}

Coord grid_coord(const Coord& g, int p) { return {p % g[0], (p / g[0]) % g[1], p / (g[0] * g[1])}; }
int grid_id(const Coord& g, const Coord& c) { return c[0] + g[0] * (c[1] + g[1] * c[2]); }

// The names a pattern's operations carry, interned once per measurement rather than per operation.
struct PatternNames {
  NameId label;  // kExchangeLabel
  NameId flag;   // "msg" for an exchange, "tree" for a tree
};

// A pattern's message is a data put with a signal (put, fence, flag put), as SHMEM codes wrote it.
Op make(const PatternNames& names, OpKind kind, int pe, int peer, double bytes, NameId flag, int size_index) {
  Op op = pattern_op(kind, pe, peer, bytes, flag, names.label, size_index);
  if (kind == OpKind::Put && flag != kNoName) op.order = SignalOrder::Fence;
  return op;
}

void append_exchange(std::vector<Op>& ops, const PatternNames& names, const PatternSpec& spec, int pes, double bytes,
                     int size_index) {
  const auto dests = pattern_destinations(spec, pes);
  std::vector<int> incoming(static_cast<size_t>(pes), 0);
  for (const auto& list : dests)
    for (int d : list) incoming[static_cast<size_t>(d)] += spec.messages;
  for (int p = 0; p < pes; ++p) {
    std::vector<int> list;  // each destination `messages` times, back to back
    for (int d : dests[static_cast<size_t>(p)]) list.insert(list.end(), static_cast<size_t>(spec.messages), d);
    const size_t window = spec.kind == PatternKind::AllToAll ? static_cast<size_t>(spec.window) : list.size();
    for (size_t i = 0; i < list.size(); ++i) {
      ops.push_back(make(names, OpKind::Put, p, list[i], bytes, names.flag, size_index));
      if (window > 0 && (i + 1) % window == 0 && i + 1 < list.size())
        ops.push_back(make(names, OpKind::Quiet, p, -1, 0, kNoName, size_index));
    }
    for (int k = 0; k < incoming[static_cast<size_t>(p)]; ++k)
      ops.push_back(make(names, OpKind::Wait, p, -1, 0, names.flag, size_index));
    ops.push_back(make(names, OpKind::Quiet, p, -1, 0, kNoName, size_index));
  }
}

// Binomial tree over ranks r = (p - root) mod N: parent of r > 0 is r with its highest bit cleared.
void append_tree(std::vector<Op>& ops, const PatternNames& names, const PatternSpec& spec, int pes, double bytes,
                 int size_index) {
  auto pe_of = [&](int rank) { return (rank + spec.root) % pes; };
  for (int rank = 0; rank < pes; ++rank) {
    const int p = pe_of(rank);
    int high = 1;
    while (high <= rank) high <<= 1;  // first power of two above rank: children are rank + 2^k for 2^k >= high
    std::vector<int> children;
    for (int k = rank == 0 ? 1 : high; rank + k < pes; k <<= 1) children.push_back(rank + k);
    const bool has_parent = rank > 0;
    const int parent = rank - (high >> 1);
    if (spec.kind == PatternKind::Broadcast) {
      if (has_parent) ops.push_back(make(names, OpKind::Wait, p, -1, 0, names.flag, size_index));
      for (int c : children) ops.push_back(make(names, OpKind::Put, p, pe_of(c), bytes, names.flag, size_index));
    } else {
      for (size_t i = 0; i < children.size(); ++i)
        ops.push_back(make(names, OpKind::Wait, p, -1, 0, names.flag, size_index));
      if (has_parent) ops.push_back(make(names, OpKind::Put, p, pe_of(parent), bytes, names.flag, size_index));
    }
    ops.push_back(make(names, OpKind::Quiet, p, -1, 0, kNoName, size_index));
  }
}

}  // namespace

Coord balanced_grid(int pes) {
  Coord best{1, 1, pes};
  for (int x = 1; x * x * x <= pes; ++x) {
    if (pes % x) continue;
    for (int y = x; x * y * y <= pes; ++y) {
      if ((pes / x) % y) continue;
      const int z = pes / x / y;
      if (z - x < best[2] - best[0]) best = {x, y, z};
    }
  }
  return best;
}

std::string pattern_problem(const PatternSpec& spec, int pes) {
  if (pes < 2) return "a pattern needs at least 2 PEs";
  if (spec.repetitions < 1) return "repetitions must be >= 1";
  if (spec.messages < 1) return "messages must be >= 1";
  if (uses_grid(spec.kind) && spec.grid[0] * spec.grid[1] * spec.grid[2] != pes)
    return "grid " + std::to_string(spec.grid[0]) + "x" + std::to_string(spec.grid[1]) + "x" +
           std::to_string(spec.grid[2]) + " does not hold exactly " + std::to_string(pes) + " PEs";
  switch (spec.kind) {
    case PatternKind::Shift:
      if (spec.distance % pes == 0) return "a shift by a multiple of the PE count sends to itself";
      break;
    case PatternKind::DimShift:
      if (spec.grid[spec.dim] < 2 || spec.distance % spec.grid[spec.dim] == 0)
        return "the shift along that dimension sends every PE to itself";
      break;
    case PatternKind::Transpose:
      if (transpose_rows(pes) == 1) return "transpose needs a PE count with a factor other than 1 (got a prime)";
      break;
    case PatternKind::AllToAll:
      if (spec.window < 1) return "window must be >= 1";
      break;
    case PatternKind::HotSpot:
      if (spec.target < 0 || spec.target >= pes) return "target is not a PE of the job";
      break;
    case PatternKind::Broadcast:
    case PatternKind::Reduction:
      if (spec.root < 0 || spec.root >= pes) return "root is not a PE of the job";
      break;
    default:
      break;
  }
  return "";
}

std::vector<std::vector<int>> pattern_destinations(const PatternSpec& spec, int pes) {
  std::vector<std::vector<int>> d(static_cast<size_t>(pes));
  const Coord& g = spec.grid;
  const auto perm = spec.kind == PatternKind::RandomPerm ? seeded_permutation(pes, spec.seed) : std::vector<int>{};
  const int rows = transpose_rows(pes);
  const int cols = pes / rows;
  for (int p = 0; p < pes; ++p) {
    auto& out = d[static_cast<size_t>(p)];
    switch (spec.kind) {
      case PatternKind::Shift:
        out.push_back(((p + spec.distance) % pes + pes) % pes);
        break;
      case PatternKind::DimShift: {
        Coord c = grid_coord(g, p);
        const int k = g[spec.dim];
        c[spec.dim] = ((c[spec.dim] + spec.distance) % k + k) % k;
        out.push_back(grid_id(g, c));
        break;
      }
      case PatternKind::Neighbor:
        for (int dim = 0; dim < 3; ++dim) {
          if (g[dim] < 2) continue;
          for (int step : {1, -1}) {
            Coord c = grid_coord(g, p);
            c[dim] = (c[dim] + step + g[dim]) % g[dim];
            out.push_back(grid_id(g, c));
          }
        }
        break;
      case PatternKind::Transpose: {  // element (i, j) of the rows x cols matrix moves to (j, i) of its transpose
        const int to = (p % cols) * rows + p / cols;
        if (to != p) out.push_back(to);
        break;
      }
      case PatternKind::BitComplement:  // for N not a power of two: the reversal, whose middle PE stays
        if (pes - 1 - p != p) out.push_back(pes - 1 - p);
        break;
      case PatternKind::RandomPerm:
        if (perm[static_cast<size_t>(p)] != p) out.push_back(perm[static_cast<size_t>(p)]);
        break;
      case PatternKind::AllToAll:
        for (int k = 1; k < pes; ++k) out.push_back((p + k) % pes);
        break;
      case PatternKind::HotSpot:
        if (p != spec.target) out.push_back(spec.target);
        break;
      case PatternKind::Broadcast:
      case PatternKind::Reduction:
        break;
    }
  }
  return d;
}

double pattern_operation_bound(const PatternSpec& spec, int pes) {
  const double n = pes;
  double destinations = n;  // shift, dim_shift, transpose, bit_complement, random_perm, hot_spot, trees
  if (spec.kind == PatternKind::AllToAll) destinations = n * (n - 1);
  if (spec.kind == PatternKind::Neighbor) destinations = 6 * n;
  const double messages = destinations * spec.messages;
  // Per repetition: a barrier and a final quiet per PE; per message a put, a wait and at most a quiet.
  return spec.repetitions * (2 * n + 3 * messages);
}

void append_pattern_measurement(Workload& w, const PatternSpec& spec, int pes, double bytes, int size_index) {
  const bool tree = spec.kind == PatternKind::Broadcast || spec.kind == PatternKind::Reduction;
  const NameId sync = w.labels.intern("sync");
  const PatternNames names{w.labels.intern(kExchangeLabel), w.flags.intern(tree ? "tree" : "msg")};
  for (int rep = 0; rep < spec.repetitions; ++rep) {
    w.ops.push_back(pattern_op(OpKind::Barrier, kAllPes, -1, 0, kNoName, sync, size_index));
    if (tree)
      append_tree(w.ops, names, spec, pes, bytes, size_index);
    else
      append_exchange(w.ops, names, spec, pes, bytes, size_index);
  }
}

}  // namespace t3sim::core
