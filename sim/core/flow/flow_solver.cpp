#include "sim/core/flow/flow_solver.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

namespace t3sim::core {
namespace {

constexpr double kTol = FlowSolver::kRelativeTolerance;
constexpr int kAtCap = -1;  // bottleneck_ of an entry held by its cap (or with no path)
// A fill scans its candidate bottlenecks once per level while that is cheap; a fill of many
// resources that goes on for many levels moves them into a heap (measured: a scan per level is
// faster than a heap up to thousands of resources when levels are few, as they are in symmetric
// traffic).
constexpr size_t kLinearFillResources = 256;
constexpr int kLinearFillLevels = 128;

}  // namespace

// Why the incremental solve equals a full one. The max-min fair allocation with per-flow caps is
// unique, and a feasible allocation is it exactly when every entry is either at its cap or crosses a
// saturated resource on which no entry is faster (the bottleneck condition). Before a change every
// entry meets it. A change touches only the resources of the changed entries (set S), so only
// entries crossing S can lose their condition directly. solve() refills the entries crossing S (set
// F) on the capacity the others leave, which keeps every resource feasible and gives F's entries
// their best rates given the others. That can break the condition only of entries sharing a
// resource with F (their bottleneck may have gained slack or a faster user): those, and F itself,
// are checked. Any entry that fails adds its resources to S and the round repeats with a larger F.
// When no check fails, the condition holds for every entry: the allocation is the max-min one. S only
// grows, so this ends, at worst when F is a whole connected component, which is a full solve of it.

size_t FlowSolver::path_hash(const std::vector<ResourceId>& path, double given_cap) {
  size_t h = std::hash<double>()(given_cap);
  for (ResourceId r : path) h = (h ^ static_cast<size_t>(r)) * 0x100000001b3ull;
  return h;
}

EntryId FlowSolver::find_entry(const std::vector<ResourceId>& path, const std::vector<double>& weights, double cap,
                               double share, size_t hash) const {
  auto [first, last] = by_path_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    const Entry& en = entries_[static_cast<size_t>(it->second)];
    if (en.cap == cap && en.share == share && en.path == path && en.weight == weights) return it->second;
  }
  return -1;
}

ResourceId FlowSolver::add_resource(double capacity) {
  if (!(capacity > 0) || !std::isfinite(capacity))
    throw std::invalid_argument("FlowSolver: a resource's capacity must be positive and finite (got " +
                                std::to_string(capacity) + ")");
  capacity_.push_back(capacity);
  base_capacity_.push_back(capacity);
  crowding_.push_back(0);
  users_.emplace_back();
  user_weight_.emplace_back();
  dependents_.emplace_back();
  scratch_.resize(capacity_.size());
  fill_state_.resize(capacity_.size());
  committed_.resize(capacity_.size());
  return static_cast<ResourceId>(capacity_.size() - 1);
}

void FlowSolver::set_crowding(ResourceId r, double loss) {
  if (r < 0 || r >= resource_count()) throw std::out_of_range("FlowSolver: no resource " + std::to_string(r));
  if (!(loss >= 0) || !std::isfinite(loss))
    throw std::invalid_argument("FlowSolver: a crowding loss must be >= 0 and finite (got " + std::to_string(loss) +
                                ")");
  crowding_[static_cast<size_t>(r)] = loss;
  any_crowding_ = any_crowding_ || loss > 0;
  apply_crowding(r);
  mark_resource_dirty(r);  // its users are re-solved on the new capacity
}

void FlowSolver::mark_resource_dirty(ResourceId r) {
  Scratch& s = scratch_[static_cast<size_t>(r)];
  if (s.dirty) return;
  s.dirty = true;
  dirty_resources_.push_back(r);
}

void FlowSolver::set_crowd_key(EntryId e, int key) {
  if (e < 0 || e >= entry_bound() || !alive(e)) throw std::out_of_range("FlowSolver: no entry " + std::to_string(e));
  if (key < 0) throw std::invalid_argument("FlowSolver: a crowd key must be >= 0 (got " + std::to_string(key) + ")");
  Entry& en = entries_[static_cast<size_t>(e)];
  if (en.crowd_key == key) return;
  en.crowd_key = key;
  if (static_cast<size_t>(key) >= key_stamp_.size()) {
    key_stamp_.resize(static_cast<size_t>(key) + 1, 0);
    key_weight_.resize(static_cast<size_t>(key) + 1, 0);
  }
  mark_dirty(e);  // its resources count it again
}

