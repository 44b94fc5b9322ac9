// `t3sim route`: the links between two PEs under the machine's routing and under every other (or one,
// --routing), over the machine's failed links and --fail: a single route hop by hop, a multipath
// routing's links with the share of the flow on each, nearest the source first (minimal_adaptive: the
// route a flow alone takes; its shares follow the load only during a run). With --all: every pair of nodes.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <numeric>

#include "sim/cli/commands.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"

namespace t3sim::cli {
namespace {

std::string coord_text(const core::Coord& c) { return fmt::format("({},{},{})", c[0], c[1], c[2]); }

std::string node_text(const core::Torus& t, int node) {
  return fmt::format("node {} {}", node, coord_text(t.coord(node)));
}

void print_single_route(const core::MachineSpec& m, int a, int b) {
  const core::Torus torus = m.torus();
  const auto hops = m.ordered_routes().route(a, b);
  for (size_t i = 0; i < hops.size(); ++i)
    std::cout << fmt::format("  hop {:>3}: {:<10} {} -> {}\n", i + 1, core::Torus::link_name(hops[i].link),
                             node_text(torus, hops[i].from_node), node_text(torus, hops[i].to_node));
}

// The links of a multipath split, nearest the source first (then by id), with their shares.
void print_split(const core::MachineSpec& m, const core::Routing& routing, int a,
                 const std::vector<core::LinkId>& links, const std::vector<double>& weights) {
  const core::Torus torus = m.torus();
  std::vector<size_t> order(links.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> depth(links.size());
  for (size_t i = 0; i < links.size(); ++i) depth[i] = routing.hop_count(a, core::Torus::link_node(links[i]));
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return depth[x] < depth[y]; });
  for (size_t i : order) {
    const int from = core::Torus::link_node(links[i]);
    const int to = torus.neighbor(from, core::Torus::link_dim(links[i]), core::Torus::link_dir(links[i]));
    std::cout << fmt::format("  hop {:>3}: {:<10} share {:.4f}  {} -> {}\n", depth[i] + 1,
                             core::Torus::link_name(links[i]), weights[i], node_text(torus, from),
                             node_text(torus, to));
  }
}

}  // namespace

int cmd_route(const RouteArgs& a) {
  core::MachineSpec m = io::load_machine(a.machine);
  apply_params(m, a.run);
  for (int pe : {a.src, a.dst})
    if (pe < 0 || pe >= m.pe_count())
      throw io::InputError({a.machine, 0, 0}, "PE", "out of range 0.." + std::to_string(m.pe_count() - 1),
                           std::to_string(pe));
  const core::Torus torus = m.torus();
  const core::PeToNode place = m.placement();
  const int a_node = place.node_of(a.src), b_node = place.node_of(a.dst);
  std::cout << fmt::format("PE {} on {} -> PE {} on {}", a.src, node_text(torus, a_node), a.dst,
                           node_text(torus, b_node));
  if (!m.failed_links.empty()) {
    std::string names;
    for (core::LinkId l : m.failed_links) names += (names.empty() ? "" : " ") + core::Torus::link_name(l);
    std::cout << "; failed: " << names;
  }
  std::cout << "\n";
  const core::RoutingKind own = m.routing;
  std::vector<core::RoutingKind> kinds = {own};
  if (a.run.routing.empty())
    for (core::RoutingKind k : core::enum_values<core::RoutingKind>())
      if (k != own) kinds.push_back(k);
  int unroutable = 0;
  for (core::RoutingKind kind : kinds) {
    core::MachineSpec variant = m;
    variant.routing = kind;
    std::cout << fmt::format("{}{}:\n", core::enum_name(kind),
                             kind == own && a.run.routing.empty() ? " (the machine's)" : "");
    const auto routing = core::make_routing(variant);
    std::vector<core::LinkId> links;
    std::vector<double> weights;
    try {
      routing->append_links(a_node, b_node, links, weights);
    } catch (const core::UnroutablePair& e) {
      std::cout << "  " << e.what() << "\n";
      ++unroutable;
      continue;
    }
    if (routing->adaptive_paths() != nullptr)
      std::cout << "  shares follow the load during a run (up to 4 routes); alone on an idle torus:\n";
    if (routing->single_route())
      print_single_route(variant, a_node, b_node);
    else
      print_split(variant, *routing, a_node, links, weights);
    const core::CostModel cost(variant, *variant.find_profile(""));
    std::cout << fmt::format("  hops {}  links {}  latency {}  bottleneck {}\n", cost.hops(a.src, a.dst), links.size(),
                             core::format_quantity(cost.latency(a.src, a.dst), core::Quantity::Time),
                             core::format_quantity(cost.bottleneck(a.src, a.dst), core::Quantity::Bandwidth));
  }
  // Exit 2 when the routing asked for (or the machine's own) cannot route the pair.
  return unroutable > 0 && (kinds.size() == 1 || unroutable == static_cast<int>(kinds.size())) ? 2 : 0;
}

// `route --all`: every ordered pair of distinct torus nodes under one routing (the machine's, or
// --routing), over its failed links, in node order, one line each: SRC_NODE DST_NODE, then LINK:SHARE
// for each link, nearest the source first (then by id), each share to 6 significant digits; an
// unroutable pair reads SRC_NODE DST_NODE unroutable. Deterministic: golden files pin every route.
int cmd_route_all(const RouteArgs& a) {
  core::MachineSpec m = io::load_machine(a.machine);
  apply_params(m, a.run);
  const core::Torus torus = m.torus();
  const auto routing = core::make_routing(m);
  const core::Coord& dims = torus.dims();
  std::cout << fmt::format("# {}: torus {}x{}x{}, routing {}; per line SRC_NODE DST_NODE LINK:SHARE...\n", m.name,
                           dims[0], dims[1], dims[2], core::enum_name(m.routing));
  std::vector<core::LinkId> links;
  std::vector<double> weights;
  std::vector<size_t> order;
  std::vector<int> depth;
  std::string line;
  const int nodes = torus.node_count();
  for (int src = 0; src < nodes; ++src)
    for (int dst = 0; dst < nodes; ++dst) {
      if (src == dst) continue;
      line = fmt::format("{} {}", src, dst);
      links.clear();
      weights.clear();
      try {
        routing->append_links(src, dst, links, weights);
      } catch (const core::UnroutablePair&) {
        std::cout << line << " unroutable\n";
        continue;
      }
      order.resize(links.size());
      std::iota(order.begin(), order.end(), 0);
      if (!routing->single_route()) {  // a single route's links are in route order already
        depth.resize(links.size());
        for (size_t i = 0; i < links.size(); ++i) depth[i] = routing->hop_count(src, core::Torus::link_node(links[i]));
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return depth[x] < depth[y]; });
      }
      for (size_t i : order)
        fmt::format_to(std::back_inserter(line), " {}:{:.6g}", core::Torus::link_name(links[i]), weights[i]);
      std::cout << line << "\n";
    }
  return 0;
}

}  // namespace t3sim::cli
