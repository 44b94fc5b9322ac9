// The allocators' picks over a bitmask of requesters (sim/core/packet/packet_network.cpp): round-robin
// from the one last served, and age arbitration's oldest with round-robin's order breaking ties.
#pragma once
#include <cstdint>

namespace t3sim::core {

// The lowest set bit of `mask` after bit `last`, else (wrapping round) its lowest set bit (mask != 0): a
// round-robin pick over a bitmask. The allocators keep each pointer as the one it last served, so moving
// a pointer is a plain store (no wrap to work out at every grant). (Two shifts: `last` may be 63.)
inline int first_after(uint64_t mask, int last) {
  const uint64_t after = (mask >> last) >> 1;
  return after != 0 ? last + 1 + __builtin_ctzll(after) : __builtin_ctzll(mask);
}

// Whether a packet stamped `a` was made before one stamped `b`: stamps are cycles modulo 2^32, so they
// compare by their difference (packets alive together are under 2^31 cycles apart).
inline bool made_before(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }

// Age arbitration's pick: of the set bits of `mask`, the one whose packet was made first (`born_of(bit)`,
// cycles modulo 2^32), ties to the one first_after would pick (round-robin order from `last`).
template <class BornOf>
inline int oldest_after(uint64_t mask, int last, BornOf born_of) {
  int best = first_after(mask, last);
  uint32_t best_born = born_of(best);
  for (uint64_t m = mask & ~(uint64_t{1} << best); m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    const uint32_t born = born_of(i);
    // (the first_after pick is first in turn, so of two made in one cycle the one earlier in turn wins)
    if (made_before(born, best_born) || (born == best_born && ((i - last - 1) & 63) < ((best - last - 1) & 63)))
      best = i, best_born = born;
  }
  return best;
}

}  // namespace t3sim::core
