// The torus as a Boost.Graph, for independent checks of the router (BFS hop counts) and for
// structural figures. Boost types stay inside the .cpp.
#pragma once
#include <vector>

#include "sim/core/topology/torus.hpp"

namespace t3sim::core {

// Hop count from `src` to every node by breadth-first search over the torus links.
std::vector<int> bfs_hops(const Torus& torus, int src);
// Number of directed links that exist (rings of size 1 have none; size 2 has two each way).
int directed_link_count(const Torus& torus);

}  // namespace t3sim::core
