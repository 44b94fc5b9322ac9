#include "sim/analysis/traffic_report.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "sim/analysis/pe_bandwidth.hpp"
#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/run/network_resources.hpp"

namespace t3sim::analysis {

Distribution distribution_of(std::vector<double> v) {
  Distribution d;
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  d.n = static_cast<int>(v.size());
  d.min = v.front();
  d.max = v.back();
  const size_t m = v.size() / 2;
  d.median = v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
  d.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  return d;
}

TrafficReport traffic_report(const core::MachineSpec& m, const core::JobPlacement& placement,
                             const core::RunResult& run, const std::string& label, int job_pes) {
  TrafficReport rep;
  rep.makespan = run.makespan;
  const core::Torus torus = m.torus();

  // Per measurement: pair bandwidths (per-PE bandwidths: pe_bandwidth.hpp).
  std::map<int, std::vector<double>> pairs;
  // Loads per network resource id (injection, ejection, links: network_resources.hpp), summed in
  // transfer order; named once at the end.
  core::NetworkResources resources(m, placement);
  const int nodes = torus.node_count();
  std::vector<double> bytes_on(static_cast<size_t>(resources.count()), 0.0);
  std::vector<double> utilisation_on(bytes_on.size(), 0.0);
  std::vector<char> used(bytes_on.size(), 0);
  const int kdim = [&] {
    int best = -1;
    for (int d = 0; d < 3; ++d)
      if (torus.dims()[d] >= 2 && (best < 0 || torus.dims()[d] > torus.dims()[best])) best = d;
    return best;
  }();
  auto crosses_bisection = [&](core::LinkId link) {
    if (kdim < 0 || core::Torus::link_dim(link) != kdim) return false;
    const int k = torus.dims()[kdim];
    const int c = torus.coord(core::Torus::link_node(link))[kdim];
    const bool plus = core::Torus::link_dir(link) == core::Direction::Plus;
    return plus ? (c == k / 2 - 1 || c == k - 1) : (c == k / 2 || c == 0);
  };
  auto carry = [&](core::ResourceId r, double bytes) {
    used[static_cast<size_t>(r)] = 1;
    bytes_on[static_cast<size_t>(r)] += bytes;
    utilisation_on[static_cast<size_t>(r)] += run.makespan > 0 ? bytes / (resources.capacity(r) * run.makespan) : 0;
    if (r >= 2 * nodes && crosses_bisection(r - 2 * nodes)) rep.bisection_bytes += bytes;
  };
  for (const auto& t : run.transfers) {
    const bool in_job = job_pes < 0 || (t.src < job_pes && t.dst < job_pes);
    if (in_job && t.end > t.start) pairs[t.iteration].push_back(t.bytes / (t.end - t.start));
    if (t.src == t.dst) {  // a local copy still passes its node's interfaces in the report
      for (core::ResourceId r : {placement.node_of(t.src), nodes + placement.node_of(t.dst)}) carry(r, t.bytes_moved());
      continue;
    }
    if (!run.network_bytes.empty()) continue;  // the transport counted what each resource carried
    const std::vector<core::ResourceId>& path = resources.path(t.src, t.dst);
    const std::vector<double>& weights = resources.weights();  // the share of the bytes on each
    for (size_t i = 0; i < path.size(); ++i) carry(path[i], t.bytes_moved() * weights[i]);
  }
  for (size_t r = 0; r < run.network_bytes.size(); ++r)
    if (run.network_bytes[r] > 0) carry(static_cast<core::ResourceId>(r), run.network_bytes[r]);
  std::map<std::string, LinkLoad> loads;
  for (core::ResourceId r = 0; r < resources.count(); ++r) {
    if (!used[static_cast<size_t>(r)]) continue;
    LinkLoad l;
    l.name = resources.name(r);
    l.dim = r < 2 * nodes ? -1 : core::Torus::link_dim(r - 2 * nodes);
    l.plus = r < nodes || (r >= 2 * nodes && core::Torus::link_dir(r - 2 * nodes) == core::Direction::Plus);
    l.bytes = bytes_on[static_cast<size_t>(r)];
    l.utilisation = utilisation_on[static_cast<size_t>(r)];
    loads[l.name] = l;
  }
  for (const auto& [it, m] : pe_bandwidths(run, label, job_pes)) {
    SizeReport s;
    s.bytes = m.bytes;
    s.span = m.span;
    s.pe_bandwidth = distribution_of(m.per_pe);
    s.pair_bandwidth = distribution_of(pairs[it]);
    rep.sizes.push_back(s);
  }

  for (auto& [name, l] : loads) rep.links.push_back(l);
  std::sort(rep.links.begin(), rep.links.end(), [](const LinkLoad& a, const LinkLoad& b) {
    return a.utilisation != b.utilisation ? a.utilisation > b.utilisation : a.name < b.name;
  });
  for (int d = 0; d < 3; ++d) {
    if (!torus.has_links(d)) continue;
    for (bool plus : {true, false}) {
      DimensionLoad dl;
      dl.dim = d;
      dl.plus = plus;
      dl.links = torus.node_count();
      double sum = 0;
      for (const auto& l : rep.links)
        if (l.dim == d && l.plus == plus) {
          sum += l.utilisation;
          dl.max_utilisation = std::max(dl.max_utilisation, l.utilisation);
        }
      dl.mean_utilisation = sum / dl.links;
      rep.dimensions.push_back(dl);
    }
  }
  if (kdim >= 0) {
    rep.bisection_dim = kdim;
    const int plane = torus.node_count() / torus.dims()[kdim];
    rep.bisection_bandwidth = 4.0 * plane * m.network.link_bandwidth;  // two cuts, both directions
    if (run.makespan > 0) rep.bisection_utilisation = rep.bisection_bytes / (rep.bisection_bandwidth * run.makespan);
  }
  return rep;
}

}  // namespace t3sim::analysis
