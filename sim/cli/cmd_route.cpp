#include <fmt/format.h>

#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/core/cost_model.hpp"
#include "sim/core/units.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/machine_loader.hpp"

namespace t3sim::cli {
namespace {

std::string coord_text(const core::Coord& c) { return fmt::format("({},{},{})", c[0], c[1], c[2]); }

}  // namespace

int cmd_route(const std::string& machine_path, int src_pe, int dst_pe) {
  const core::MachineSpec m = io::load_machine(machine_path);
  for (int pe : {src_pe, dst_pe})
    if (pe < 0 || pe >= m.pe_count())
      throw io::InputError({machine_path, 0, 0}, "PE", "out of range 0.." + std::to_string(m.pe_count() - 1),
                           std::to_string(pe));
  const core::Torus torus = m.torus();
  const core::Router router = m.router();
  const core::Placement place = m.placement();
  const int a = place.node_of(src_pe), b = place.node_of(dst_pe);
  std::cout << fmt::format("PE {} on node {} {} -> PE {} on node {} {}\n", src_pe, a, coord_text(torus.coord(a)),
                           dst_pe, b, coord_text(torus.coord(b)));
  const auto hops = router.route(a, b);
  for (size_t i = 0; i < hops.size(); ++i)
    std::cout << fmt::format("  hop {:>3}: {:<10} node {} {} -> node {} {}\n", i + 1,
                             core::Torus::link_name(hops[i].link), hops[i].from_node,
                             coord_text(torus.coord(hops[i].from_node)), hops[i].to_node,
                             coord_text(torus.coord(hops[i].to_node)));
  const core::CostModel cost(m, *m.find_profile(""));
  std::cout << fmt::format("hops {}  latency {}  bottleneck {}\n", hops.size(),
                           core::format_quantity(cost.latency(src_pe, dst_pe), core::Quantity::Time),
                           core::format_quantity(cost.bottleneck(src_pe, dst_pe), core::Quantity::Bandwidth));
  return 0;
}

}  // namespace t3sim::cli
