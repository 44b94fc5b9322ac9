#include "sim/core/routing/routing.hpp"

#include <string>

#include "sim/core/routing/minimal_paths.hpp"
#include "sim/core/topology/failed_links.hpp"

namespace t3sim::core {
namespace {

std::string node_text(const Torus& torus, int node) {
  const Coord c = torus.coord(node);
  return "node " + std::to_string(node) + " (" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," +
         std::to_string(c[2]) + ")";
}

// One route per pair (dimension or direction order); a route that crosses a failed link is refused.
class DeterministicRouting : public Routing {
 public:
  DeterministicRouting(OrderedRoutes router, RoutingKind kind, const std::vector<LinkId>& failed)
      : router_(std::move(router)), kind_(kind), failed_(failed_link_mask(router_.torus(), failed)) {}

  int append_links(int src_node, int dst_node, std::vector<LinkId>& links,
                   std::vector<double>& weights) const override {
    int hops = 0;
    router_.for_each_hop(src_node, dst_node, [&](const Hop& h) {
      check(src_node, dst_node, h.link);
      links.push_back(h.link);
      weights.push_back(1.0);
      ++hops;
    });
    return hops;
  }
  bool single_route() const override { return true; }
  int hop_count(int src_node, int dst_node) const override {
    if (!failed_.empty())
      router_.for_each_hop(src_node, dst_node, [&](const Hop& h) { check(src_node, dst_node, h.link); });
    return router_.hop_count(src_node, dst_node);
  }

 private:
  void check(int src_node, int dst_node, LinkId link) const {
    if (failed_.empty() || !failed_[static_cast<size_t>(link)]) return;
    const Torus& t = router_.torus();
    throw UnroutablePair(src_node, dst_node, link,
                         "no route from " + node_text(t, src_node) + " to " + node_text(t, dst_node) + " under " +
                             enum_name(kind_) + ": its route crosses failed link " + Torus::link_name(link) +
                             " (minimal_oblivious routes around failed links)");
  }

  OrderedRoutes router_;
  RoutingKind kind_;
  std::vector<bool> failed_;  // by link id; empty when none failed
};

// The minimal routings: shortest working routes, spread evenly (oblivious) or by load (adaptive).
class MinimalRouting : public Routing {
 public:
  MinimalRouting(const Torus& torus, const std::vector<LinkId>& failed, bool adaptive)
      : paths_(torus, failed), torus_(torus), adaptive_(adaptive) {}

  int append_links(int src_node, int dst_node, std::vector<LinkId>& links,
                   std::vector<double>& weights) const override {
    int hops;
    if (adaptive_) {  // alone on the network: the widest route of an idle torus
      const size_t start = links.size();
      hops = paths_.widest_route(
          src_node, dst_node, [](LinkId) { return 1.0; }, links);
      weights.resize(weights.size() + (links.size() - start), 1.0);
    } else {
      hops = paths_.split(src_node, dst_node, links, weights);
    }
    if (hops < 0) cut_off(src_node, dst_node);
    return hops;
  }
  bool single_route() const override { return false; }
  int hop_count(int src_node, int dst_node) const override {
    const int hops = paths_.hops(src_node, dst_node);
    if (hops < 0) cut_off(src_node, dst_node);
    return hops;
  }
  const MinimalPaths* adaptive_paths() const override { return adaptive_ ? &paths_ : nullptr; }

 private:
  [[noreturn]] void cut_off(int src_node, int dst_node) const {
    throw UnroutablePair(src_node, dst_node, -1,
                         "no route from " + node_text(torus_, src_node) + " to " + node_text(torus_, dst_node) +
                             ": the failed links cut it off");
  }

  MinimalPaths paths_;
  Torus torus_;
  bool adaptive_;
};

}  // namespace

std::unique_ptr<Routing> make_routing(RoutingKind kind, const OrderedRoutes& ordered,
                                      const std::vector<LinkId>& failed) {
  switch (kind) {
    case RoutingKind::DimensionOrder:
    case RoutingKind::DirectionOrder:
      return std::make_unique<DeterministicRouting>(ordered, kind, failed);
    case RoutingKind::MinimalOblivious:
    case RoutingKind::MinimalAdaptive:
      break;
  }
  return std::make_unique<MinimalRouting>(ordered.torus(), failed, kind == RoutingKind::MinimalAdaptive);
}

UnroutablePair with_pes(const UnroutablePair& e, int src_pe, int dst_pe) {
  return UnroutablePair(e.src_node(), e.dst_node(), e.link(),
                        "PE " + std::to_string(src_pe) + " -> PE " + std::to_string(dst_pe) + ": " + e.what());
}

}  // namespace t3sim::core