void FlowSolver::apply_crowding(ResourceId r) {
  const size_t i = static_cast<size_t>(r);
  const uint64_t epoch = ++key_epoch_;
  double streams = 0;
  const auto& users = users_[i];
  for (size_t j = 0; j < users.size(); ++j) {
    const Entry& en = entries_[static_cast<size_t>(users[j])];
    const double w = user_weight_[i][j] / en.share;  // the fraction of the flow crossing r
    if (en.crowd_key < 0) {
      streams += en.count * w;
      continue;
    }
    // One stream per key, weighing its largest weight (added as it grows).
    const size_t k = static_cast<size_t>(en.crowd_key);
    if (key_stamp_[k] != epoch) {
      key_stamp_[k] = epoch;
      key_weight_[k] = w;
      streams += w;
    } else if (w > key_weight_[k]) {
      streams += w - key_weight_[k];
      key_weight_[k] = w;
    }
  }
  capacity_[i] = base_capacity_[i] / (1 + crowding_[i] * std::max(0.0, streams - 1));
}

void FlowSolver::mark_dirty(EntryId e, bool users_changed) {
  for (ResourceId r : entries_[static_cast<size_t>(e)].path) {
    Scratch& s = scratch_[static_cast<size_t>(r)];
    committed_[static_cast<size_t>(r)].load = Committed::kStale;  // its users, their multiplicities or shares change
    s.recount = s.recount || users_changed;
    mark_resource_dirty(r);
  }
  if (entries_[static_cast<size_t>(e)].path.empty()) dirty_new_.push_back(e);  // nothing else would re-solve it
}

void FlowSolver::attach(EntryId e) {
  Entry& en = entries_[static_cast<size_t>(e)];
  en.slot.resize(en.path.size());
  for (size_t i = 0; i < en.path.size(); ++i) {
    auto& u = users_[static_cast<size_t>(en.path[i])];
    en.slot[i] = static_cast<int>(u.size());
    u.push_back(e);
    user_weight_[static_cast<size_t>(en.path[i])].push_back(weight_of(en, i));
  }
}

void FlowSolver::detach(EntryId e) {
  Entry& en = entries_[static_cast<size_t>(e)];
  for (size_t i = 0; i < en.path.size(); ++i) {
    auto& u = users_[static_cast<size_t>(en.path[i])];
    auto& uw = user_weight_[static_cast<size_t>(en.path[i])];
    const int slot = en.slot[i];
    const EntryId moved = u.back();
    u[static_cast<size_t>(slot)] = moved;
    u.pop_back();
    uw[static_cast<size_t>(slot)] = uw.back();
    uw.pop_back();
    if (moved != e) {
      Entry& m = entries_[static_cast<size_t>(moved)];
      for (size_t j = 0; j < m.path.size(); ++j)
        if (m.path[j] == en.path[i]) m.slot[j] = slot;
    }
  }
  en.slot.clear();
}

EntryId FlowSolver::add_flow(const std::vector<ResourceId>& path, double cap) { return add_flow(path, {}, cap); }

std::vector<double> FlowSolver::as_given(const std::vector<double>& weights) {
  const bool unit = std::all_of(weights.begin(), weights.end(), [](double w) { return w == 1.0; });
  return unit ? std::vector<double>{} : weights;
}

const std::vector<double>& FlowSolver::checked_weights(const std::vector<ResourceId>& path,
                                                       const std::vector<double>& weights, double share) const {
  for (ResourceId r : path)
    if (r < 0 || r >= resource_count()) throw std::out_of_range("FlowSolver: no resource " + std::to_string(r));
  if (!weights.empty() && weights.size() != path.size())
    throw std::invalid_argument("FlowSolver: " + std::to_string(weights.size()) + " weights for a path of " +
                                std::to_string(path.size()) + " resources");
  if (!(share > 0) || !std::isfinite(share))
    throw std::invalid_argument("FlowSolver: a share must be positive and finite (got " + std::to_string(share) + ")");
  bool unit = true;
  for (double w : weights) {
    if (!(w > 0) || !std::isfinite(w))
      throw std::invalid_argument("FlowSolver: a weight must be positive and finite (got " + std::to_string(w) + ")");
    unit = unit && w == 1.0;
  }
  unit = unit && share == 1.0;
  // All weights 1 is the unweighted flow: one representation, so that such flows share an entry.
  static const std::vector<double> kUnit;
  if (unit) return kUnit;
  if (share == 1.0) return weights;
  scale_weights(weights, path.size(), share, scaled_);
  return scaled_;
}

