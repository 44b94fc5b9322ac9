#include "sim/core/flow/vc_holding.hpp"

#include <algorithm>
#include <cmath>

namespace t3sim::core {

VcHolding::VcHolding(int link_bound, int nodes, const Params& params) : link_bound_(link_bound), p_(params) {
  const size_t classes = static_cast<size_t>(link_bound) * 4 + static_cast<size_t>(nodes);
  bytes_.assign(classes, 0);
  port_.assign(classes, std::array<double, 7>{});
  users_.assign(classes, 0);
  hold_.assign(classes, p_.hold_cycles);
  wait_.assign(classes, 0);
  out_.resize(classes);
  in_.resize(classes);
  queued_.assign(classes, 0);
  link_bytes_.assign(static_cast<size_t>(link_bound), 0);
  link_users_.assign(static_cast<size_t>(link_bound), 0);
  capacity_.assign(static_cast<size_t>(link_bound), p_.link_bandwidth);
  link_marked_.assign(static_cast<size_t>(link_bound), 0);
  for (int n = 0; n < nodes; ++n) hold_[static_cast<size_t>(eject_cls(n))] = p_.packet_flits;
}

int VcHolding::slot(int from, int to) {
  for (const int s : out_[static_cast<size_t>(from)])
    if (slots_[static_cast<size_t>(s)].to == to) return s;
  const int s = static_cast<int>(slots_.size());
  slots_.push_back({from, to});
  out_[static_cast<size_t>(from)].push_back(s);
  in_[static_cast<size_t>(to)].push_back(s);
  return s;
}

void VcHolding::pairs_of(const std::vector<Hop>& hops, int network, int eject, std::vector<Share>& out) {
  // Where a flow's bytes wait next: for each consecutive pair of its hops, from each half of a hop to
  // each half of the next (a drawn half kept along its ring), the last hop to the ejection.
  for (size_t k = 0; k < hops.size(); ++k) {
    const Hop& h = hops[k];
    for (int half = 0; half < 2; ++half) {
      const double here = half == 1 ? h.upper : 1 - h.upper;
      if (!(here > 0)) continue;
      const int c = cls(h.link, network, half);
      if (k + 1 == hops.size()) {
        out.push_back({slot(c, eject), 0, here});
        continue;
      }
      const Hop& n = hops[k + 1];
      if (n.keeps_half) {
        out.push_back({slot(c, cls(n.link, network, half)), 0, here});
        continue;
      }
      if (n.upper < 1) out.push_back({slot(c, cls(n.link, network, 0)), 0, here * (1 - n.upper)});
      if (n.upper > 0) out.push_back({slot(c, cls(n.link, network, 1)), 0, here * n.upper});
    }
  }
}

void VcHolding::set_route(EntryId e, const std::vector<Hop>& hops, int eject_port, int eject_node, int network) {
  if (routes_.size() <= static_cast<size_t>(e)) routes_.resize(static_cast<size_t>(e) + 1);
  forget(e);  // an entry id reused: the old route's load goes first
  Route& r = routes_[static_cast<size_t>(e)];
  for (const Hop& h : hops) {
    r.links.push_back(h.link);
    if (h.upper < 1) r.classes.push_back({cls(h.link, network, 0), h.port, 1 - h.upper});
    if (h.upper > 0) r.classes.push_back({cls(h.link, network, 1), h.port, h.upper});
  }
  const int eject = eject_cls(eject_node);
  r.classes.push_back({eject, eject_port, 1.0});
  pairs_of(hops, network, eject, r.pairs);
}

void VcHolding::forget(EntryId e) {
  if (static_cast<size_t>(e) >= routes_.size()) return;
  set_load(e, 0);
  Route& r = routes_[static_cast<size_t>(e)];
  r.classes.clear();
  r.pairs.clear();
  r.links.clear();
}

void VcHolding::mark(int c) {
  if (queued_[static_cast<size_t>(c)]) return;
  queued_[static_cast<size_t>(c)] = 1;
  queue_.push_back(c);
}

void VcHolding::mark_link(int l) {
  if (link_marked_[static_cast<size_t>(l)]) return;
  link_marked_[static_cast<size_t>(l)] = 1;
  marked_links_.push_back(l);
}

void VcHolding::set_load(EntryId e, double bytes_per_s) {
  if (static_cast<size_t>(e) >= routes_.size()) return;  // no route: not a torus flow (a disk's)
  Route& r = routes_[static_cast<size_t>(e)];
  const double d = bytes_per_s - r.load;
  if (d == 0) return;
  // Users counted so a class, link or pair left by its last entry returns to exactly nothing.
  const int du = r.load == 0 ? 1 : bytes_per_s == 0 ? -1 : 0;
  r.load = bytes_per_s;
  for (const Share& s : r.classes) {
    const size_t c = static_cast<size_t>(s.index);
    users_[c] += du;
    if (users_[c] == 0) {
      bytes_[c] = 0;
      port_[c].fill(0);
    } else {
      bytes_[c] += d * s.fraction;
      port_[c][static_cast<size_t>(s.port)] += d * s.fraction;
    }
    mark(s.index);
  }
  for (const int l : r.links) {
    const size_t i = static_cast<size_t>(l);
    link_users_[i] += du;
    link_bytes_[i] = link_users_[i] == 0 ? 0 : link_bytes_[i] + d;
    mark_link(l);
  }
  for (const Share& s : r.pairs) {
    Slot& q = slots_[static_cast<size_t>(s.index)];
    q.users += du;
    q.bytes = q.users == 0 ? 0 : q.bytes + d * s.fraction;
    mark(q.from);
  }
}

double VcHolding::wait(int c) const {
  const size_t i = static_cast<size_t>(c);
  const double b = bytes_[i];
  if (!(b > 0)) return 0;
  double sum2 = 0;
  for (const double pb : port_[i]) sum2 += (pb / b) * (pb / b);
  const double ca2 = std::max(0.0, 1 - sum2);
  if (!(ca2 > 0)) return 0;
  const double servers = ejection(c) ? 1 : p_.vcs_per_class * p_.packets_per_vc;
  const double h = hold_[i] / servers;  // the class as one server of V times the rate
  const double rho = b * h / p_.packet_bytes_per_s;
  const double turn = h * (1 / (1 - ca2) - 0.5);  // behind every other port once (round-robin)
  if (rho >= 1) return turn;
  return std::min(turn, rho / (1 - rho) * ca2 / 2 * h);
}

const std::vector<int>& VcHolding::settle() {
  // The waits form the channel dependency graph, acyclic where the routing is deadlock-free (what a
  // dateline is for), so re-solving a class whenever a class after it moved ends; the cap guards a
  // routing whose graph is not.
  const size_t cap = 64 * (queue_.size() + 1024);
  for (size_t k = 0; k < queue_.size(); ++k) {
    const int c = queue_[k];
    const size_t i = static_cast<size_t>(c);
    queued_[i] = 0;
    ++resolves_;
    if (!ejection(c)) {
      mark_link(c / 4);
      if (bytes_[i] > 0) {
        double acc = 0;
        for (const int s : out_[i]) {
          const Slot& q = slots_[static_cast<size_t>(s)];
          if (q.bytes > 0) acc += q.bytes * wait_[static_cast<size_t>(q.to)];
        }
        hold_[i] = p_.hold_cycles + acc / bytes_[i];
      } else {
        hold_[i] = p_.hold_cycles;
      }
    }
    const double w = wait(c);
    const bool moved = std::abs(w - wait_[i]) > p_.tolerance * hold_[i];
    wait_[i] = w;
    if (!moved || k >= cap) continue;
    for (const int s : in_[i])
      if (slots_[static_cast<size_t>(s)].bytes > 0) mark(slots_[static_cast<size_t>(s)].from);
  }
  for (const int c : queue_) queued_[static_cast<size_t>(c)] = 0;  // (only where the cap stopped it)
  queue_.clear();
  changed_links_.clear();
  for (const int l : marked_links_) {
    link_marked_[static_cast<size_t>(l)] = 0;
    // The binding class saturates first; the link's other traffic keeps its proportion to it.
    double cap_l = p_.link_bandwidth;
    const double lb = link_bytes_[static_cast<size_t>(l)];
    for (int k = 0; k < 4 && lb > 0; ++k) {
      const size_t i = static_cast<size_t>(l * 4 + k);
      if (!(bytes_[i] > 0)) continue;
      const double class_cap = p_.vcs_per_class * p_.packets_per_vc * p_.packet_bytes_per_s / hold_[i];
      cap_l = std::min(cap_l, class_cap * lb / bytes_[i]);
    }
    if (cap_l == capacity_[static_cast<size_t>(l)]) continue;
    capacity_[static_cast<size_t>(l)] = cap_l;
    changed_links_.push_back(l);
  }
  marked_links_.clear();
  return changed_links_;
}

}  // namespace t3sim::core
