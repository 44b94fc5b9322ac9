#include "sim/core/topology/topology_graph.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

namespace t3sim::core {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

Graph make_graph(const Torus& torus) {
  Graph g(static_cast<size_t>(torus.node_count()));
  for (int n = 0; n < torus.node_count(); ++n)
    for (int d = 0; d < 3; ++d) {
      if (!torus.has_links(d)) continue;
      boost::add_edge(n, torus.neighbor(n, d, Direction::Plus), g);
      boost::add_edge(n, torus.neighbor(n, d, Direction::Minus), g);
    }
  return g;
}

}  // namespace

std::vector<int> bfs_hops(const Torus& torus, int src) {
  const Graph g = make_graph(torus);
  std::vector<int> dist(boost::num_vertices(g), 0);
  boost::breadth_first_search(
      g, boost::vertex(src, g),
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()))));
  return dist;
}

int directed_link_count(const Torus& torus) { return static_cast<int>(boost::num_edges(make_graph(torus))); }

}  // namespace t3sim::core
