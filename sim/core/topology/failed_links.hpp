// Failed links as users name them (torus.failed_links in a machine file, `--fail` on the command line),
// read into directed link ids:
//   nN.D+ / nN.D-   one direction of a link: the one leaving node N along D (x, y or z), as `route`
//                   prints it
//   nN.D            the cable from node N to its + neighbour along D, both directions
//   nN              router N: every link leaving or entering it
#pragma once
#include <string>
#include <vector>

#include "sim/core/topology/torus.hpp"

namespace t3sim::core {

// Appends the links `spec` names to `out`; returns "" or what is wrong with it (no torus position, no
// link along a ring of one position, not of the forms above).
std::string parse_failed_link(const Torus& torus, const std::string& spec, std::vector<LinkId>& out);

// A flag per link id of `torus`, true for the failed ones; empty when none failed (the common case: a
// routing then checks nothing).
std::vector<bool> failed_link_mask(const Torus& torus, const std::vector<LinkId>& failed);

// Sorts and removes duplicates.
void normalise_links(std::vector<LinkId>& links);

}  // namespace t3sim::core
