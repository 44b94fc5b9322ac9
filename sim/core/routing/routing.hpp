// Routing as the transports see it: the directed torus links a flow from one node to another crosses,
// each with the fraction of the flow's bytes that crosses it (1 on a single route). The cost model, the
// reports, `route` and both transports take their paths from here, so a routing is added here alone.
//
// The routings (a machine's torus.routing; sources in machine_params.cpp):
// - dimension_order: one route, dimensions corrected in torus.dimension_order (the T3D's).
// - direction_order: one route, every + hop before every - hop (the T3E's deterministic escape order).
// - minimal_oblivious: the flow spread evenly over all shortest routes that avoid failed links, so a
//   link carries the fraction of those routes that cross it (minimal_paths.hpp). Packets of a flow
//   picking among minimal paths without regard to load, seen as a fluid.
// - minimal_adaptive: each flow spread over a few minimal routes with shares that follow the load
//   (adaptive_splits.hpp), set by the fast transport as rates change. Alone on the network a flow
//   takes the widest route of an idle torus, the dimension-order one: that is what append_links
//   gives (the uncontended cost model, reports of routes).
// Failed links (MachineSpec::failed_links): the deterministic routings cannot avoid them (a route that
// crosses one throws UnroutablePair, naming the pair and the link); the minimal routings use the
// shortest routes that avoid them, which are longer than the torus distance when every minimal route
// crosses a failed link.
#pragma once
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/support/enum_names.hpp"
#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

class MinimalPaths;

enum class RoutingKind { DimensionOrder, DirectionOrder, MinimalOblivious, MinimalAdaptive };
// As a machine's torus.routing, `--routing` and a bench case's `routing:` name them.
constexpr NameTable<RoutingKind, 4> kRoutingKindNames = {
    {RoutingKind::DimensionOrder, "dimension_order"},
    {RoutingKind::DirectionOrder, "direction_order"},
    {RoutingKind::MinimalOblivious, "minimal_oblivious"},
    {RoutingKind::MinimalAdaptive, "minimal_adaptive"},
};
constexpr const auto& name_table(RoutingKind) { return kRoutingKindNames; }

// The pair's traffic cannot reach its destination under the routing (a deterministic route crosses a
// failed link, or failures cut the torus in two).
class UnroutablePair : public ModelError {
 public:
  UnroutablePair(int src_node, int dst_node, LinkId link, const std::string& what)
      : ModelError(what), src_node_(src_node), dst_node_(dst_node), link_(link) {}
  int src_node() const { return src_node_; }
  int dst_node() const { return dst_node_; }
  LinkId link() const { return link_; }  // the failed link the route crosses; -1 when cut off

 private:
  int src_node_;
  int dst_node_;
  LinkId link_;
};

// The same error with the job's PEs named first (they are what the user's program knows).
UnroutablePair with_pes(const UnroutablePair& e, int src_pe, int dst_pe);

class Routing {
 public:
  virtual ~Routing() = default;
  // Appends the links from src_node to dst_node to `links` and the fraction of the flow crossing each
  // to `weights` (none when they are the same node); links in increasing id order for a multipath
  // routing, in route order for a single route. Returns the hops a packet takes (the same on every
  // route used). Throws UnroutablePair.
  virtual int append_links(int src_node, int dst_node, std::vector<LinkId>& links,
                           std::vector<double>& weights) const = 0;
  // Whether every pair uses one route (every weight 1).
  virtual bool single_route() const = 0;
  // The minimal routes an adaptive routing chooses among as load changes; null for a routing whose
  // links are fixed in advance (append_links is then the whole story).
  virtual const MinimalPaths* adaptive_paths() const { return nullptr; }
  // Hops a packet takes from src_node to dst_node. Throws UnroutablePair.
  virtual int hop_count(int src_node, int dst_node) const = 0;
};

// A routing of `kind` over the failed links; `ordered` gives the deterministic kinds' routes (a machine's
// routing is core::make_routing(const MachineSpec&), machine/machine_spec.hpp).
std::unique_ptr<Routing> make_routing(RoutingKind kind, const OrderedRoutes& ordered,
                                      const std::vector<LinkId>& failed);

}  // namespace t3sim::core
