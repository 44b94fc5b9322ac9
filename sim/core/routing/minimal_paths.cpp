#include "sim/core/routing/minimal_paths.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <queue>
#include <utility>

#include "sim/core/topology/failed_links.hpp"

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

void MinimalPaths::directions(const Coord& a, const Coord& b, Coord& dist, std::vector<Direction> (&choices)[3]) const {
  for (int d = 0; d < 3; ++d) {
    choices[d].clear();
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
}

void MinimalPaths::build_lattice(const Coord& a, const Coord& dist, const Direction (&dir)[3], Lattice& lat) const {
  lat.extent = {dist[0] + 1, dist[1] + 1, dist[2] + 1};
  lat.stride = {1, static_cast<size_t>(lat.extent[0]), static_cast<size_t>(lat.extent[0] * lat.extent[1])};
  lat.points =
      static_cast<size_t>(lat.extent[0]) * static_cast<size_t>(lat.extent[1]) * static_cast<size_t>(lat.extent[2]);
  lat.out.resize(lat.points);
  // The node id is a sum of one term per dimension (x + X*(y + Y*z)): each term tabulated by step.
  std::array<std::vector<int>, 3>& term = lattice_terms_;
  const Coord& k = torus_.dims();
  const int scale[3] = {1, k[0], k[0] * k[1]};
  for (int d = 0; d < 3; ++d) {
    std::vector<int>& t = term[static_cast<size_t>(d)];
    t.resize(static_cast<size_t>(lat.extent[d]));
    for (int step = 0; step < lat.extent[d]; ++step) {
      const int s = dir[d] == Direction::Plus ? step : k[d] - step;
      t[static_cast<size_t>(step)] = (a[d] + s) % k[d] * scale[d];
    }
  }
  size_t p = 0;
  for (int z = 0; z < lat.extent[2]; ++z)
    for (int y = 0; y < lat.extent[1]; ++y)
      for (int x = 0; x < lat.extent[0]; ++x, ++p) {
        const int node =
            term[0][static_cast<size_t>(x)] + term[1][static_cast<size_t>(y)] + term[2][static_cast<size_t>(z)];
        const int step[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          const LinkId l = Torus::link_id(node, d, dir[d]);
          lat.out[p][static_cast<size_t>(d)] = step[d] < dist[d] && !failed(l) ? l : -1;
        }
      }
}

bool MinimalPaths::split_minimal(int src, int dst, std::vector<LinkId>& links, std::vector<double>& weights) const {
  const Coord a = torus_.coord(src), b = torus_.coord(dst);
  Coord dist{};
  std::vector<Direction> choices[3];
  directions(a, b, dist, choices);
  Lattice lat;
  std::vector<double> f, back;
  std::vector<std::pair<LinkId, double>> counts;
  double total = 0;
  for (Direction dx : choices[0])
    for (Direction dy : choices[1])
      for (Direction dz : choices[2]) {
        const Direction dir[3] = {dx, dy, dz};
        build_lattice(a, dist, dir, lat);
        const size_t points = lat.points;
        f.assign(points, 0);
        back.assign(points, 0);
        for (size_t p = 0; p < points; ++p) {
          f[p] = p == 0 ? 1 : 0;
          for (int d = 0; d < 3; ++d) {
            const LinkId in = lat.in(p, d);
            if (in >= 0) f[p] += f[p - lat.stride[static_cast<size_t>(d)]];
          }
        }
        for (size_t q = points; q-- > 0;) {
          back[q] = q == points - 1 ? 1 : 0;
          for (int d = 0; d < 3; ++d)
            if (lat.out[q][static_cast<size_t>(d)] >= 0) back[q] += back[q + lat.stride[static_cast<size_t>(d)]];
        }
        if (f[points - 1] == 0) continue;
        total += f[points - 1];
        for (size_t p = 0; p < points; ++p)
          for (int d = 0; d < 3; ++d) {
            const LinkId l = lat.out[p][static_cast<size_t>(d)];
            if (l < 0) continue;
            const double through = f[p] * back[p + lat.stride[static_cast<size_t>(d)]];
            if (through > 0) counts.emplace_back(l, through);
          }
      }
  if (total == 0) return false;
  emit(counts, total, links, weights);
  return true;
}

template <class Score>
int MinimalPaths::widest_minimal(int src, int dst, const Score& score, std::vector<LinkId>& route) const {
  const Coord a = torus_.coord(src), b = torus_.coord(dst);
  Coord dist{};
  std::vector<Direction> choices[3];
  directions(a, b, dist, choices);
  Lattice& lat = widest_lattice_;
  std::vector<double>& best = widest_best_;
  std::vector<signed char>& via = widest_via_;  // the dimension of the hop into each point on its widest route
  double widest = -1;
  const size_t start = route.size();
  for (Direction dx : choices[0])
    for (Direction dy : choices[1])
      for (Direction dz : choices[2]) {
        const Direction dir[3] = {dx, dy, dz};
        build_lattice(a, dist, dir, lat);
        best.assign(lat.points, -1);  // -1: not reached
        via.assign(lat.points, -1);
        best[0] = std::numeric_limits<double>::infinity();
        size_t p = 0;
        for (int z = 0; z < lat.extent[2]; ++z)
          for (int y = 0; y < lat.extent[1]; ++y)
            for (int x = 0; x < lat.extent[0]; ++x, ++p) {
              const int step[3] = {x, y, z};
              for (int d = 2; d >= 0; --d) {  // the higher dimension wins a tie: x hops first, going forward
                if (step[d] == 0) continue;
                const size_t from_point = p - lat.stride[static_cast<size_t>(d)];
                const LinkId in = lat.out[from_point][static_cast<size_t>(d)];
                if (in < 0) continue;
                const double from = best[from_point];
                if (from < 0) continue;
                // (A score a rounding error left below 0 is a link with nothing left: 0, not a reason to
                // leave the minimal routes for a detour.)
                const double w = std::min(from, std::max(0.0, static_cast<double>(score(in))));
                if (w > best[p]) {
                  best[p] = w;
                  via[p] = static_cast<signed char>(d);
                }
              }
            }
        if (!(best[lat.points - 1] > widest)) continue;  // the first direction combination wins a tie
        widest = best[lat.points - 1];
        route.resize(start);
        for (size_t q = lat.points - 1; q > 0;) {
          const int d = via[q];
          route.push_back(lat.in(q, d));
          q -= lat.stride[static_cast<size_t>(d)];
        }
        std::reverse(route.begin() + static_cast<long>(start), route.end());
      }
  return widest >= 0 ? static_cast<int>(route.size() - start) : -1;
}

int MinimalPaths::widest_route(int src, int dst, const std::function<double(LinkId)>& score,
                               std::vector<LinkId>& route) const {
  if (src == dst) return 0;
  const int hops = widest_minimal(src, dst, score, route);
  return hops >= 0 ? hops : widest_detour(src, dst, score, route);
}

int MinimalPaths::widest_route(int src, int dst, const double* score, std::vector<LinkId>& route) const {
  if (src == dst) return 0;
  const auto lookup = [score](LinkId l) { return score[l]; };
  const int hops = widest_minimal(src, dst, lookup, route);
  return hops >= 0 ? hops : widest_detour(src, dst, lookup, route);
}

void MinimalPaths::search(int start, bool forward, std::vector<int>& level, std::vector<double>& sigma) const {
  const int n = torus_.node_count();
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
}

template <class Visit>
void MinimalPaths::for_each_detour_link(const std::vector<int>& from_src, const std::vector<int>& to_dst, int length,
                                        Visit&& visit) const {
  for (int u = 0; u < torus_.node_count(); ++u) {
    if (from_src[static_cast<size_t>(u)] < 0) continue;
    for (int d = 0; d < 3; ++d) {
      if (!torus_.has_links(d)) continue;
      for (Direction dir : {Direction::Plus, Direction::Minus}) {
        const LinkId l = Torus::link_id(u, d, dir);
        const int v = torus_.neighbor(u, d, dir);
        if (failed(l) || to_dst[static_cast<size_t>(v)] < 0) continue;
        if (from_src[static_cast<size_t>(u)] + 1 + to_dst[static_cast<size_t>(v)] != length) continue;
        visit(u, v, l);
      }
    }
  }
}

int MinimalPaths::split_detour(int src, int dst, std::vector<LinkId>* links, std::vector<double>* weights) const {
  // Breadth-first from src along links that work, counting shortest routes (sigma); then from dst
  // against the links' direction.
  std::vector<int> from_src, to_dst;
  std::vector<double> sigma_src, sigma_dst;
  search(src, true, from_src, sigma_src);
  const int length = from_src[static_cast<size_t>(dst)];
  if (length < 0 || links == nullptr) return length;
  search(dst, false, to_dst, sigma_dst);
  std::vector<std::pair<LinkId, double>> counts;
  for_each_detour_link(from_src, to_dst, length, [&](int u, int v, LinkId l) {
    counts.emplace_back(l, sigma_src[static_cast<size_t>(u)] * sigma_dst[static_cast<size_t>(v)]);
  });
  emit(counts, sigma_src[static_cast<size_t>(dst)], *links, *weights);
  return length;
}

int MinimalPaths::widest_detour(int src, int dst, const std::function<double(LinkId)>& score,
                                std::vector<LinkId>& route) const {
  std::vector<int> from_src, to_dst;
  std::vector<double> sigma_src, sigma_dst;
  search(src, true, from_src, sigma_src);
  const int length = from_src[static_cast<size_t>(dst)];
  if (length < 0) return -1;
  search(dst, false, to_dst, sigma_dst);
  // The shortest-route links by the level of their tail, then the widest route level by level.
  std::vector<std::vector<std::pair<int, LinkId>>> by_level(static_cast<size_t>(length));
  for_each_detour_link(from_src, to_dst, length, [&](int u, int v, LinkId l) {
    by_level[static_cast<size_t>(from_src[static_cast<size_t>(u)])].emplace_back(v, l);
  });
  std::vector<double> best(static_cast<size_t>(torus_.node_count()), -1);
  std::vector<LinkId> via(best.size(), -1);
  best[static_cast<size_t>(src)] = std::numeric_limits<double>::infinity();
  for (const auto& level : by_level)
    for (const auto& [v, l] : level) {
      const double w = std::min(best[static_cast<size_t>(Torus::link_node(l))], score(l));
      if (w > best[static_cast<size_t>(v)]) {
        best[static_cast<size_t>(v)] = w;
        via[static_cast<size_t>(v)] = l;
      }
    }
  const size_t start = route.size();
  for (int node = dst; node != src; node = Torus::link_node(via[static_cast<size_t>(node)]))
    route.push_back(via[static_cast<size_t>(node)]);
  std::reverse(route.begin() + static_cast<long>(start), route.end());
  return length;
}

}  // namespace t3sim::core