void FlowSolver::scale_weights(const std::vector<double>& given, size_t n, double share, std::vector<double>& out) {
  out.assign(n, share);  // the solve's weights: each times the share (see Shares)
  for (size_t i = 0; i < given.size(); ++i) out[i] = given[i] * share;
}

EntryId FlowSolver::add_flow(const std::vector<ResourceId>& path, const std::vector<double>& weights, double cap) {
  return add_flow(path, weights, cap, 1.0);
}

EntryId FlowSolver::add_flow(const std::vector<ResourceId>& path, const std::vector<double>& weights, double cap,
                             double share) {
  if (!(cap > 0))
    throw std::invalid_argument("FlowSolver: a flow's cap must be positive (got " + std::to_string(cap) + ")");
  const std::vector<double>& key = checked_weights(path, weights, share);
  const double given_cap = cap;
  cap /= share;
  ++flows_;
  const size_t hash = path_hash(path, given_cap);
  const EntryId found = find_entry(path, key, cap, share, hash);
  if (found >= 0) {
    ++entries_[static_cast<size_t>(found)].count;
    mark_dirty(found);
    return found;
  }
  EntryId e;
  if (!free_ids_.empty()) {
    e = free_ids_.back();
    free_ids_.pop_back();
  } else {
    e = static_cast<EntryId>(entries_.size());
    entries_.emplace_back();
    trial_.push_back(0);
    bottleneck_.push_back(kAtCap);
    dependent_slot_.push_back(-1);
    froze_by_.push_back(kAtCap);
    entry_mark_.push_back(0);
    frozen_.push_back(0);
  }
  Entry& en = entries_[static_cast<size_t>(e)];
  en.path = path;
  en.weight = key;
  en.cap = cap;
  en.share = share;
  en.given_cap = given_cap;
  en.given_weight = as_given(weights);
  en.rate = 0;
  en.count = 1;
  en.hash = hash;
  en.crowd_key = -1;
  trial_[static_cast<size_t>(e)] = 0;
  attach(e);
  by_path_.emplace(hash, e);
  dirty_new_.push_back(e);
  mark_dirty(e);
  return e;
}

void FlowSolver::remove_flow(EntryId e) {
  if (e < 0 || e >= entry_bound() || !alive(e))
    throw std::out_of_range("FlowSolver: no flow in entry " + std::to_string(e));
  --flows_;
  Entry& en = entries_[static_cast<size_t>(e)];
  mark_dirty(e);
  if (--en.count > 0) return;
  detach(e);
  set_bottleneck(e, kAtCap);
  unindex(e);
  en.rate = 0;
  trial_[static_cast<size_t>(e)] = 0;
  // Keep free ids sorted descending so that back() is the lowest.
  free_ids_.insert(std::upper_bound(free_ids_.begin(), free_ids_.end(), e, std::greater<>()), e);
}

void FlowSolver::unindex(EntryId e) {
  auto [first, last] = by_path_.equal_range(entries_[static_cast<size_t>(e)].hash);
  for (auto it = first; it != last; ++it)
    if (it->second == e) {
      by_path_.erase(it);
      return;
    }
}

void FlowSolver::join(EntryId e) {
  if (e < 0 || e >= entry_bound() || !alive(e))
    throw std::out_of_range("FlowSolver: no live entry " + std::to_string(e) + " to join");
  ++flows_;
  ++entries_[static_cast<size_t>(e)].count;
  mark_dirty(e);
}

void FlowSolver::reroute(EntryId e, const std::vector<ResourceId>& path, const std::vector<double>& weights) {
  if (e < 0 || e >= entry_bound() || !alive(e))
    throw std::out_of_range("FlowSolver: no live entry " + std::to_string(e) + " to reroute");
  Entry& en = entries_[static_cast<size_t>(e)];
  const std::vector<double>& key = checked_weights(path, weights, en.share);
  en.given_weight = as_given(weights);
  mark_dirty(e);  // the resources it leaves
  detach(e);
  set_bottleneck(e, kAtCap);  // re-solved and re-checked at the next solve: it crosses dirty resources
  unindex(e);
  en.path = path;
  en.weight = key;
  en.hash = path_hash(path, en.given_cap);
  attach(e);
  by_path_.emplace(en.hash, e);
  mark_dirty(e);  // the resources it joins
}

