// Synthetic traffic patterns over a job's PEs, for what-if studies. Each pattern gives every PE the
// list of PEs it sends one message to per repetition; an exchange is: every PE puts its messages
// (non-blocking, each signalling "msg" at its target), waits for every message addressed to it, then
// quiets. `messages` > 1 sends that many messages to each destination, all in flight together (the
// all_to_all window still counts each one). Grid patterns see the job's PEs as a logical X x Y x Z grid, x fastest
// (`grid`).
//
//   shift          p -> (p + distance) mod N
//   dim_shift      along one grid dimension: x -> (x + distance) mod X (a "tornado" with distance ceil(X/2)-1)
//   neighbor       3D halo: each PE to its 6 grid neighbours (+-x, +-y, +-z; a dimension of size 1 is skipped)
//   transpose      N = r*c, the most square factorisation (r <= c): element p = i*c + j of an r x c
//                  matrix moves to j*r + i of its c x r transpose (fixed points send nothing; N prime
//                  is rejected). For N = r*r this is the classic i*r + j -> j*r + i.
//   bit_complement p -> (N-1) - p: the bit complement when N is a power of two, the reversal otherwise
//                  (for odd N the middle PE sends nothing)
//   random_perm    a seeded random permutation (fixed points send nothing)
//   all_to_all     p -> p+1, p+2, ... p+N-1 (mod N), at most `window` messages in flight per PE
//   hot_spot       every PE but the target -> target
//   broadcast      binomial tree from `root`: round k, PEs with rank < 2^k send to rank + 2^k (after receiving)
//   reduction      the broadcast's tree reversed: leaves first, each PE sends once it has heard from its children
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/program/workload.hpp"
#include "sim/core/topology/torus.hpp"

namespace t3sim::core {

enum class PatternKind {
  Shift,
  DimShift,
  Neighbor,
  Transpose,
  BitComplement,
  RandomPerm,
  AllToAll,
  HotSpot,
  Broadcast,
  Reduction
};

struct PatternSpec {
  PatternKind kind = PatternKind::Shift;
  int distance = 1;     // shift, dim_shift
  int dim = 0;          // dim_shift: 0, 1, 2 for x, y, z
  Coord grid{0, 0, 0};  // grid patterns; product must equal the job's PEs
  uint64_t seed = 1;    // random_perm
  int window = 1;       // all_to_all
  int target = 0;       // hot_spot
  int root = 0;         // broadcast, reduction
  int repetitions = 1;
  int messages = 1;  // messages per destination per repetition (exchange patterns)
};

// As a workload's `pattern:` names them.
constexpr NameTable<PatternKind, 10> kPatternKindNames = {{PatternKind::Shift, "shift"},
                                                          {PatternKind::DimShift, "dim_shift"},
                                                          {PatternKind::Neighbor, "neighbor"},
                                                          {PatternKind::Transpose, "transpose"},
                                                          {PatternKind::BitComplement, "bit_complement"},
                                                          {PatternKind::RandomPerm, "random_perm"},
                                                          {PatternKind::AllToAll, "all_to_all"},
                                                          {PatternKind::HotSpot, "hot_spot"},
                                                          {PatternKind::Broadcast, "broadcast"},
                                                          {PatternKind::Reduction, "reduction"}};
constexpr const auto& name_table(PatternKind) { return kPatternKindNames; }

// The most cubic X x Y x Z grid of exactly `pes` PEs (X <= Y <= Z, smallest Z - X): the default grid
// of grid patterns, so a pattern scales with --pes (512 -> 8x8x8, 532 -> 4x7x19, 128 -> 4x4x8).
Coord balanced_grid(int pes);

// Checks the spec against a job of `pes` PEs; returns "" or what is wrong.
std::string pattern_problem(const PatternSpec& spec, int pes);

// Destinations of every PE for the exchange patterns (not broadcast or reduction), in send order.
std::vector<std::vector<int>> pattern_destinations(const PatternSpec& spec, int pes);

constexpr const char* kExchangeLabel = "exchange";

// An upper bound on the operations one measurement of the pattern appends, computed without building
// them (a loader checks it against kMaxOperations before expanding).
double pattern_operation_bound(const PatternSpec& spec, int pes);

// Appends one measurement of `bytes` to w.ops: per repetition a barrier, then the exchange (or tree);
// its flag and label names are interned into w.flags and w.labels.
void append_pattern_measurement(Workload& w, const PatternSpec& spec, int pes, double bytes, int size_index);

}  // namespace t3sim::core
