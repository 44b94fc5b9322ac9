// The requests one rank of a SimGrid TI trace has posted and not yet completed, named as the trace's
// `wait SRC DST TAG` lines name them. SimGrid 3.32 writes `waitall COUNT` and `waitAny COUNT` without
// saying which requests they cover (COUNT counts null requests too), so the reader decides by looking
// ahead in the rank's own lines (workloads/README.md states the rule):
//   - a pending request with key K is *named* when the rank's later `wait K` lines outnumber its later
//     posts of K (each later post needs a wait of its own); the oldest pending ones are the named ones,
//     as a wait takes the oldest request of its key;
//   - `waitall COUNT` completes the pending requests no later wait names, oldest first, at most COUNT
//     (MPI_Waitall(n, sends) followed by one MPI_Wait per receive: the receives stay pending);
//   - `waitAny` completes the oldest of them (the trace does not say which one finished: a warning).
#pragma once
#include <cstddef>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace t3sim::io {

class TiRequests {
 public:
  using Key = std::tuple<int, int, int>;  // (source, destination, tag) as written (-333, -444 kept)

  // The look-ahead, counted over the rank's lines before they are read.
  void expect_post(const Key& k) { ++posts_[k].total; }
  void expect_wait(const Key& k) { ++waits_[k].total; }

  // A nonblocking call posted `request` under `k`.
  void post(const Key& k, int request);
  // A `wait K` line: the oldest pending request of K, or -1 when none is (an earlier call completed it).
  int wait(const Key& k);
  // A `test K` line that the reader found to be where K's request completed: its oldest pending one
  // (-1: none), leaving the look-ahead counts alone.
  int complete(const Key& k);
  // The requests a `waitall count` (or a `waitAny`: count 1) completes, in posting order.
  std::vector<int> complete_unnamed(size_t count);
  size_t pending() const { return pending_count_; }

 private:
  struct Seen {
    size_t total = 0;
    size_t seen = 0;
  };
  size_t later(const std::map<Key, Seen>& m, const Key& k) const;
  std::map<Key, Seen> posts_, waits_;
  std::map<Key, std::deque<int>> pending_;
  size_t pending_count_ = 0;
};

}  // namespace t3sim::io