void FlowSolver::reroute(EntryId e, const std::vector<ResourceId>& path, const std::vector<double>& weights,
                         double share) {
  if (e < 0 || e >= entry_bound() || !alive(e))
    throw std::out_of_range("FlowSolver: no live entry " + std::to_string(e) + " to reroute");
  checked_weights(path, weights, share);  // throws before anything changes
  reroute(e, path, weights);
  set_share(e, share);
}

void FlowSolver::set_share(EntryId e, double share) {
  if (e < 0 || e >= entry_bound() || !alive(e))
    throw std::out_of_range("FlowSolver: no live entry " + std::to_string(e) + " to give a share");
  Entry& en = entries_[static_cast<size_t>(e)];
  if (share == en.share) return;
  if (!(share > 0) || !std::isfinite(share))
    throw std::invalid_argument("FlowSolver: a share must be positive and finite (got " + std::to_string(share) + ")");
  en.rate = en.rate * en.share / share;  // the solve works in rate / share: the committed rate moves with it
  trial_[static_cast<size_t>(e)] = en.rate;
  en.share = share;
  en.cap = en.given_cap / share;
  // The weights as add_flow scales them, in place: the path and the given weights were checked when the
  // entry was made (checked_weights), and this runs for every share a port count moves.
  if (share == 1.0 && en.given_weight.empty())
    en.weight.clear();
  else
    scale_weights(en.given_weight, en.path.size(), share, en.weight);
  for (size_t i = 0; i < en.path.size(); ++i)
    user_weight_[static_cast<size_t>(en.path[i])][static_cast<size_t>(en.slot[i])] = weight_of(en, i);
  set_bottleneck(e, kAtCap);  // re-solved and re-checked at the next solve: it crosses dirty resources
  mark_dirty(e, false);       // a share moves no stream: crowded capacities stay as counted
}

const FlowSolver::Committed& FlowSolver::committed(ResourceId r) const {
  Committed& s = committed_[static_cast<size_t>(r)];
  if (s.load == Committed::kStale) {
    stats_.fill_users += users_[static_cast<size_t>(r)].size();
    s.load = 0;
    s.fastest = 0;
    const auto& users = users_[static_cast<size_t>(r)];
    const auto& weights = user_weight_[static_cast<size_t>(r)];
    for (size_t j = 0; j < users.size(); ++j) {
      const Entry& ue = entries_[static_cast<size_t>(users[j])];
      s.load += ue.count * weights[j] * ue.rate;
      s.fastest = std::max(s.fastest, ue.rate);
    }
  }
  return s;
}

void FlowSolver::set_bottleneck(EntryId e, int r) {
  int& b = bottleneck_[static_cast<size_t>(e)];
  if (b == r) return;
  if (b != kAtCap) {
    auto& list = dependents_[static_cast<size_t>(b)];
    const int slot = dependent_slot_[static_cast<size_t>(e)];
    list[static_cast<size_t>(slot)] = list.back();
    dependent_slot_[static_cast<size_t>(list.back())] = slot;
    list.pop_back();
  }
  b = r;
  if (r != kAtCap) {
    auto& list = dependents_[static_cast<size_t>(r)];
    dependent_slot_[static_cast<size_t>(e)] = static_cast<int>(list.size());
    list.push_back(e);
  }
}

