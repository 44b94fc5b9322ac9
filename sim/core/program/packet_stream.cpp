#include "sim/core/program/packet_stream.hpp"

#include <random>

#include "sim/core/program/traffic_pattern.hpp"
#include "sim/core/support/seeded_permutation.hpp"

namespace t3sim::core {

namespace {

int bits_of(int pes) {
  int bits = 0;
  while ((1 << bits) < pes) ++bits;
  return bits;
}

bool power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

int grid_destination(StreamTraffic t, int src, const Coord& grid) {
  int dst = 0;
  int stride = 1;
  for (int d = 0; d < 3; ++d) {
    const int k = grid[d];
    const int c = (src / stride) % k;
    const int shift = t == StreamTraffic::Tornado ? (k + 1) / 2 - 1 : 1;
    dst += ((c + shift) % k) * stride;
    stride *= k;
  }
  return dst;
}

int bit_destination(StreamTraffic t, int src, int pes) {
  const int bits = bits_of(pes);
  const int mask = pes - 1;
  switch (t) {
    case StreamTraffic::BitComp:
      return ~src & mask;
    case StreamTraffic::BitRev: {
      int dst = 0;
      for (int b = 0; b < bits; ++b)
        if (src & (1 << b)) dst |= 1 << (bits - 1 - b);
      return dst;
    }
    case StreamTraffic::Shuffle:
      return ((src << 1) & mask) | ((src >> (bits - 1)) & 1);
    default: {  // transpose
      const int half = bits / 2;
      const int low = (1 << half) - 1;
      return ((src >> half) & low) | ((src << half) & mask);
    }
  }
}

}  // namespace

std::string stream_problem(const StreamSpec& spec, int pes) {
  const bool bitwise = spec.traffic == StreamTraffic::BitComp || spec.traffic == StreamTraffic::BitRev ||
                       spec.traffic == StreamTraffic::Shuffle || spec.traffic == StreamTraffic::Transpose;
  if (bitwise && !power_of_two(pes))
    return std::string(enum_name(spec.traffic)) + " needs a power of two of PEs, not " + std::to_string(pes);
  if (spec.traffic == StreamTraffic::Transpose && bits_of(pes) % 2 != 0)
    return "transpose needs an even number of bits of PE number (4, 16, 64, 256, 1024 ... PEs), not " +
           std::to_string(pes);
  if (spec.messages < 1) return "messages must be >= 1";
  if (!spec.permutation.empty()) {
    if (spec.traffic != StreamTraffic::RandPerm) return "permutation is for randperm traffic only";
    if (spec.permutation.size() != static_cast<size_t>(pes))
      return "permutation lists " + std::to_string(spec.permutation.size()) + " destinations for " +
             std::to_string(pes) + " PEs";
    std::vector<char> seen(static_cast<size_t>(pes), 0);
    for (int d : spec.permutation) {
      if (d < 0 || d >= pes)
        return "permutation names PE " + std::to_string(d) + ", not one of 0.." + std::to_string(pes - 1);
      if (seen[static_cast<size_t>(d)]++) return "permutation names PE " + std::to_string(d) + " twice";
    }
  }
  if (spec.block < 1) return "block must be >= 1";
  return "";
}

std::vector<std::vector<int>> stream_destinations(const StreamSpec& spec, int pes) {
  std::vector<std::vector<int>> out(static_cast<size_t>(pes));
  const Coord grid = balanced_grid(pes);
  if (spec.traffic == StreamTraffic::Uniform) {
    std::mt19937_64 draw(spec.seed);
    const int per_pe = std::min(spec.block, spec.messages);
    for (int p = 0; p < pes; ++p)
      for (int i = 0; i < per_pe; ++i)  // rejection sampling: the same draws on every platform
        for (;;) {
          const uint64_t bound = (std::mt19937_64::max() / static_cast<uint64_t>(pes)) * static_cast<uint64_t>(pes);
          const uint64_t r = draw();
          if (r < bound) {
            out[static_cast<size_t>(p)].push_back(static_cast<int>(r % static_cast<uint64_t>(pes)));
            break;
          }
        }
    return out;
  }
  std::vector<int> perm;
  if (spec.traffic == StreamTraffic::RandPerm)
    perm = spec.permutation.empty() ? seeded_permutation(pes, spec.seed) : spec.permutation;
  for (int p = 0; p < pes; ++p) {
    int dst;
    switch (spec.traffic) {
      case StreamTraffic::Tornado:
      case StreamTraffic::Neighbor:
        dst = grid_destination(spec.traffic, p, grid);
        break;
      case StreamTraffic::RandPerm:
        dst = perm[static_cast<size_t>(p)];
        break;
      default:
        dst = bit_destination(spec.traffic, p, pes);
    }
    out[static_cast<size_t>(p)].push_back(dst);
  }
  return out;
}

double stream_operation_bound(const StreamSpec& spec, int pes) {
  const double per_pe = spec.gap > 0 ? 2.0 * spec.messages : std::min(spec.block, spec.messages) + 1.0;
  return per_pe * pes;
}

void append_stream_measurement(Workload& w, const StreamSpec& spec, int pes, double bytes, int size_index) {
  const NameId label = w.labels.intern("stream");
  const NameId sync = w.labels.intern("sync");
  const auto dests = stream_destinations(spec, pes);
  w.ops.push_back(pattern_op(OpKind::Barrier, kAllPes, -1, 0, kNoName, sync, size_index));
  auto put = [&](int p, int dst) {
    Op op = pattern_op(OpKind::Put, p, dst, bytes, kNoName, label, size_index);
    op.loopback = dst == p;
    w.ops.push_back(op);
  };
  if (spec.gap > 0) {  // latency mode: an exponential gap before each message, every message its own op
    for (int p = 0; p < pes; ++p) {
      const std::vector<int>& list = dests[static_cast<size_t>(p)];
      for (int i = 0; i < spec.messages; ++i) {
        Op gap = pattern_op(OpKind::Compute, p, -1, 0, kNoName, label, size_index);
        gap.seconds = spec.gap;
        gap.exponential = true;
        w.ops.push_back(gap);
        put(p, list[static_cast<size_t>(i) % list.size()]);
      }
    }
    return;
  }
  // Throughput mode: each PE's block of destinations sent over and over (one repeated range), whole
  // blocks (messages rounded up to one). A fixed pattern's block is one destination: one operation
  // repeated, so the run reads a put and a record per PE, not a block of them (512 PEs x 256 puts of
  // 64 bytes and their records were 18 MB, missed in cache at every message).
  const size_t block = std::min(static_cast<size_t>(spec.block), static_cast<size_t>(spec.messages));
  const int rounds = static_cast<int>((static_cast<size_t>(spec.messages) + block - 1) / block);
  const bool drawn = spec.traffic == StreamTraffic::Uniform;
  const uint32_t first = static_cast<uint32_t>(w.ops.size());
  for (int p = 0; p < pes; ++p) {
    const std::vector<int>& list = dests[static_cast<size_t>(p)];
    for (size_t i = 0; i < (drawn ? list.size() : 1); ++i) put(p, list[i]);
  }
  w.repeats.push_back({first, static_cast<uint32_t>(w.ops.size()), drawn ? rounds : rounds * static_cast<int>(block)});
}

}  // namespace t3sim::core
