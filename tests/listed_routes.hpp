// Every shortest route between two nodes of a torus over the links that work, listed one by one by a
// depth-first walk (no lattice count, no edge betweenness): the tests' independent check of
// sim/core/routing/minimal_paths.hpp, and the source of the expected link loads of the routing closed forms.
#pragma once
#include <functional>
#include <map>
#include <queue>
#include <vector>

#include "sim/core/topology/torus.hpp"

namespace t3sim::testing_support {

using core::Direction;
using core::LinkId;
using core::Torus;

// Every shortest route from src to dst over the links that work, listed: the fraction of them crossing
// each link, and their length (-1 when none).
struct Listed {
  int length = -1;
  std::map<LinkId, double> share;
};

// Calls visit(route) with every shortest route from src to dst over the links that work (links in
// order); returns their length (-1 when none, 0 when src == dst: nothing visited).
inline int for_each_route(const Torus& t, int src, int dst, const std::vector<bool>& failed,
                          const std::function<void(const std::vector<LinkId>&)>& visit) {
  auto works = [&](LinkId l) { return failed.empty() || !failed[static_cast<size_t>(l)]; };
  // Distance to dst from every node, against the links' direction.
  std::vector<int> to_dst(static_cast<size_t>(t.node_count()), -1);
  std::queue<int> q;
  to_dst[static_cast<size_t>(dst)] = 0;
  q.push(dst);
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    for (int d = 0; d < 3; ++d)
      for (Direction dir : {Direction::Plus, Direction::Minus}) {
        if (!t.has_links(d)) continue;
        const Direction back = dir == Direction::Plus ? Direction::Minus : Direction::Plus;
        const int u = t.neighbor(v, d, back);  // u -> v leaves u in `dir`
        if (!works(Torus::link_id(u, d, dir)) || to_dst[static_cast<size_t>(u)] >= 0) continue;
        to_dst[static_cast<size_t>(u)] = to_dst[static_cast<size_t>(v)] + 1;
        q.push(u);
      }
  }
  const int length = to_dst[static_cast<size_t>(src)];
  if (length <= 0) return length;
  std::vector<LinkId> path;
  // Depth-first: each step must bring the packet one hop closer.
  std::function<void(int)> walk = [&](int u) {
    if (u == dst) {
      visit(path);
      return;
    }
    for (int d = 0; d < 3; ++d)
      for (Direction dir : {Direction::Plus, Direction::Minus}) {
        if (!t.has_links(d)) continue;
        const LinkId l = Torus::link_id(u, d, dir);
        const int v = t.neighbor(u, d, dir);
        if (!works(l) || to_dst[static_cast<size_t>(v)] != to_dst[static_cast<size_t>(u)] - 1) continue;
        path.push_back(l);
        walk(v);
        path.pop_back();
      }
  };
  walk(src);
  return length;
}

inline Listed list_routes(const Torus& t, int src, int dst, const std::vector<bool>& failed) {
  Listed out;
  std::map<LinkId, double> count;
  double routes = 0;
  out.length = for_each_route(t, src, dst, failed, [&](const std::vector<LinkId>& route) {
    ++routes;
    for (LinkId l : route) count[l] += 1;
  });
  for (auto& [l, n] : count) out.share[l] = n / routes;
  return out;
}

}  // namespace t3sim::testing_support