// Progressive filling ("water filling") of the entries of `set` on the capacity the entries outside
// it leave: every unfrozen entry of `set` runs at the same level, which rises until an entry reaches
// its cap (frozen there) or a resource saturates (its unfrozen users frozen at the level). Levels
// within kTol of each other are one level, so equal shares give bitwise equal rates. Reads the
// outside entries' rates from `rates` and writes the set's rates into it.
void FlowSolver::fill(const std::vector<EntryId>& set, std::vector<double>& rates, bool incremental) const {
  const uint64_t stamp = ++fill_epoch_;
  std::vector<ResourceId>& touched = fill_resources_;
  touched.clear();
  for (EntryId e : set) frozen_[static_cast<size_t>(e)] = stamp;  // "in the set" for now
  // Per resource of the set's paths: the multiplicity, caps and committed load of the set's users.
  std::vector<ResourceId>& all = fill_all_resources_;
  all.clear();
  for (EntryId e : set) {
    const Entry& en = entries_[static_cast<size_t>(e)];
    for (size_t i = 0; i < en.path.size(); ++i) {
      FillState& s = fill_state_[static_cast<size_t>(en.path[i])];
      if (s.fill_stamp != stamp) {
        s.fill_stamp = stamp;
        s.active = 0;
        s.unfrozen_users = 0;
        s.cap_sum = 0;
        s.set_load = 0;
        s.set_fastest = 0;
        s.outside = static_cast<int>(users_[static_cast<size_t>(en.path[i])].size());
        all.push_back(en.path[i]);
      }
      const double load = en.count * weight_of(en, i);
      s.active += load;
      ++s.unfrozen_users;
      s.set_load += load * en.rate;
      --s.outside;
    }
  }
  // Capacity left by the outside entries: in a re-solve, their committed load is the resource's
  // (cached) committed load less the set's; in a full solve nothing is outside.
  for (ResourceId r : all) {
    FillState& s = fill_state_[static_cast<size_t>(r)];
    s.remaining = capacity_[static_cast<size_t>(r)];
    if (incremental && s.outside > 0) s.remaining -= committed(r).load - s.set_load;
    if (s.remaining < 0) s.remaining = 0;
  }
  // What each entry of the set can get at most: its cap, and on each of its resources the capacity
  // left there shared by its own flows alone. A resource whose users' bounds fit in what is left
  // (by more than kTol) never saturates, so it need not be a candidate bottleneck: its share only grows as
  // users freeze. The resource that gives an entry its bound is always kept (its users' bounds add
  // up to at least what is left there), so every entry keeps a candidate or its cap. Without this,
  // a PE's issue rate shared by its flows (no caps) would make every link of their paths a candidate.
  for (EntryId e : set) {
    const Entry& en = entries_[static_cast<size_t>(e)];
    double bound = en.cap;
    for (size_t i = 0; i < en.path.size(); ++i)
      bound = std::min(bound, fill_state_[static_cast<size_t>(en.path[i])].remaining / (en.count * weight_of(en, i)));
    for (size_t i = 0; i < en.path.size(); ++i)
      fill_state_[static_cast<size_t>(en.path[i])].cap_sum += en.count * weight_of(en, i) * bound;
  }
  for (ResourceId r : all) {
    const FillState& s = fill_state_[static_cast<size_t>(r)];
    if (!(s.cap_sum < s.remaining * (1 - kTol))) touched.push_back(r);
  }
  // (fair share, resource): the smallest share saturates first. A binary heap over a reused vector,
  // used only when the scan below hands over.
  std::vector<ShareItem>& heap = fill_heap_;
  heap.clear();
  for (ResourceId r : touched) fill_state_[static_cast<size_t>(r)].heap_stamp = stamp;
  auto push = [&heap](double share, ResourceId r) {
    heap.push_back({share, r});
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  };
  auto pop = [&heap] {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.pop_back();
  };
  std::vector<EntryId>& capped = fill_capped_;
  capped.clear();
  for (EntryId e : set)
    if (std::isfinite(entries_[static_cast<size_t>(e)].cap)) capped.push_back(e);
  std::sort(capped.begin(), capped.end(), [this](EntryId a, EntryId b) {
    const double ca = entries_[static_cast<size_t>(a)].cap;
    const double cb = entries_[static_cast<size_t>(b)].cap;
    return ca != cb ? ca < cb : a < b;
  });
  size_t next_cap = 0;
  size_t unfrozen = set.size();
  const uint64_t done = stamp + (uint64_t{1} << 62);  // frozen in this fill

  auto freeze = [&](EntryId e, double rate, int by) {
    frozen_[static_cast<size_t>(e)] = done;
    froze_by_[static_cast<size_t>(e)] = by;
    rates[static_cast<size_t>(e)] = rate;
    --unfrozen;
    const Entry& en = entries_[static_cast<size_t>(e)];
    for (size_t i = 0; i < en.path.size(); ++i) {
      FillState& s = fill_state_[static_cast<size_t>(en.path[i])];
      s.set_fastest = std::max(s.set_fastest, rate);
      if (s.heap_stamp != stamp) continue;  // not a candidate bottleneck (see above)
      const double load = en.count * weight_of(en, i);
      s.remaining -= load * rate;
      if (s.remaining < 0) s.remaining = 0;
      // The count decides when none is left: a weighted sum may keep a rounding residue.
      s.active = --s.unfrozen_users > 0 ? s.active - load : 0;
    }
  };
  // A resource's share only grows as its users freeze (they freeze at the lowest share, which is at
  // most its own), so a heap key is a lower bound of the share: a top whose share has grown is
  // pushed again with its current share rather than on every change (lazy keys). Resources with no
  // unfrozen user left are dropped.
  auto current_top = [&]() -> bool {
    while (!heap.empty()) {
      const auto [key, r] = heap.front();
      const FillState& s = fill_state_[static_cast<size_t>(r)];
      if (s.unfrozen_users == 0) {
        pop();
        continue;
      }
      const double share = s.remaining / s.active;
      if (share == key) return true;
      pop();
      push(share, r);
    }
    return false;
  };

  // Entries whose cap is reached by `limit` run at their cap.
  auto freeze_capped = [&](double limit) {
    while (next_cap < capped.size()) {
      const EntryId e = capped[next_cap];
      if (frozen_[static_cast<size_t>(e)] != stamp) {
        ++next_cap;
        continue;
      }
      const double c = entries_[static_cast<size_t>(e)].cap;
      if (c > limit) break;
      freeze(e, c, kAtCap);
      ++next_cap;
    }
  };
  auto cap_level = [&]() {
    while (next_cap < capped.size() && frozen_[static_cast<size_t>(capped[next_cap])] != stamp) ++next_cap;
    return next_cap < capped.size() ? entries_[static_cast<size_t>(capped[next_cap])].cap : kNoCap;
  };
  // The next level: the lowest of the next cap and the lowest share. Freezes the entries capped at
  // it; false (and every entry frozen) when nothing bounds the rest: no resource and no cap.
  auto start_level = [&](double share_level, double* level, double* limit) {
    *level = std::min(cap_level(), share_level);
    if (!std::isfinite(*level)) {
      for (EntryId e : set)
        if (frozen_[static_cast<size_t>(e)] == stamp) freeze(e, kNoCap, kAtCap);
      return false;
    }
    *limit = *level * (1 + kTol);
    freeze_capped(*limit);
    return true;
  };

  // One scan of the candidates per level (resources left with no unfrozen user are dropped).
  for (int levels = 0; unfrozen > 0; ++levels) {
    if (levels == kLinearFillLevels && touched.size() > kLinearFillResources) break;  // to the heap
    double share_level = kNoCap;
    for (size_t i = 0; i < touched.size();) {
      const FillState& s = fill_state_[static_cast<size_t>(touched[i])];
      if (s.unfrozen_users == 0) {
        touched[i] = touched.back();
        touched.pop_back();
        continue;
      }
      share_level = std::min(share_level, s.remaining / s.active);
      ++i;
    }
    double level, limit;
    if (!start_level(share_level, &level, &limit)) break;
    for (size_t i = 0; i < touched.size(); ++i) {
      const ResourceId r = touched[i];
      const FillState& s = fill_state_[static_cast<size_t>(r)];
      if (s.unfrozen_users == 0 || s.remaining / s.active > limit) continue;
      for (EntryId u : users_[static_cast<size_t>(r)])
        if (frozen_[static_cast<size_t>(u)] == stamp) freeze(u, level, r);
    }
  }
  for (ResourceId r : touched) {
    const FillState& s = fill_state_[static_cast<size_t>(r)];
    if (unfrozen > 0 && s.unfrozen_users > 0) heap.push_back({s.remaining / s.active, r});
  }
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  while (unfrozen > 0) {
    double level, limit;
    if (!start_level(current_top() ? heap.front().first : kNoCap, &level, &limit)) break;
    // Resources saturated at this level: their unfrozen users run at the level.
    while (current_top() && heap.front().first <= limit) {
      const ResourceId r = heap.front().second;
      pop();
      for (EntryId u : users_[static_cast<size_t>(r)])
        if (frozen_[static_cast<size_t>(u)] == stamp) freeze(u, level, r);
    }
  }
}

