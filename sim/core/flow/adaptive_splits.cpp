#include "sim/core/flow/adaptive_splits.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace t3sim::core {

AdaptiveSplits::AdaptiveSplits(const MinimalPaths& paths, ResourceId link_offset, int link_bound, int max_moves)
    : paths_(paths), link_offset_(link_offset), link_bound_(link_bound), max_moves_(max_moves) {}

void AdaptiveSplits::compose(const EntryState& s, std::vector<ResourceId>& path, std::vector<double>& weights) {
  // (resource, weight) of the base and of every route's links, sorted; routes sharing a link add up.
  auto& all = compose_scratch_;
  all.clear();
  for (ResourceId r : s.base) all.emplace_back(r, 1.0);
  for (const Route& route : s.routes)
    for (LinkId l : route.links) all.emplace_back(link_offset_ + l, route.fraction);
  std::sort(all.begin(), all.end());
  path.clear();
  weights.clear();
  for (const auto& [r, w] : all) {
    if (!path.empty() && path.back() == r) {
      weights.back() += w;
    } else {
      path.push_back(r);
      weights.push_back(w);
    }
  }
}

void AdaptiveSplits::normalise(std::vector<Route>& routes) {
  double sum = 0;
  for (const Route& r : routes) sum += r.fraction;
  for (Route& r : routes) r.fraction /= sum;
}

double AdaptiveSplits::slack(const FlowSolver& solver, EntryId e, LinkId l) const {
  const ResourceId r = link_offset_ + l;
  const double spare = (solver.capacity(r) - solver.load(r)) / solver.multiplicity(e);
  return std::max(spare, solver.fastest(r) - solver.rate(e)) / (1 + pending(l));
}

bool AdaptiveSplits::held_by_link(const FlowSolver& solver, EntryId e) const {
  const int b = solver.bottleneck(e);
  return b >= link_offset_ && b < link_offset_ + link_bound_;
}

EntryId AdaptiveSplits::add_flow(FlowSolver& solver, uint64_t key, int src_node, int dst_node,
                                 const std::vector<ResourceId>& base) {
  const auto found = by_key_.find(key);
  if (found != by_key_.end()) {
    solver.join(found->second);
    return found->second;
  }
  EntryState s;
  s.key = key;
  s.src_node = src_node;
  s.dst_node = dst_node;
  s.base = base;
  route_.clear();
  if (src_node != dst_node) {
    // Nothing of the new entry is on the network yet: a link offers what its users leave, or the
    // fastest user's rate if more, shared with the entries routed over it since the last solve
    // (their rates are not known yet).
    const auto offer = [&](LinkId l) {
      const ResourceId r = link_offset_ + l;
      return std::max(std::max(0.0, solver.capacity(r) - solver.load(r)), solver.fastest(r)) / (1 + pending(l));
    };
    if (paths_.widest_route(src_node, dst_node, offer, route_) < 0) return -1;
    add_pending(route_);
    s.routes.push_back({route_, 1.0});
  }
  compose(s, path_, weights_);
  const EntryId e = solver.add_flow(path_, weights_, FlowSolver::kNoCap);
  if (solver.multiplicity(e) > 1) return e;  // another key's entry of the very same resources
  if (state_.size() <= static_cast<size_t>(e)) state_.resize(static_cast<size_t>(e) + 1);
  state_[static_cast<size_t>(e)] = std::move(s);
  by_key_[key] = e;
  return e;
}

void AdaptiveSplits::add_pending(const std::vector<LinkId>& route) {
  for (LinkId l : route) {
    if (pending_.size() <= static_cast<size_t>(l)) pending_.resize(static_cast<size_t>(l) + 1, 0);
    if (pending_[static_cast<size_t>(l)]++ == 0) pending_links_.push_back(l);
  }
}

int AdaptiveSplits::pending(LinkId l) const {
  return static_cast<size_t>(l) < pending_.size() ? pending_[static_cast<size_t>(l)] : 0;
}

void AdaptiveSplits::solved() {
  for (LinkId l : pending_links_) pending_[static_cast<size_t>(l)] = 0;
  pending_links_.clear();
}

void AdaptiveSplits::forget(EntryId e) {
  if (static_cast<size_t>(e) >= state_.size()) return;
  EntryState& s = state_[static_cast<size_t>(e)];
  const auto it = by_key_.find(s.key);
  if (it != by_key_.end() && it->second == e) by_key_.erase(it);
  s = EntryState{};
}

