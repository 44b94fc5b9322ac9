#include "sim/io/trace/ti/ti_collective_plan.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace t3sim::io {
namespace {

using core::Collective;

bool rooted(Collective k) {
  return k == Collective::Bcast || k == Collective::Reduce || k == Collective::Gather || k == Collective::Scatter ||
         k == Collective::Gatherv || k == Collective::Scatterv;
}
// Kinds whose every member writes the same size (gather and scatter do not: an MPI_IN_PLACE root writes 0).
bool same_size(Collective k) {
  return k == Collective::Bcast || k == Collective::Reduce || k == Collective::Allreduce || k == Collective::Alltoall ||
         k == Collective::Allgather || k == Collective::Scan || k == Collective::Exscan;
}

using Signature = std::tuple<int, int, double>;  // kind, root, size (0 where not compared)
Signature signature_of(const CollectiveVote& v) {
  return {static_cast<int>(v.kind), rooted(v.kind) ? v.root : 0, same_size(v.kind) ? v.bytes : 0};
}

// "0-2, 4, 6-7" for ascending PEs.
std::string pe_ranges(const std::vector<int>& pes) {
  std::string out;
  for (size_t i = 0; i < pes.size();) {
    size_t j = i;
    while (j + 1 < pes.size() && pes[j + 1] == pes[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + (j == i ? std::to_string(pes[i]) : fmt::format("{}-{}", pes[i], pes[j]));
    i = j + 1;
  }
  return out;
}

std::string describe(const Signature& s) {
  const auto [kind, root, bytes] = s;
  const Collective k = static_cast<Collective>(kind);
  std::string out = core::enum_name(k);
  if (rooted(k)) out += fmt::format(" root {}", root);
  if (same_size(k)) out += fmt::format(" of {:g} B", bytes);
  return out;
}

}  // namespace

CollectivePlan plan_collectives(const std::vector<std::vector<CollectiveVote>>& votes, TraceProgram& out) {
  const size_t n = votes.size();
  CollectivePlan plan(n);
  for (size_t r = 0; r < n; ++r) plan[r].resize(votes[r].size());
  std::vector<size_t> next(n, 0);
  // Where each signature comes in each rank's sequence, to ask "is it still ahead of rank r?" in log
  // time (filled the first time ranks disagree: a trace of MPI_COMM_WORLD collectives never needs it).
  std::vector<std::map<Signature, std::vector<size_t>>> positions;
  auto ahead = [&](size_t r, const Signature& s) {
    if (positions.empty()) {
      positions.resize(n);
      for (size_t q = 0; q < n; ++q)
        for (size_t k = 0; k < votes[q].size(); ++k) positions[q][signature_of(votes[q][k])].push_back(k);
    }
    const auto it = positions[r].find(s);
    if (it == positions[r].end()) return false;
    const auto later = std::upper_bound(it->second.begin(), it->second.end(), next[r]);
    return later != it->second.end() && *later <= next[r] + kLookAhead;
  };
  int id = 0;
  auto run = [&](const std::vector<int>& ranks, const std::string& others) {
    std::shared_ptr<const std::vector<int>> group;
    if (ranks.size() != n) group = std::make_shared<const std::vector<int>>(ranks);
    // gather and scatter: the block size most members wrote (ties: the larger)
    std::map<double, int, std::greater<>> sizes;
    for (int r : ranks) ++sizes[votes[static_cast<size_t>(r)][next[static_cast<size_t>(r)]].bytes];
    const double bytes = std::max_element(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) {
                           return a.second < b.second;
                         })->first;
    const CollectiveVote& first = votes[static_cast<size_t>(ranks[0])][next[static_cast<size_t>(ranks[0])]];
    if (group) {  // one warning per line: the detail is the first's
      const std::string detail =
          fmt::format("first: {} by PE {}{}", describe(signature_of(first)), pe_ranges(ranks), others);
      for (int r : ranks)
        out.warn(votes[static_cast<size_t>(r)][next[static_cast<size_t>(r)]].at(), core::enum_name(first.kind),
                 "a collective only some ranks run (a sub-communicator's, or ranks that disagree on its root or "
                 "size; the trace records no communicator): replayed among those ranks",
                 detail);
    }
    for (int r : ranks) plan[static_cast<size_t>(r)][next[static_cast<size_t>(r)]++] = {id, group, bytes};
    ++id;
  };
  for (;;) {
    std::map<Signature, std::vector<int>> groups;  // the ranks running each signature next
    for (size_t r = 0; r < n; ++r)
      if (next[r] < votes[r].size()) groups[signature_of(votes[r][next[r]])].push_back(static_cast<int>(r));
    if (groups.empty()) break;
    if (groups.size() == 1 && groups.begin()->second.size() == n) {  // every rank: the common case
      run(groups.begin()->second, "");
      continue;
    }
    std::string others;
    for (const auto& [s, ranks] : groups) others += fmt::format("; {} by PE {}", describe(s), pe_ranges(ranks));
    std::vector<const std::vector<int>*> ready;
    const std::vector<int>* largest = nullptr;
    for (const auto& [s, ranks] : groups) {
      if (!largest || ranks.size() > largest->size()) largest = &ranks;
      bool waits = false;
      for (const auto& [other, outside] : groups) {
        if (other == s) continue;
        for (int r : outside)
          if ((waits = ahead(static_cast<size_t>(r), s))) break;
        if (waits) break;
      }
      if (!waits) ready.push_back(&ranks);
    }
    if (ready.empty()) ready.push_back(largest);
    for (const std::vector<int>* ranks : ready)
      run(*ranks, groups.size() > 1 ? " (next at the others:" + others.substr(1) + ")" : "");
  }
  return plan;
}

}  // namespace t3sim::io