bool FlowSolver::satisfied(EntryId e, const std::vector<double>& rates) {
  const Entry& en = entries_[static_cast<size_t>(e)];
  const double rate = rates[static_cast<size_t>(e)];
  if (rate >= en.cap * (1 - kTol)) {
    set_bottleneck(e, kAtCap);
    return true;
  }
  for (ResourceId r : en.path) {
    Scratch& s = scratch_[static_cast<size_t>(r)];
    const FillState& f = fill_state_[static_cast<size_t>(r)];
    double load;
    double fastest;
    if (f.fill_stamp != fill_epoch_) {  // no user re-solved: its committed figures hold
      const Committed& c = committed(r);
      load = c.load;
      fastest = c.fastest;
    } else {
      // A re-solved resource. The fill left what it knows: a candidate bottleneck's capacity left
      // (saturated when none is), a pruned one's room to spare (never saturated then), the fastest
      // re-solved user, and the committed fastest user as a bound on the others. Only when these do
      // not settle it are the users summed under the trial rates.
      const double capacity = capacity_[static_cast<size_t>(r)];
      if (f.heap_stamp == fill_epoch_) {
        if (f.remaining > capacity * kTol) continue;  // not saturated
        if (rate >= std::max(f.set_fastest, committed(r).fastest) * (1 - kTol)) {
          set_bottleneck(e, r);
          return true;
        }
      } else if (f.cap_sum < f.remaining * (1 - kTol)) {
        continue;  // its users' caps leave it room: not saturated
      }
      if (s.check_stamp != check_epoch_) {  // under the trial rates, once per check round
        s.check_stamp = check_epoch_;
        s.trial_load = 0;
        s.trial_fastest = 0;
        const auto& users = users_[static_cast<size_t>(r)];
        const auto& weights = user_weight_[static_cast<size_t>(r)];
        stats_.check_users += users.size();
        for (size_t j = 0; j < users.size(); ++j) {
          const double ur = rates[static_cast<size_t>(users[j])];
          s.trial_load += entries_[static_cast<size_t>(users[j])].count * weights[j] * ur;
          s.trial_fastest = std::max(s.trial_fastest, ur);
        }
      }
      load = s.trial_load;
      fastest = s.trial_fastest;
    }
    if (load >= capacity_[static_cast<size_t>(r)] * (1 - kTol) && rate >= fastest * (1 - kTol)) {
      set_bottleneck(e, r);
      return true;
    }
  }
  set_bottleneck(e, kAtCap);
  return en.path.empty() && !std::isfinite(rate);
}

