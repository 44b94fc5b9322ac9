#include "sim/core/machine/job_placement.hpp"
#include "sim/core/support/seeded_permutation.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>

namespace t3sim::core {
namespace {

void check_size(const MachineSpec& m, int job_pes, const char* policy) {
  if (job_pes < 1 || job_pes > m.pe_count())
    throw ModelError(std::string(policy) + " placement: " + std::to_string(job_pes) + " PEs do not fit machine '" +
                     m.name + "' (" + std::to_string(m.pe_count()) + " PEs)");
}

}  // namespace

JobPlacement JobPlacement::contiguous(const MachineSpec& m, int job_pes) {
  check_size(m, job_pes, "contiguous");
  std::vector<int> pes(static_cast<size_t>(job_pes));
  for (int p = 0; p < job_pes; ++p) pes[static_cast<size_t>(p)] = p;
  return JobPlacement(std::move(pes), m.node.pes_per_node, "contiguous");
}

JobPlacement JobPlacement::block(const MachineSpec& m, int job_pes) {
  check_size(m, job_pes, "block");
  const Torus torus = m.torus();
  const Coord d = torus.dims();
  const int ppn = m.node.pes_per_node;
  const int nodes_needed = (job_pes + ppn - 1) / ppn;
  const int populated = m.placement().pe_count() / ppn;
  std::tuple<int, int, int, int, int> best{1 << 30, 0, 0, 0, 0};  // (a+b+c, volume, a, b, c)
  for (int a = 1; a <= d[0]; ++a)
    for (int b = 1; b <= d[1]; ++b)
      for (int c = 1; c <= d[2]; ++c) {
        if (a * b * c < nodes_needed) continue;
        // Every node of the box must hold PEs.
        if (torus.node_id({a - 1, b - 1, c - 1}) >= populated) continue;
        best = std::min(best, std::make_tuple(a + b + c, a * b * c, a, b, c));
      }
  const auto [sum, volume, a, b, c] = best;
  if (volume == 0) throw ModelError("block placement: no populated box holds " + std::to_string(job_pes) + " PEs");
  std::vector<int> pes;
  for (int z = 0; z < c && static_cast<int>(pes.size()) < job_pes; ++z)
    for (int y = 0; y < b && static_cast<int>(pes.size()) < job_pes; ++y)
      for (int x = 0; x < a && static_cast<int>(pes.size()) < job_pes; ++x)
        for (int s = 0; s < ppn && static_cast<int>(pes.size()) < job_pes; ++s)
          pes.push_back(torus.node_id({x, y, z}) * ppn + s);
  return JobPlacement(std::move(pes), ppn,
                      "block " + std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c));
}

JobPlacement JobPlacement::random(const MachineSpec& m, int job_pes, uint64_t seed) {
  check_size(m, job_pes, "random");
  std::vector<int> all = seeded_permutation(m.pe_count(), seed);
  all.resize(static_cast<size_t>(job_pes));
  return JobPlacement(std::move(all), m.node.pes_per_node, "random:" + std::to_string(seed));
}

JobPlacement JobPlacement::list(const MachineSpec& m, std::vector<int> machine_pes) {
  check_size(m, static_cast<int>(machine_pes.size()), "list");
  std::set<int> seen;
  for (int pe : machine_pes) {
    if (pe < 0 || pe >= m.pe_count())
      throw ModelError("list placement: machine PE " + std::to_string(pe) + " out of range 0.." +
                       std::to_string(m.pe_count() - 1));
    if (!seen.insert(pe).second) throw ModelError("list placement: machine PE " + std::to_string(pe) + " listed twice");
  }
  return JobPlacement(std::move(machine_pes), m.node.pes_per_node, "list");
}

JobPlacement with_background_placement(const MachineSpec& m, const JobPlacement& main, int pes,
                                       const std::string& policy) {
  std::vector<bool> used(static_cast<size_t>(m.pe_count()), false);
  std::vector<int> all;
  for (int p = 0; p < main.size(); ++p) {
    used[static_cast<size_t>(main.machine_pe(p))] = true;
    all.push_back(main.machine_pe(p));
  }
  std::vector<int> free;
  for (int pe = 0; pe < m.pe_count(); ++pe)
    if (!used[static_cast<size_t>(pe)]) free.push_back(pe);
  if (pes < 1 || pes > static_cast<int>(free.size()))
    throw ModelError("background job of " + std::to_string(pes) + " PEs: only " + std::to_string(free.size()) +
                     " machine PEs are free");
  if (policy.rfind("random:", 0) == 0) {
    const auto order = seeded_permutation(static_cast<int>(free.size()), std::stoull(policy.substr(7)));
    std::vector<int> shuffled;
    for (int i : order) shuffled.push_back(free[static_cast<size_t>(i)]);
    free = std::move(shuffled);
  } else if (policy != "contiguous") {
    throw ModelError("background placement '" + policy + "': must be contiguous or random:SEED");
  }
  all.insert(all.end(), free.begin(), free.begin() + pes);
  return JobPlacement::list(m, std::move(all));
}

JobPlacement make_placement(const MachineSpec& m, int job_pes, const std::string& policy) {
  if (policy == "contiguous") return JobPlacement::contiguous(m, job_pes);
  if (policy == "block") return JobPlacement::block(m, job_pes);
  auto number = [&](const std::string& text) {
    size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || v < 0) throw ModelError("placement '" + policy + "': bad number '" + text + "'");
    return v;
  };
  if (policy.rfind("random:", 0) == 0)
    return JobPlacement::random(m, job_pes, static_cast<uint64_t>(number(policy.substr(7))));
  if (policy.rfind("list:", 0) == 0) {
    std::vector<int> pes;
    size_t start = 5;
    while (start <= policy.size()) {
      const size_t comma = policy.find(',', start);
      pes.push_back(static_cast<int>(
          number(policy.substr(start, comma == std::string::npos ? std::string::npos : comma - start))));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (static_cast<int>(pes.size()) != job_pes)
      throw ModelError("list placement: " + std::to_string(pes.size()) + " machine PEs for a job of " +
                       std::to_string(job_pes));
    return JobPlacement::list(m, std::move(pes));
  }
  throw ModelError("placement '" + policy + "': must be contiguous, block, random:SEED or list:P0,P1,...");
}

JobPlacement JobPlacement::with_io_nodes(const MachineSpec& m) const {
  std::vector<int> all = machine_pes_;
  for (int i = 0; i < m.io_node_count(); ++i) all.push_back(m.io_nodes[static_cast<size_t>(i)] * pes_per_node_);
  return JobPlacement(std::move(all), pes_per_node_, description_);
}

}  // namespace t3sim::core
