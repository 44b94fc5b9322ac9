#include "sim/core/topology/torus.hpp"

namespace t3sim::core {

Torus::Torus(Coord dims) : dims_(dims) {}

int Torus::node_id(const Coord& c) const { return c[0] + dims_[0] * (c[1] + dims_[1] * c[2]); }

Coord Torus::coord(int node) const {
  return {node % dims_[0], (node / dims_[0]) % dims_[1], node / (dims_[0] * dims_[1])};
}

int Torus::neighbor(int node, int dim, Direction dir) const {
  Coord c = coord(node);
  const int k = dims_[dim];
  c[dim] = (c[dim] + (dir == Direction::Plus ? 1 : k - 1)) % k;
  return node_id(c);
}

int Torus::plus_steps(int a_coord, int b_coord, int dim) const {
  const int k = dims_[dim];
  return ((b_coord - a_coord) % k + k) % k;
}

int Torus::ring_distance(int a_coord, int b_coord, int dim) const {
  const int plus = plus_steps(a_coord, b_coord, dim);
  const int minus = dims_[dim] - plus;
  return plus == 0 ? 0 : (plus < minus ? plus : minus);
}

std::string Torus::link_name(LinkId l) {
  static const char* kDim = "xyz";
  return "n" + std::to_string(link_node(l)) + "." + kDim[link_dim(l)] + (link_dir(l) == Direction::Plus ? "+" : "-");
}

}  // namespace t3sim::core