const std::vector<EntryId>& FlowSolver::solve() { return solve_rounds(false); }

void FlowSolver::set_capacity(ResourceId r, double capacity) {
  if (r < 0 || r >= resource_count()) throw std::out_of_range("FlowSolver: no resource " + std::to_string(r));
  if (!(capacity > 0) || !std::isfinite(capacity))
    throw std::invalid_argument("FlowSolver: a capacity must be > 0 and finite (got " + std::to_string(capacity) + ")");
  const size_t i = static_cast<size_t>(r);
  base_capacity_[i] = capacity;
  if (crowding_[i] > 0)
    apply_crowding(r);
  else
    capacity_[i] = capacity;
  mark_resource_dirty(r);  // its users are re-solved on the new capacity
}

const std::vector<EntryId>& FlowSolver::solve_local() { return solve_rounds(true); }

const std::vector<EntryId>& FlowSolver::solve_rounds(bool local) {
  changed_.clear();
  if (dirty_resources_.empty() && dirty_new_.empty() && (local || deferred_resources_.empty())) return changed_;
  ++stats_.solves;
  if (local) ++stats_.local_solves;
  // S: the resources whose users are re-solved; F: the entries crossing them. An exact solve also
  // takes up what local solves deferred: the resources of every entry they left failing.
  std::vector<ResourceId>& S = solve_resources_;
  S.clear();
  const uint64_t in_s = ++s_epoch_;
  for (ResourceId r : dirty_resources_) {
    if (any_crowding_ && crowding_[static_cast<size_t>(r)] > 0 && scratch_[static_cast<size_t>(r)].recount)
      apply_crowding(r);
    scratch_[static_cast<size_t>(r)].recount = false;
    scratch_[static_cast<size_t>(r)].dirty = false;
    scratch_[static_cast<size_t>(r)].s_stamp = in_s;
    S.push_back(r);
  }
  dirty_resources_.clear();
  if (!local) {
    for (ResourceId r : deferred_resources_) {
      Scratch& s = scratch_[static_cast<size_t>(r)];
      s.deferred = false;
      if (s.s_stamp == in_s) continue;
      s.s_stamp = in_s;
      S.push_back(r);
    }
    deferred_resources_.clear();
  }
  std::vector<EntryId>& F = solve_entries_;
  std::vector<EntryId>& candidates = solve_candidates_;
  for (;;) {
    ++stats_.rounds;
    const uint64_t in_f = ++f_epoch_;
    F.clear();
    for (EntryId e : dirty_new_)
      if (alive(e) && entry_mark_[static_cast<size_t>(e)] != in_f) {
        entry_mark_[static_cast<size_t>(e)] = in_f;
        F.push_back(e);
      }
    for (ResourceId r : S)
      for (EntryId u : users_[static_cast<size_t>(r)])
        if (entry_mark_[static_cast<size_t>(u)] != in_f) {
          entry_mark_[static_cast<size_t>(u)] = in_f;
          F.push_back(u);
        }
    std::sort(F.begin(), F.end());  // the fill's order, hence its rounding, depends on the set only
    stats_.entries_solved += F.size();
    fill(F, trial_, true);
    // Check F and every entry sharing a resource with F.
    ++check_epoch_;
    candidates.clear();
    const uint64_t seen = ++f_epoch_;
    for (EntryId e : F) {
      entry_mark_[static_cast<size_t>(e)] = seen;
      candidates.push_back(e);
    }
    // Outside entries can be unsettled only where F's rates changed, i.e. on L(F): those held by
    // a resource of L(F) are checked; one held elsewhere keeps that resource's load and fastest.
    for (EntryId e : F)
      for (ResourceId r : entries_[static_cast<size_t>(e)].path)
        for (EntryId u : dependents_[static_cast<size_t>(r)])
          if (entry_mark_[static_cast<size_t>(u)] != seen) {
            entry_mark_[static_cast<size_t>(u)] = seen;
            candidates.push_back(u);
          }
    bool grew = false;
    for (size_t i = 0; i < candidates.size(); ++i) {
      const EntryId e = candidates[i];
      if (i < F.size()) {
        // Frozen by its cap, or by a resource with no user outside F (saturated, none faster):
        // the fill itself proves its condition.
        const int by = froze_by_[static_cast<size_t>(e)];
        if (by == kAtCap && trial_[static_cast<size_t>(e)] == entries_[static_cast<size_t>(e)].cap) {
          set_bottleneck(e, kAtCap);
          continue;
        }
        if (by != kAtCap && fill_state_[static_cast<size_t>(by)].outside == 0) {
          set_bottleneck(e, by);
          continue;
        }
      }
      ++stats_.checks;
      if (satisfied(e, trial_)) continue;
      if (local) {  // left failing: its resources are re-solved by the next exact solve
        ++stats_.deferred_entries;
        for (ResourceId r : entries_[static_cast<size_t>(e)].path) {
          Scratch& s = scratch_[static_cast<size_t>(r)];
          if (s.deferred) continue;
          s.deferred = true;
          deferred_resources_.push_back(r);
        }
        continue;
      }
      for (ResourceId r : entries_[static_cast<size_t>(e)].path) {
        Scratch& s = scratch_[static_cast<size_t>(r)];
        if (s.s_stamp == in_s) continue;
        s.s_stamp = in_s;
        S.push_back(r);
        grew = true;
      }
    }
    if (!grew) break;
    // Entries that stay outside keep their committed rates in trial_; the larger F is refilled.
    for (EntryId e : F) trial_[static_cast<size_t>(e)] = entries_[static_cast<size_t>(e)].rate;
  }
  for (EntryId e : F) {
    Entry& en = entries_[static_cast<size_t>(e)];
    if (trial_[static_cast<size_t>(e)] != en.rate) {
      en.rate = trial_[static_cast<size_t>(e)];
      changed_.push_back(e);
      for (ResourceId r : en.path) committed_[static_cast<size_t>(r)].load = Committed::kStale;
    }
  }
  for (EntryId e : dirty_new_)
    if (alive(e)) changed_.push_back(e);
  dirty_new_.clear();
  std::sort(changed_.begin(), changed_.end());
  changed_.erase(std::unique(changed_.begin(), changed_.end()), changed_.end());
  stats_.rate_changes += changed_.size();
  return changed_;
}

std::vector<double> FlowSolver::full_solve() const {
  std::vector<double> rates(entries_.size(), 0.0);
  std::vector<EntryId> all;
  for (EntryId e = 0; e < entry_bound(); ++e)
    if (alive(e)) all.push_back(e);
  fill(all, rates, false);
  for (EntryId e : all) rates[static_cast<size_t>(e)] *= entries_[static_cast<size_t>(e)].share;
  return rates;
}

}  // namespace t3sim::core
