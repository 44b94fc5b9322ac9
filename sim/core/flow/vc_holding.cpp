#include "sim/core/flow/vc_holding.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace t3sim::core {

VcHolding::VcHolding(int link_bound, int nodes, const Params& params) : link_bound_(link_bound), p_(params) {
  const size_t classes = static_cast<size_t>(link_bound) * 4 + static_cast<size_t>(nodes);
  bytes_.assign(classes, 0);
  port_.assign(classes, std::array<double, 7>{});
  ca2_.assign(classes, 0);
  hold_.assign(classes, p_.hold_cycles);
  wait_.assign(classes, 0);
  acc_.assign(classes, 0);
  link_bytes_.assign(static_cast<size_t>(link_bound), 0);
  capacity_.assign(static_cast<size_t>(link_bound), p_.link_bandwidth);
  for (int n = 0; n < nodes; ++n) hold_[static_cast<size_t>(eject_cls(n))] = p_.packet_flits;
}

void VcHolding::set_route(EntryId e, std::vector<Hop> hops, int eject_port, int eject_node, int network) {
  if (routes_.size() <= static_cast<size_t>(e)) routes_.resize(static_cast<size_t>(e) + 1);
  Route& r = routes_[static_cast<size_t>(e)];
  r.hops = std::move(hops);
  r.eject_port = eject_port;
  r.eject_node = eject_node;
  r.network = network;
}

double VcHolding::wait(int c) const {
  const size_t i = static_cast<size_t>(c);
  const double b = bytes_[i];
  if (!(b > 0)) return 0;
  const bool ejection = c >= link_bound_ * 4;
  const double servers = ejection ? 1 : p_.vcs_per_class;
  const double h = hold_[i] / servers;  // the class as one server of V times the rate
  const double ca2 = ca2_[i];
  if (!(ca2 > 0)) return 0;
  const double rho = b * h / p_.packet_bytes_per_s;
  const double turn = h * (1 / (1 - ca2) - 0.5);  // behind every other port once (round-robin)
  if (rho >= 1) return turn;
  return std::min(turn, rho / (1 - rho) * ca2 / 2 * h);
}

void VcHolding::add_pairs(const Route& r, double b) {
  for (size_t k = 0; k < r.hops.size(); ++k) {
    const Hop& h = r.hops[k];
    for (int half = 0; half < 2; ++half) {
      const double here = half == 1 ? h.upper : 1 - h.upper;
      if (!(here > 0)) continue;
      const int c = cls(h.link, r.network, half);
      if (k + 1 == r.hops.size()) {
        pairs_.push_back({c, eject_cls(r.eject_node), b * here});
        continue;
      }
      const Hop& n = r.hops[k + 1];
      if (n.upper < 1) pairs_.push_back({c, cls(n.link, r.network, 0), b * here * (1 - n.upper)});
      if (n.upper > 0) pairs_.push_back({c, cls(n.link, r.network, 1), b * here * n.upper});
    }
  }
}

const std::vector<double>& VcHolding::capacities(const FlowSolver& solver) {
  for (int c : used_) {
    bytes_[static_cast<size_t>(c)] = 0;
    port_[static_cast<size_t>(c)].fill(0);
  }
  used_.clear();
  // The links of the last update start again from nothing (only those: a machine has thousands).
  for (int l : links_) {
    link_bytes_[static_cast<size_t>(l)] = 0;
    capacity_[static_cast<size_t>(l)] = p_.link_bandwidth;
  }
  changed_links_ = links_;
  links_.clear();
  const auto load = [&](int c, int port, double b) {
    const size_t i = static_cast<size_t>(c);
    if (bytes_[i] == 0) used_.push_back(c);  // (every load is > 0)
    bytes_[i] += b;
    port_[i][static_cast<size_t>(port)] += b;
  };
  pairs_.clear();
  const int entries = std::min(solver.entry_bound(), static_cast<int>(routes_.size()));
  for (EntryId e = 0; e < entries; ++e) {
    if (!solver.alive(e)) continue;
    const Route& r = routes_[static_cast<size_t>(e)];
    if (r.eject_node < 0) continue;
    const double b = solver.rate(e) * solver.multiplicity(e);
    if (!(b > 0)) continue;
    for (const Hop& h : r.hops) {
      if (link_bytes_[static_cast<size_t>(h.link)] == 0) links_.push_back(h.link);
      link_bytes_[static_cast<size_t>(h.link)] += b;
      if (h.upper < 1) load(cls(h.link, r.network, 0), h.port, b * (1 - h.upper));
      if (h.upper > 0) load(cls(h.link, r.network, 1), h.port, b * h.upper);
    }
    load(eject_cls(r.eject_node), r.eject_port, b);
    add_pairs(r, b);
  }
  std::sort(used_.begin(), used_.end());
  for (int c : used_) {
    const size_t i = static_cast<size_t>(c);
    double sum2 = 0;
    for (double pb : port_[i]) sum2 += (pb / bytes_[i]) * (pb / bytes_[i]);
    ca2_[i] = std::max(0.0, 1 - sum2);
  }
  // The holding times' fixed point: damped Jacobi rounds from the last update's values.
  for (int round = 0; round < p_.iterations; ++round) {
    for (int c : used_) {
      wait_[static_cast<size_t>(c)] = wait(c);
      acc_[static_cast<size_t>(c)] = 0;
    }
    for (const Pair& q : pairs_) acc_[static_cast<size_t>(q.from)] += q.bytes * wait_[static_cast<size_t>(q.to)];
    double moved = 0;
    for (int c : used_) {
      if (c >= link_bound_ * 4) continue;  // an ejection's service is its packet's flits
      const size_t i = static_cast<size_t>(c);
      const double target = p_.hold_cycles + acc_[i] / bytes_[i];
      const double h = 0.5 * hold_[i] + 0.5 * target;
      moved = std::max(moved, std::abs(h - hold_[i]) / hold_[i]);
      hold_[i] = h;
    }
    if (moved < 1e-4) break;
  }
  for (int c : used_) {
    if (c >= link_bound_ * 4) continue;
    const size_t i = static_cast<size_t>(c);
    const size_t l = static_cast<size_t>(c / 4);
    const double class_cap = p_.vcs_per_class * p_.packet_bytes_per_s / hold_[i];
    capacity_[l] = std::min(capacity_[l], class_cap * link_bytes_[l] / bytes_[i]);
  }
  // The links whose capacity may have moved: those with traffic now or at the last update.
  changed_links_.insert(changed_links_.end(), links_.begin(), links_.end());
  std::sort(changed_links_.begin(), changed_links_.end());
  changed_links_.erase(std::unique(changed_links_.begin(), changed_links_.end()), changed_links_.end());
  return capacity_;
}

}  // namespace t3sim::core
