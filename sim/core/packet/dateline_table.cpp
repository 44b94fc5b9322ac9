#include "sim/core/packet/dateline_table.hpp"

#include <algorithm>
#include <cstdint>

#include "sim/core/packet/dateline_half.hpp"

namespace t3sim::core {

namespace {

// A segment of one way along a ring that does not cross the wrap: its hops (the positions they
// leave) and its weight under uniform traffic, in half segments (so a tie's half weight is exact).
struct FreeSegment {
  int from, to, weight;
  std::vector<int> hops;
};

}  // namespace

DatelineTable::DatelineTable(const Coord& dims, TieRule tie_rule) {
  for (int dim = 0; dim < 3; ++dim) {
    const int k = dims[dim];
    auto same = std::find_if(rings_.begin(), rings_.end(), [k](const Ring& r) { return r.k == k; });
    if (same == rings_.end()) {
      rings_.push_back(balance(k, tie_rule));
      same = rings_.end() - 1;
    }
    ring_of_[dim] = static_cast<int>(same - rings_.begin());
  }
}

double DatelineTable::largest_load(int dim, bool minus) const {
  return rings_[static_cast<size_t>(ring_of_[dim])].largest[minus ? 1 : 0];
}

double DatelineTable::split_load(int dim, bool minus) const {
  return rings_[static_cast<size_t>(ring_of_[dim])].split[minus ? 1 : 0];
}

DatelineTable::Ring DatelineTable::balance(int k, TieRule tie_rule) {
  Ring ring;
  ring.k = k;
  ring.halves.assign(static_cast<size_t>(2 * k * k), 0);
  for (int way = 0; way < 2; ++way) {
    const bool minus = way == 1;
    // Loads per hop (the position it leaves) and half, in half segments; fixed: the crossing segments'.
    std::vector<int64_t> load[2] = {std::vector<int64_t>(static_cast<size_t>(k), 0),
                                    std::vector<int64_t>(static_cast<size_t>(k), 0)};
    std::vector<int64_t> free_load(static_cast<size_t>(k), 0);
    std::vector<FreeSegment> free;
    for (int from = 0; from < k; ++from)
      for (int to = 0; to < k; ++to) {
        if (from == to) continue;
        const int plus_hops = (to - from + k) % k;
        const int hops = minus ? k - plus_hops : plus_hops;
        const int other = k - hops;
        const TieRule own = minus ? TieRule::Minus : TieRule::Plus;
        const int weight = hops < other                    ? 2
                           : hops > other                  ? 0
                           : tie_rule == own               ? 2
                           : tie_rule == TieRule::Balanced ? 1
                                                           : 0;
        if (weight == 0) continue;
        FreeSegment seg{from, to, weight, {}};
        bool crosses = false;
        for (int i = 0, cur = from; i < hops; ++i, cur = (cur + (minus ? k - 1 : 1)) % k) {
          const DatelineHalf rule = cray_half(k, from, cur, to, minus);
          if (rule == DatelineHalf::Draw)
            seg.hops.push_back(cur);
          else {
            load[static_cast<int>(rule)][static_cast<size_t>(cur)] += weight;
            crosses = true;
          }
        }
        if (crosses) continue;  // (a path that crosses has every hop's half fixed by the dateline)
        for (int h : seg.hops) free_load[static_cast<size_t>(h)] += weight;
        free.push_back(std::move(seg));
      }
    for (int h = 0; h < k; ++h) {
      const int64_t l = load[0][static_cast<size_t>(h)], u = load[1][static_cast<size_t>(h)];
      const double bound = std::max({static_cast<double>(l), static_cast<double>(u),
                                     (static_cast<double>(l + u + free_load[static_cast<size_t>(h)])) / 2});
      ring.split[way] = std::max(ring.split[way], bound / 2);
    }
    // Longest first, then by where they start: the greedy's order (stable, so deterministic).
    std::stable_sort(free.begin(), free.end(),
                     [](const FreeSegment& a, const FreeSegment& b) { return a.hops.size() > b.hops.size(); });
    std::vector<int> half(free.size(), 0);
    // The change of the sum of squared loads when segment s moves its weight w from half a to half b
    // (a = -1: it had none yet).
    const auto delta = [&](const FreeSegment& s, int a, int b) {
      int64_t d = 0;
      for (int h : s.hops) {
        const int64_t lb = load[b][static_cast<size_t>(h)];
        d += 2 * s.weight * lb + int64_t{s.weight} * s.weight;
        if (a >= 0) d += -2 * s.weight * load[a][static_cast<size_t>(h)] + int64_t{s.weight} * s.weight;
      }
      return d;
    };
    const auto move = [&](const FreeSegment& s, int a, int b) {
      for (int h : s.hops) {
        if (a >= 0) load[a][static_cast<size_t>(h)] -= s.weight;
        load[b][static_cast<size_t>(h)] += s.weight;
      }
    };
    for (size_t i = 0; i < free.size(); ++i) {
      half[i] = delta(free[i], -1, 1) < delta(free[i], -1, 0) ? 1 : 0;
      move(free[i], -1, half[i]);
    }
    // Single flips while one lowers the sum (it falls by at least 2 each time: the loop ends).
    for (bool flipped = true; flipped;) {
      flipped = false;
      for (size_t i = 0; i < free.size(); ++i)
        if (delta(free[i], half[i], 1 - half[i]) < 0) {
          move(free[i], half[i], 1 - half[i]);
          half[i] = 1 - half[i];
          flipped = true;
        }
    }
    for (size_t i = 0; i < free.size(); ++i)
      ring.halves[static_cast<size_t>(way * k * k + free[i].from * k + free[i].to)] = static_cast<uint8_t>(half[i]);
    for (int h = 0; h < k; ++h)
      ring.largest[way] =
          std::max({ring.largest[way], load[0][static_cast<size_t>(h)] / 2.0, load[1][static_cast<size_t>(h)] / 2.0});
  }
  return ring;
}

}  // namespace t3sim::core
