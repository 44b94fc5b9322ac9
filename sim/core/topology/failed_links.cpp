#include "sim/core/topology/failed_links.hpp"

#include <algorithm>
#include <cctype>

namespace t3sim::core {

std::string parse_failed_link(const Torus& torus, const std::string& spec, std::vector<LinkId>& out) {
  const std::string forms =
      "must be nN (a router), nN.D (a cable, both ways) or nN.D+ / nN.D- (one way), D one of x, y, z";
  if (spec.size() < 2 || spec[0] != 'n' || !std::isdigit(static_cast<unsigned char>(spec[1]))) return forms;
  size_t i = 1;
  long node = 0;
  while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) {
    node = std::min<long>(node * 10 + (spec[i] - '0'), torus.node_count());  // no overflow on long digit runs
    ++i;
  }
  if (node >= torus.node_count())
    return "no router " + spec.substr(0, i) + ": the torus has nodes n0..n" + std::to_string(torus.node_count() - 1);
  const int n = static_cast<int>(node);
  if (i == spec.size()) {  // a router: every link out of it and into it
    for (int d = 0; d < 3; ++d) {
      if (!torus.has_links(d)) continue;
      for (Direction dir : {Direction::Plus, Direction::Minus}) {
        out.push_back(Torus::link_id(n, d, dir));
        const Direction back = dir == Direction::Plus ? Direction::Minus : Direction::Plus;
        out.push_back(Torus::link_id(torus.neighbor(n, d, dir), d, back));
      }
    }
    return "";
  }
  if (spec[i] != '.' || i + 1 >= spec.size()) return forms;
  const char dim_char = spec[i + 1];
  const int d = dim_char == 'x' ? 0 : dim_char == 'y' ? 1 : dim_char == 'z' ? 2 : -1;
  if (d < 0) return forms;
  if (!torus.has_links(d)) return std::string("the ring along ") + dim_char + " has one position: no link there";
  const std::string rest = spec.substr(i + 2);
  if (rest == "+" || rest == "-") {
    out.push_back(Torus::link_id(n, d, rest == "+" ? Direction::Plus : Direction::Minus));
    return "";
  }
  if (!rest.empty()) return forms;
  out.push_back(Torus::link_id(n, d, Direction::Plus));
  out.push_back(Torus::link_id(torus.neighbor(n, d, Direction::Plus), d, Direction::Minus));
  return "";
}

std::vector<bool> failed_link_mask(const Torus& torus, const std::vector<LinkId>& failed) {
  std::vector<bool> mask;
  if (failed.empty()) return mask;
  mask.assign(static_cast<size_t>(torus.link_id_bound()), false);
  for (LinkId l : failed) mask.at(static_cast<size_t>(l)) = true;
  return mask;
}

void normalise_links(std::vector<LinkId>& links) {
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
}

}  // namespace t3sim::core
