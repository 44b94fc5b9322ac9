// Chooses, by the wall clock, whether a piece of repeated work (the packet network's cycle) is split over
// a crew of threads or done on one, when which is faster depends on the machine of the moment: on an idle
// VM two threads take 0.53 of one thread's time on mcurie's 532-PE all-to-all, but with the second core
// busy or slow BookSim's neighbor pattern took 2.3-3.4x one thread's time on two. The choice changes only
// the speed, never a result (the network's cycles are the same on any number of threads).
//
// It times the two ways in turn: each for `probe_ns` of wall time, then the faster (by wall time per
// unit of work, the caller's measure of a piece's size) for `hold` times as long, then both again, so a
// run whose traffic (or whose machine: a VM's second core may be slow for minutes) changes is followed.
// Each probe that confirms the last choice doubles the hold, up to `max_hold`, so a long run that keeps
// one way pays for the slower way's probes less and less often. A piece that is too small to split at
// all is not recorded.
#pragma once
#include <algorithm>
#include <cstdint>

namespace t3sim::core {

class SplitChooser {
 public:
  explicit SplitChooser(int64_t probe_ns = 20'000'000, int hold = 8, int max_hold = 256)
      : probe_ns_(probe_ns), first_hold_(hold), max_hold_(max_hold), hold_(hold) {}

  // Whether the next piece is to be split.
  bool split() const { return phase_ == Phase::ProbeSplit || (phase_ == Phase::Hold && split_wins_); }
  // The last piece, done as split() said: its work (in the caller's units) and its wall time.
  void record(double work, int64_t ns) {
    phase_ns_ += ns;
    phase_work_ += work;
    switch (phase_) {
      case Phase::ProbeSplit:
        if (phase_ns_ >= probe_ns_) {
          split_rate_ = rate();
          next(Phase::ProbeOne);
        }
        break;
      case Phase::ProbeOne:
        if (phase_ns_ >= probe_ns_) {
          // (Split on a tie, or when neither probe saw work: the crew is what was asked for.)
          const bool wins = split_rate_ <= rate();
          hold_ = decisions_ > 0 && wins == split_wins_ ? std::min(2 * hold_, max_hold_) : first_hold_;
          split_wins_ = wins;
          ++decisions_;
          if (!split_wins_) ++one_wins_;
          next(Phase::Hold);
        }
        break;
      case Phase::Hold:
        if (phase_ns_ >= probe_ns_ * hold_) next(Phase::ProbeSplit);
        break;
    }
  }
  // Probes decided so far, and how many of them found one thread faster.
  int decisions() const { return decisions_; }
  int one_wins() const { return one_wins_; }

 private:
  enum class Phase { ProbeSplit, ProbeOne, Hold };
  // Wall time per unit of work in the phase so far (infinite with none: such a phase says nothing).
  double rate() const { return phase_work_ > 0 ? static_cast<double>(phase_ns_) / phase_work_ : 1e300; }
  void next(Phase p) {
    phase_ = p;
    phase_ns_ = 0;
    phase_work_ = 0;
  }

  int64_t probe_ns_;
  int first_hold_, max_hold_;
  int hold_;  // the hold after the last probe, in probes' lengths
  Phase phase_ = Phase::ProbeSplit;
  int64_t phase_ns_ = 0;
  double phase_work_ = 0;
  double split_rate_ = 0;
  bool split_wins_ = true;
  int decisions_ = 0, one_wins_ = 0;
};

}  // namespace t3sim::core
