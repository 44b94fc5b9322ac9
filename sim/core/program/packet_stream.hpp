// Streams: every PE sends message after message to destinations of a synthetic traffic pattern, with
// at most the profile's outstanding_puts in flight, so that its source is always backlogged (BookSim's
// throughput mode, the contention figure to set against a max-min flow model) or, with a gap, at a
// mean offered rate (BookSim's latency mode: exponential gaps between a PE's messages). Traffic as
// BookSim defines it (traffic.cpp of BookSim2), over the job's PEs as a k-ary grid (balanced_grid,
// x fastest, as BookSim numbers its nodes):
//   uniform    each message to a PE drawn at random, itself included (seeded; `block` draws per PE, repeated)
//   tornado    each coordinate + ceil(k/2) - 1 (mod k), all three at once
//   neighbor   each coordinate + 1 (mod k), all three at once
//   bitcomp    the complement of the PE's bits (N a power of two)
//   bitrev     its bits reversed
//   shuffle    its bits rotated left by one
//   transpose  the upper and lower halves of its bits swapped (an even number of bits)
//   randperm   a seeded random permutation, or the one `permutation` lists (BookSim's own for perm_seed 0 comes
//              from Knuth's generator: workloads/reference/booksim-randperm.yaml lists it)
// A message to the PE itself crosses its node's interface and router (loopback), as BookSim's does.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/program/workload.hpp"
#include "sim/core/support/enum_names.hpp"

namespace t3sim::core {

enum class StreamTraffic { Uniform, Tornado, Neighbor, BitComp, BitRev, Shuffle, Transpose, RandPerm };
constexpr NameTable<StreamTraffic, 8> kStreamTrafficNames = {
    {StreamTraffic::Uniform, "uniform"},     {StreamTraffic::Tornado, "tornado"},
    {StreamTraffic::Neighbor, "neighbor"},   {StreamTraffic::BitComp, "bitcomp"},
    {StreamTraffic::BitRev, "bitrev"},       {StreamTraffic::Shuffle, "shuffle"},
    {StreamTraffic::Transpose, "transpose"}, {StreamTraffic::RandPerm, "randperm"}};
constexpr const auto& name_table(StreamTraffic) { return kStreamTrafficNames; }

struct StreamSpec {
  StreamTraffic traffic = StreamTraffic::Uniform;
  int messages = 8000;           // per PE
  int block = 256;               // uniform: destinations drawn per PE, sent `messages / block` times over;
                                 // every pattern's messages are rounded up to whole blocks
  uint64_t seed = 1;             // uniform and randperm
  double gap = 0;                // s: mean of the exponential gap before each message; 0: backlogged
  std::vector<int> permutation;  // randperm: PE p sends to permutation[p] (empty: seeded)
};

// "" or why the spec cannot run on `pes` PEs (bit patterns need a power of two, ...).
std::string stream_problem(const StreamSpec& spec, int pes);
// Each PE's destinations, in send order (one per message of a block; fixed patterns: one).
std::vector<std::vector<int>> stream_destinations(const StreamSpec& spec, int pes);
// Operations a stream appends (a bound, for the workload's limit).
double stream_operation_bound(const StreamSpec& spec, int pes);
// Appends one measurement: every PE's messages of `bytes`, label "stream".
void append_stream_measurement(Workload& w, const StreamSpec& spec, int pes, double bytes, int size_index);

}  // namespace t3sim::core
