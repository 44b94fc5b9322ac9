// A 3D torus of router/node positions: node ids, coordinates, ring distances, directed link ids.
#pragma once
#include <array>
#include <string>

namespace t3sim::core {

using Coord = std::array<int, 3>;  // (x, y, z), each in [0, dims[d])

enum class Direction { Plus = 0, Minus = 1 };

// Directed link leaving `node` along `dim` in `dir`. Id = node*6 + dim*2 + dir.
// A ring of size 1 has no links; a ring of size 2 has two distinct links (+ and the wrap -) between its
// nodes, as the hardware has two cables there; a ring of size k >= 3 has k links each way.
using LinkId = int;

class Torus {
 public:
  // dims[d] >= 1 for each d; the caller (loader) validates and reports bad input.
  explicit Torus(Coord dims);

  const Coord& dims() const { return dims_; }
  int node_count() const { return dims_[0] * dims_[1] * dims_[2]; }
  // Node ids run x fastest: id = x + X*(y + Y*z).
  int node_id(const Coord& c) const;
  Coord coord(int node) const;

  // Neighbour of `node` one step along `dim` in `dir` (with wrap-around).
  int neighbor(int node, int dim, Direction dir) const;
  // Steps from a to b going in + direction, in [0, k).
  int plus_steps(int a_coord, int b_coord, int dim) const;
  // Shortest ring distance between coordinates a and b along dim: min(plus, k - plus).
  int ring_distance(int a_coord, int b_coord, int dim) const;

  bool has_links(int dim) const { return dims_[dim] >= 2; }
  static LinkId link_id(int node, int dim, Direction dir) { return node * 6 + dim * 2 + static_cast<int>(dir); }
  static int link_node(LinkId l) { return l / 6; }
  static int link_dim(LinkId l) { return (l % 6) / 2; }
  static Direction link_dir(LinkId l) { return static_cast<Direction>(l % 2); }
  // Upper bound of link ids (not all exist: see has_links).
  int link_id_bound() const { return node_count() * 6; }
  // "n12.y-" : node 12, leaving along y in the - direction.
  static std::string link_name(LinkId l);

 private:
  Coord dims_;
};

}  // namespace t3sim::core
