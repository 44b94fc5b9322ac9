// For the flow solver's tests: a torus machine as solver resources the way t3sim's platform has links
// (an injection and an ejection resource per node, one per directed torus link) and its routes as
// paths (injection, dimension-order hops, ejection), independent of core::NetworkResources so the
// tests do not check the solver with the code they are meant to drive.
#pragma once
#include <functional>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/routing/ordered_routes.hpp"

namespace t3sim::testing_support {

enum class ResourceKind { Inject, Eject, Link };

class TorusFlowSystem {
 public:
  // capacity(kind) gives each new resource its bytes/s, in resource creation order.
  TorusFlowSystem(core::FlowSolver& solver, core::Coord dims, int pes_per_node, core::Coord order, core::TieRule tie,
                  const std::function<double(ResourceKind)>& capacity)
      : router_(core::Torus(dims), order, tie), pes_per_node_(pes_per_node) {
    const core::Torus& torus = router_.torus();
    for (int n = 0; n < torus.node_count(); ++n) {
      inject_.push_back(solver.add_resource(capacity(ResourceKind::Inject)));
      eject_.push_back(solver.add_resource(capacity(ResourceKind::Eject)));
    }
    link_.assign(static_cast<size_t>(torus.link_id_bound()), -1);
    for (int n = 0; n < torus.node_count(); ++n)
      for (int dim = 0; dim < 3; ++dim)
        for (core::Direction dir : {core::Direction::Plus, core::Direction::Minus})
          if (torus.has_links(dim))
            link_[static_cast<size_t>(core::Torus::link_id(n, dim, dir))] =
                solver.add_resource(capacity(ResourceKind::Link));
  }

  int pe_count() const { return router_.torus().node_count() * pes_per_node_; }
  int node_of(int pe) const { return pe / pes_per_node_; }

  std::vector<core::ResourceId> path(int src_pe, int dst_pe) const {
    const int src = node_of(src_pe), dst = node_of(dst_pe);
    std::vector<core::ResourceId> p{inject_[static_cast<size_t>(src)]};
    for (const core::Hop& h : router_.route(src, dst)) p.push_back(link_[static_cast<size_t>(h.link)]);
    p.push_back(eject_[static_cast<size_t>(dst)]);
    return p;
  }

 private:
  core::OrderedRoutes router_;
  int pes_per_node_;
  std::vector<core::ResourceId> inject_, eject_, link_;
};

}  // namespace t3sim::testing_support