int AdaptiveSplits::rebalance(FlowSolver& solver, const std::vector<EntryId>& candidates,
                              const std::function<void(EntryId)>& before_move) {
  int moved = 0;
  for (EntryId e : candidates) {
    if (!solver.alive(e) || static_cast<size_t>(e) >= state_.size()) continue;
    EntryState& s = state_[static_cast<size_t>(e)];
    if (s.routes.empty() || s.moves >= max_moves_) continue;
    ++stats_.examined;
    if (!held_by_link(solver, e)) continue;
    const double rate = solver.rate(e);
    route_.clear();
    paths_.widest_route(
        s.src_node, s.dst_node, [&](LinkId l) { return slack(solver, e, l); }, route_);
    double widest = INFINITY;
    for (LinkId l : route_) widest = std::min(widest, slack(solver, e, l));
    if (!(widest > rate * kGain)) continue;
    // How much moves: the method of successive averages, but no more than half the slack (moving
    // more would saturate the route it joins and take from its users what the entry gains; half, as
    // the entry's rate rises as it moves), nor more than what its held routes carry.
    double share = std::min(std::max(1.0 / (s.moves + 2), 2 * kMinFraction), 0.5 * widest / rate);
    if (share < 2 * kMinFraction) continue;  // too little to move: as good as the fixed point
    // The routes that cross a link holding the entry: load elsewhere costs it nothing.
    held_.assign(s.routes.size(), 0);
    double held = 0;
    for (size_t i = 0; i < s.routes.size(); ++i) {
      for (LinkId l : s.routes[i].links) {
        const ResourceId r = link_offset_ + l;
        if (solver.load(r) >= solver.capacity(r) * (1 - kHeldTolerance) &&
            rate >= solver.fastest(r) * (1 - kHeldTolerance)) {
          held_[i] = 1;
          break;
        }
      }
      if (held_[i]) held += s.routes[i].fraction;
    }
    if (!(held >= 2 * kMinFraction)) continue;
    share = std::min(share, held);
    // A route beyond kMaxRoutes replaces the least used one, whose share goes to the others in
    // proportion.
    auto same = std::find_if(s.routes.begin(), s.routes.end(), [&](const Route& r) { return r.links == route_; });
    if (same == s.routes.end()) {
      if (static_cast<int>(s.routes.size()) == kMaxRoutes) {
        size_t least = 0;
        for (size_t i = 1; i < s.routes.size(); ++i)
          if (s.routes[i].fraction < s.routes[least].fraction) least = i;
        const double gone = s.routes[least].fraction;
        if (held_[least]) held -= gone;
        s.routes.erase(s.routes.begin() + static_cast<std::ptrdiff_t>(least));
        held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(least));
        normalise(s.routes);
        held /= 1 - gone;
        share = std::min(share, held);
      }
      s.routes.push_back({route_, 0.0});
      held_.push_back(0);
      same = s.routes.end() - 1;
    }
    if (held > 0) {
      for (size_t i = 0; i < s.routes.size(); ++i)
        if (held_[i]) s.routes[i].fraction -= share * s.routes[i].fraction / held;
      same->fraction += share;
    }
    // A route left with a sliver of the entry gives it to the others: it would couple the entry to
    // links it hardly loads (and fractions shrinking without end, down to 1e-36 in a test, made a
    // solver fill run for minutes).
    const auto sliver = [](const Route& r) { return r.fraction < kMinFraction; };
    s.routes.erase(std::remove_if(s.routes.begin(), s.routes.end(), sliver), s.routes.end());
    normalise(s.routes);
    add_pending(route_);  // the entries examined after it in this round share the slack it takes
    ++s.moves;
    ++stats_.moves;
    ++moved;
    if (before_move) before_move(e);
    compose(s, path_, weights_);
    solver.reroute(e, path_, weights_);
  }
  return moved;
}

