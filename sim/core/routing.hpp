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
  // Links from src_node to dst_node (empty when they are the same node).
  virtual std::vector<LinkId> links(int src_node, int dst_node) const = 0;
};

class DimensionOrderRouting : public Routing {
 public:
  explicit DimensionOrderRouting(Router router) : router_(std::move(router)) {}
  std::vector<LinkId> links(int src_node, int dst_node) const override;

 private:
  Router router_;
};

}  // namespace t3sim::core
