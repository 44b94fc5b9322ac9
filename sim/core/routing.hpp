// Routing as the transports see it: the directed torus links a flow from one node to another
// crosses, in order. One implementation today, dimension order (router.hpp); the T3E's routings are
// new implementations of this interface (weighted paths will extend it), so the cost model, the
// reports and `route` need not change when a routing is added.
#pragma once
#include <vector>

#include "sim/core/router.hpp"

namespace t3sim::core {

class Routing {
 public:
  virtual ~Routing() = default;
  // Appends the links from src_node to dst_node to `out` (none when they are the same node).
  virtual void append_links(int src_node, int dst_node, std::vector<LinkId>& out) const = 0;
};

class DimensionOrderRouting : public Routing {
 public:
  explicit DimensionOrderRouting(Router router) : router_(std::move(router)) {}
  void append_links(int src_node, int dst_node, std::vector<LinkId>& out) const override;

 private:
  Router router_;
};

}  // namespace t3sim::core
