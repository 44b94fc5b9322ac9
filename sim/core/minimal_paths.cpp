#include "sim/core/minimal_paths.hpp"

#include <algorithm>
#include <array>
#include <queue>
#include <utility>

#include "sim/core/failed_links.hpp"

namespace t3sim::core {
namespace {

// (link, routes through it) pairs to the sorted, merged output.
void emit(std::vector<std::pair<LinkId, double>>& counts, double total, std::vector<LinkId>& links,
          std::vector<double>& weights) {
  std::sort(counts.begin(), counts.end());
  for (size_t i = 0; i < counts.size();) {
    const LinkId l = counts[i].first;
    double n = 0;
    for (; i < counts.size() && counts[i].first == l; ++i) n += counts[i].second;
    links.push_back(l);
    weights.push_back(n / total);
  }
}

}  // namespace

MinimalPaths::MinimalPaths(const Torus& torus, const std::vector<LinkId>& failed)
    : torus_(torus), failed_(failed_link_mask(torus, failed)) {}

int MinimalPaths::torus_distance(int src, int dst) const {
  const Coord a = torus_.coord(src), b = torus_.coord(dst);
  return torus_.ring_distance(a[0], b[0], 0) + torus_.ring_distance(a[1], b[1], 1) +
         torus_.ring_distance(a[2], b[2], 2);
}

int MinimalPaths::split(int src, int dst, std::vector<LinkId>& links, std::vector<double>& weights) const {
  if (src == dst) return 0;
  if (split_minimal(src, dst, links, weights)) return torus_distance(src, dst);
  return split_detour(src, dst, &links, &weights);
}

int MinimalPaths::hops(int src, int dst) const {
  if (src == dst) return 0;
  if (failed_.empty()) return torus_distance(src, dst);
  std::vector<LinkId> links;
  std::vector<double> weights;
  if (split_minimal(src, dst, links, weights)) return torus_distance(src, dst);
  return split_detour(src, dst, nullptr, nullptr);
}

bool MinimalPaths::split_minimal(int src, int dst, std::vector<LinkId>& links, std::vector<double>& weights) const {
  const Coord a = torus_.coord(src), b = torus_.coord(dst);
  Coord dist{};
  std::vector<Direction> choices[3];
  for (int d = 0; d < 3; ++d) {
    dist[d] = torus_.ring_distance(a[d], b[d], d);
    if (dist[d] == 0) {
      choices[d] = {Direction::Plus};  // no hop along d: the direction is never used
      continue;
    }
    const int plus = torus_.plus_steps(a[d], b[d], d);
    const int minus = torus_.dims()[d] - plus;
    if (plus <= minus) choices[d].push_back(Direction::Plus);
    if (minus <= plus) choices[d].push_back(Direction::Minus);
  }
  // The lattice of hop counts (i, j, k), i fastest.
  const Coord extent{dist[0] + 1, dist[1] + 1, dist[2] + 1};
  const int stride[3] = {1, extent[0], extent[0] * extent[1]};
  const size_t points =
      static_cast<size_t>(extent[0]) * static_cast<size_t>(extent[1]) * static_cast<size_t>(extent[2]);
  std::vector<double> f(points), back(points);
  std::vector<int> node(points);
  std::vector<std::pair<LinkId, double>> counts;
  double total = 0;
  for (Direction dx : choices[0])
    for (Direction dy : choices[1])
      for (Direction dz : choices[2]) {
        const Direction dir[3] = {dx, dy, dz};
        // Node of each lattice point, and the link leaving it along each dimension (-1: none or failed).
        std::vector<std::array<LinkId, 3>> out(points);
        for (size_t p = 0; p < points; ++p) {
          Coord step{static_cast<int>(p) % extent[0], (static_cast<int>(p) / stride[1]) % extent[1],
                     static_cast<int>(p) / stride[2]};
          Coord c{};
          for (int d = 0; d < 3; ++d) {
            const int k = torus_.dims()[d];
            const int s = dir[d] == Direction::Plus ? step[d] : k - step[d];
            c[d] = (a[d] + s) % k;
          }
          node[p] = torus_.node_id(c);
          for (int d = 0; d < 3; ++d) {
            const LinkId l = Torus::link_id(node[p], d, dir[d]);
            out[p][static_cast<size_t>(d)] = step[d] < dist[d] && !failed(l) ? l : -1;
          }
        }
        for (size_t p = 0; p < points; ++p) {
          f[p] = p == 0 ? 1 : 0;
          for (int d = 0; d < 3; ++d) {
            const auto from = static_cast<long>(p) - stride[d];
            const bool has_from = (static_cast<int>(p) / stride[d]) % extent[d] > 0;
            if (has_from && out[static_cast<size_t>(from)][static_cast<size_t>(d)] >= 0)
              f[p] += f[static_cast<size_t>(from)];
          }
        }
        for (size_t q = points; q-- > 0;) {
          back[q] = q == points - 1 ? 1 : 0;
          for (int d = 0; d < 3; ++d)
            if (out[q][static_cast<size_t>(d)] >= 0) back[q] += back[q + static_cast<size_t>(stride[d])];
        }
        if (f[points - 1] == 0) continue;
        total += f[points - 1];
        for (size_t p = 0; p < points; ++p)
          for (int d = 0; d < 3; ++d) {
            const LinkId l = out[p][static_cast<size_t>(d)];
            if (l < 0) continue;
            const double through = f[p] * back[p + static_cast<size_t>(stride[d])];
            if (through > 0) counts.emplace_back(l, through);
          }
      }
  if (total == 0) return false;
  emit(counts, total, links, weights);
  return true;
}

int MinimalPaths::split_detour(int src, int dst, std::vector<LinkId>* links, std::vector<double>* weights) const {
  const int n = torus_.node_count();
  // Breadth-first from src along links that work, counting shortest routes (sigma); then from dst
  // against the links' direction.
  auto search = [&](int start, bool forward, std::vector<int>& level, std::vector<double>& sigma) {
    level.assign(static_cast<size_t>(n), -1);
    sigma.assign(static_cast<size_t>(n), 0);
    std::queue<int> queue;
    level[static_cast<size_t>(start)] = 0;
    sigma[static_cast<size_t>(start)] = 1;
    queue.push(start);
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop();
      for (int d = 0; d < 3; ++d) {
        if (!torus_.has_links(d)) continue;
        for (Direction dir : {Direction::Plus, Direction::Minus}) {
          const Direction back_dir = dir == Direction::Plus ? Direction::Minus : Direction::Plus;
          const int v = torus_.neighbor(u, d, dir);
          // forward: the link u -> v; backward: the link v -> u (leaving v the other way).
          const LinkId l = forward ? Torus::link_id(u, d, dir) : Torus::link_id(v, d, back_dir);
          if (failed(l)) continue;
          auto& lv = level[static_cast<size_t>(v)];
          if (lv < 0) {
            lv = level[static_cast<size_t>(u)] + 1;
            queue.push(v);
          }
          if (lv == level[static_cast<size_t>(u)] + 1) sigma[static_cast<size_t>(v)] += sigma[static_cast<size_t>(u)];
        }
      }
    }
  };
  std::vector<int> from_src, to_dst;
  std::vector<double> sigma_src, sigma_dst;
  search(src, true, from_src, sigma_src);
  const int length = from_src[static_cast<size_t>(dst)];
  if (length < 0 || links == nullptr) return length;
  search(dst, false, to_dst, sigma_dst);
  std::vector<std::pair<LinkId, double>> counts;
  for (int u = 0; u < n; ++u) {
    if (from_src[static_cast<size_t>(u)] < 0) continue;
    for (int d = 0; d < 3; ++d) {
      if (!torus_.has_links(d)) continue;
      for (Direction dir : {Direction::Plus, Direction::Minus}) {
        const LinkId l = Torus::link_id(u, d, dir);
        const int v = torus_.neighbor(u, d, dir);
        if (failed(l) || to_dst[static_cast<size_t>(v)] < 0) continue;
        if (from_src[static_cast<size_t>(u)] + 1 + to_dst[static_cast<size_t>(v)] != length) continue;
        counts.emplace_back(l, sigma_src[static_cast<size_t>(u)] * sigma_dst[static_cast<size_t>(v)]);
      }
    }
  }
  emit(counts, sigma_src[static_cast<size_t>(dst)], *links, *weights);
  return length;
}

}  // namespace t3sim::core
