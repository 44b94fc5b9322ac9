#include "sim/core/adaptive_splits.hpp"

#include <algorithm>
#include <cmath>
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
    // Move 1/(m + 2) of the entry onto the widest route; a route beyond kMaxRoutes replaces the
    // least used one (whose share goes to the others in proportion).
    auto same = std::find_if(s.routes.begin(), s.routes.end(), [&](const Route& r) { return r.links == route_; });
    if (same == s.routes.end()) {
      if (static_cast<int>(s.routes.size()) == kMaxRoutes) {
        s.routes.erase(std::min_element(s.routes.begin(), s.routes.end(),
                                        [](const Route& x, const Route& y) { return x.fraction < y.fraction; }));
        normalise(s.routes);
      }
      s.routes.push_back({route_, 0.0});
      same = s.routes.end() - 1;
    }
    const double share = std::max(1.0 / (s.moves + 2), 2 * kMinFraction);  // never a sliver itself
    for (Route& r : s.routes) r.fraction *= 1 - share;
    same->fraction += share;
    // A route left with a sliver of the entry gives it to the others: it would couple the entry to
    // links it hardly loads (and fractions shrinking without end, down to 1e-36 in a test, made a
    // solver fill run for minutes).
    const auto sliver = [](const Route& r) { return r.fraction < kMinFraction; };
    if (std::any_of(s.routes.begin(), s.routes.end(), sliver)) {
      s.routes.erase(std::remove_if(s.routes.begin(), s.routes.end(), sliver), s.routes.end());
      normalise(s.routes);
    }
    ++s.moves;
    ++stats_.moves;
    ++moved;
    if (before_move) before_move(e);
    compose(s, path_, weights_);
    solver.reroute(e, path_, weights_);
  }
  return moved;
}

}  // namespace t3sim::core