int AdaptiveSplits::refill(FlowSolver& solver, const std::function<void(EntryId)>& before_move) {
  ++stats_.refills;
  const int resources = solver.resource_count();
  residual_.assign(static_cast<size_t>(resources), 0);
  double slowest = INFINITY;
  for (ResourceId r = 0; r < resources; ++r) {
    residual_[static_cast<size_t>(r)] = solver.capacity(r);
    if (r >= link_offset_ && r < link_offset_ + link_bound_) slowest = std::min(slowest, solver.capacity(r));
  }
  const double step = slowest / kFillSteps;
  // The entries filled again (those of this class); any other live entry keeps its load.
  struct Fill {
    EntryId e;
    double need;                // multiplicity x step: what one step takes from each resource
    std::vector<Route> routes;  // fraction: the per-flow rate given to the route so far
  };
  std::vector<Fill> fills;
  for (EntryId e = 0; e < solver.entry_bound(); ++e) {
    if (!solver.alive(e)) continue;
    if (static_cast<size_t>(e) < state_.size() && state_[static_cast<size_t>(e)].src_node >= 0) {
      fills.push_back({e, solver.multiplicity(e) * step, {}});
      continue;
    }
    const std::vector<ResourceId>& path = solver.path(e);
    for (size_t i = 0; i < path.size(); ++i)
      residual_[static_cast<size_t>(path[i])] -= solver.multiplicity(e) * solver.weight(e, i) * solver.rate(e);
  }
  const auto left = [&](LinkId l) { return residual_[static_cast<size_t>(link_offset_ + l)]; };
  const auto width = [&](const std::vector<LinkId>& links) {
    double w = INFINITY;
    for (LinkId l : links) w = std::min(w, left(l));
    return w;
  };
  // Steps in sweeps over the entries in id order: every entry still growing takes one step a sweep.
  std::vector<size_t> growing(fills.size());
  for (size_t i = 0; i < fills.size(); ++i) growing[i] = i;
  while (!growing.empty()) {
    size_t kept = 0;
    for (size_t i : growing) {
      Fill& f = fills[i];
      const EntryState& s = state_[static_cast<size_t>(f.e)];
      bool room = true;
      for (ResourceId r : s.base) room = room && residual_[static_cast<size_t>(r)] >= f.need;
      Route* onto = nullptr;
      if (room && s.src_node != s.dst_node) {
        route_.clear();
        paths_.widest_route(s.src_node, s.dst_node, residual_.data() + link_offset_, route_);
        double w = width(route_);
        auto same = std::find_if(f.routes.begin(), f.routes.end(), [&](const Route& r) { return r.links == route_; });
        if (same == f.routes.end() && static_cast<int>(f.routes.size()) >= kFillRoutes) {
          w = -1;  // no more routes: the widest of its own
          for (auto it = f.routes.begin(); it != f.routes.end(); ++it)
            if (width(it->links) > w) {
              w = width(it->links);
              same = it;
            }
        }
        if (w >= f.need) {
          if (same == f.routes.end()) {
            f.routes.push_back({route_, 0.0});
            same = f.routes.end() - 1;
          }
          onto = &*same;
        } else {
          room = false;
        }
      }
      if (!room) continue;  // full: it grows no more
      for (ResourceId r : s.base) residual_[static_cast<size_t>(r)] -= f.need;
      if (onto != nullptr) {
        for (LinkId l : onto->links) residual_[static_cast<size_t>(link_offset_ + l)] -= f.need;
        onto->fraction += step;
      }
      growing[kept++] = i;
    }
    growing.resize(kept);
  }
  int rerouted = 0;
  for (Fill& f : fills) {
    EntryState& s = state_[static_cast<size_t>(f.e)];
    s.moves = 0;
    if (f.routes.empty()) continue;  // to itself, or blocked from its first step: as it is
    std::stable_sort(f.routes.begin(), f.routes.end(),
                     [](const Route& a, const Route& b) { return a.fraction > b.fraction; });
    if (static_cast<int>(f.routes.size()) > kMaxRoutes) f.routes.resize(kMaxRoutes);
    normalise(f.routes);
    const auto sliver = [](const Route& r) { return r.fraction < kMinFraction; };
    f.routes.erase(std::remove_if(f.routes.begin(), f.routes.end(), sliver), f.routes.end());
    normalise(f.routes);
    bool same = f.routes.size() == s.routes.size();
    for (size_t i = 0; same && i < f.routes.size(); ++i)
      same = f.routes[i].links == s.routes[i].links && f.routes[i].fraction == s.routes[i].fraction;
    if (same) continue;
    s.routes = std::move(f.routes);
    ++rerouted;
    if (before_move) before_move(f.e);
    compose(s, path_, weights_);
    solver.reroute(f.e, path_, weights_);
  }
  return rerouted;
}

}  // namespace t3sim::core
