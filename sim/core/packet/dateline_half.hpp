// Which half of a virtual network's escape channels a hop along a ring takes, under each dateline rule
// (the packet routing's, and the flow model's VC holding time, which counts the same classes). A ring
// of k positions, a packet on it from `from` to `to` going + or - (`minus`); the wrap k-1 <-> 0 is the
// dateline. Draw: the packet's own coin decides (each half with probability 1/2).
#pragma once
#include <cstdint>

namespace t3sim::core {

enum class DatelineHalf : uint8_t { Lower = 0, Upper = 1, Draw = 2 };

// The T3E's (dateline cray), for the hop leaving `cur`: the wrap hop and every hop after it upper,
// before a crossing lower, a path that never crosses its draw. (A packet that crossed and went back to
// the lower half would close a cycle.) It moves one way along the ring, so it has crossed iff it now
// lies behind its start.
inline DatelineHalf cray_half(int k, int from, int cur, int to, bool minus) {
  const bool wrap_hop = minus ? cur == 0 : cur == k - 1;
  const bool crossed = minus ? cur > from : cur < from;
  const bool crosses_ahead = minus ? cur < to : cur > to;
  return wrap_hop || crossed ? DatelineHalf::Upper : crosses_ahead ? DatelineHalf::Lower : DatelineHalf::Draw;
}

// BookSim's, one half for the whole ring from the turn at `from`: fixed, upper when the path wraps, else
// lower; balanced (a second dateline between (k - 1) / 2 and the next position), upper when it wraps,
// lower when it crosses the middle, else a draw.
inline DatelineHalf booksim_half(bool balanced, int k, int from, int to, bool minus) {
  const bool wraps = minus ? from < to : from > to;
  if (!balanced) return wraps ? DatelineHalf::Upper : DatelineHalf::Lower;
  const int mid = (k - 1) / 2;
  const bool crosses_mid = minus ? from > mid && to <= mid : from <= mid && to > mid;
  return wraps ? DatelineHalf::Upper : crosses_mid ? DatelineHalf::Lower : DatelineHalf::Draw;
}

}  // namespace t3sim::core
