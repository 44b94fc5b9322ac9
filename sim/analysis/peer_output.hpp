// What a packet-level peer printed: the figures `bench` needs to set its speed beside t3sim's when it
// times the peer itself (`bench --peer-binary`). Only BookSim2's text is read, and only two of its lines:
// "Time taken is N cycles" (the whole run: warm-up, samples and drain) and, in its "Overall Traffic
// Statistics", the first "Accepted flit rate average = X" (flits per node per cycle over the measured
// samples, traffic class 0). Its delivered flits are then taken as X x nodes x N, the convention of
// bench/suite.yaml's fixed peer rates (issue 31), so a timed rate and a fixed one compare like for like.
#pragma once
#include <optional>
#include <string>

namespace t3sim::analysis {

struct PeerFigures {
  double cycles = 0;
  double accepted_flits_per_cycle = 0;  // per node
  double flits(int nodes) const { return accepted_flits_per_cycle * nodes * cycles; }
};

// The figures in BookSim2's output, or none when either line is missing or unreadable (a run that
// failed, or another program's text).
std::optional<PeerFigures> booksim_figures(const std::string& output);

}  // namespace t3sim::analysis
