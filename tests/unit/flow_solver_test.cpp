// The incremental max-min solver (sim/core/flow/flow_solver.hpp): hand cases with known answers; random
// torus-shaped systems (one injection and one ejection resource per node, one per directed torus link,
// dimension-order routes) changed a few flows at a time, where after every solve each rate must equal
// a solve from scratch, the max-min conditions must hold and solve() must report exactly the entries
// whose rate changed; and the same calls twice giving bitwise identical rates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/flow/flow_solver.hpp"
#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/topology/torus.hpp"
#include "tests/torus_flow_system.hpp"

using namespace t3sim::core;
namespace testing_support = t3sim::testing_support;

namespace {

// What the header promises: the incremental solve equals a full one, and the max-min conditions
// hold, to 1e-12 relative. (The solver merges levels within its own kRelativeTolerance, which must
// stay below this for the promise to hold.)
constexpr double kTol = 1e-12;
constexpr double kNoCap = FlowSolver::kNoCap;

// Equal within kTol of the larger magnitude (exactly equal values, infinities included, pass).
bool close(double a, double b) {
  if (a == b) return true;
  return std::abs(a - b) <= kTol * std::max(std::abs(a), std::abs(b));
}

std::string describe_path(const std::vector<ResourceId>& path) {
  std::ostringstream s;
  s << "{";
  for (size_t i = 0; i < path.size(); ++i) s << (i ? "," : "") << path[i];
  s << "}";
  return s.str();
}

// ---------------------------------------------------------------------------------------------------
// Hand cases.

TEST(FlowSolver, OneLinkTwoFlowsGetHalfEach) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const ResourceId a_out = s.add_resource(1e9);
  const ResourceId b_out = s.add_resource(1e9);
  const EntryId a = s.add_flow({link, a_out});
  const EntryId b = s.add_flow({link, b_out});
  EXPECT_NE(a, b);
  EXPECT_EQ(s.solve(), (std::vector<EntryId>{a, b}));
  EXPECT_DOUBLE_EQ(s.rate(a), 50e6);
  EXPECT_DOUBLE_EQ(s.rate(b), 50e6);
}

TEST(FlowSolver, SamePathAndCapIsOneEntryWithMultiplicity) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId a = s.add_flow({link});
  EXPECT_EQ(s.add_flow({link}), a);
  EXPECT_EQ(s.multiplicity(a), 2);
  EXPECT_EQ(s.flow_count(), 2);
  // A different cap on the same path is another entry.
  const EntryId c = s.add_flow({link}, 10e6);
  EXPECT_NE(c, a);
  EXPECT_EQ(s.flow_count(), 3);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(c), 10e6);
  EXPECT_DOUBLE_EQ(s.rate(a), 45e6);
}

// Parking lot: a flow across the whole chain and one flow on each link. Max-min is not weighted by
// route length: every flow gets half a link.
TEST(FlowSolver, ChainIsFairNotWeightedByHops) {
  FlowSolver s;
  const ResourceId l0 = s.add_resource(100e6);
  const ResourceId l1 = s.add_resource(100e6);
  const ResourceId l2 = s.add_resource(100e6);
  const EntryId one_hop = s.add_flow({l0});
  const EntryId two_hops = s.add_flow({l0, l1});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(one_hop), 50e6);
  EXPECT_DOUBLE_EQ(s.rate(two_hops), 50e6);
  const EntryId three_hops = s.add_flow({l0, l1, l2});
  const EntryId on_l1 = s.add_flow({l1});
  const EntryId on_l2 = s.add_flow({l2});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(one_hop), 100e6 / 3);
  EXPECT_DOUBLE_EQ(s.rate(two_hops), 100e6 / 3);
  EXPECT_DOUBLE_EQ(s.rate(three_hops), 100e6 / 3);
  EXPECT_DOUBLE_EQ(s.rate(on_l1), 100e6 / 3);
  EXPECT_DOUBLE_EQ(s.rate(on_l2), 100e6 / 3 * 2);  // l2's other flow is held to a third by l0
}

TEST(FlowSolver, CappedFlowLeavesItsShareToTheOther) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId capped = s.add_flow({link}, 30e6);
  const EntryId free = s.add_flow({link});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(capped), 30e6);
  EXPECT_DOUBLE_EQ(s.rate(free), 70e6);
  // A cap above the fair share does not bind.
  FlowSolver t;
  const ResourceId l = t.add_resource(100e6);
  const EntryId high = t.add_flow({l}, 80e6);
  const EntryId other = t.add_flow({l});
  t.solve();
  EXPECT_DOUBLE_EQ(t.rate(high), 50e6);
  EXPECT_DOUBLE_EQ(t.rate(other), 50e6);
}

TEST(FlowSolver, MultiplicityCountsEveryFlow) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const ResourceId out = s.add_resource(1e9);
  const EntryId triple = s.add_flow({link});
  s.add_flow({link});
  s.add_flow({link});
  const EntryId single = s.add_flow({link, out});
  EXPECT_EQ(s.multiplicity(triple), 3);
  EXPECT_EQ(s.multiplicity(single), 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(triple), 25e6);  // per flow, not per entry
  EXPECT_DOUBLE_EQ(s.rate(single), 25e6);
}

TEST(FlowSolver, RemovalRestoresRates) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const ResourceId out = s.add_resource(1e9);
  const EntryId triple = s.add_flow({link});
  s.add_flow({link});
  s.add_flow({link});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(triple), 100e6 / 3);
  const EntryId single = s.add_flow({link, out});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(triple), 25e6);
  s.remove_flow(single);
  EXPECT_FALSE(s.alive(single));
  EXPECT_EQ(s.solve(), std::vector<EntryId>{triple});  // the freed entry is not reported
  EXPECT_DOUBLE_EQ(s.rate(triple), 100e6 / 3);
  s.remove_flow(triple);
  s.remove_flow(triple);
  EXPECT_EQ(s.multiplicity(triple), 1);
  EXPECT_EQ(s.flow_count(), 1);
  EXPECT_EQ(s.solve(), std::vector<EntryId>{triple});
  EXPECT_DOUBLE_EQ(s.rate(triple), 100e6);
  s.remove_flow(triple);
  EXPECT_EQ(s.flow_count(), 0);
  EXPECT_TRUE(s.solve().empty());
}

TEST(FlowSolver, FreedIdsAreReusedLowestFirst) {
  FlowSolver s;
  std::vector<ResourceId> r;
  for (int i = 0; i < 6; ++i) r.push_back(s.add_resource(100e6));
  for (int i = 0; i < 5; ++i) ASSERT_EQ(s.add_flow({r[static_cast<size_t>(i)]}), i);
  s.solve();
  s.remove_flow(3);
  s.remove_flow(1);
  EXPECT_FALSE(s.alive(1));
  EXPECT_FALSE(s.alive(3));
  EXPECT_EQ(s.entry_bound(), 5);
  // A path seen before gets no special treatment: the lowest free id.
  EXPECT_EQ(s.add_flow({r[3]}), 1);
  EXPECT_EQ(s.add_flow({r[5]}), 3);
  EXPECT_EQ(s.add_flow({r[1]}), 5);
  EXPECT_EQ(s.path(1), std::vector<ResourceId>{r[3]});
  EXPECT_EQ(s.path(3), std::vector<ResourceId>{r[5]});
  EXPECT_EQ(s.solve(), (std::vector<EntryId>{1, 3, 5}));  // new entries, in id order
  for (EntryId e = 0; e < 6; ++e) EXPECT_DOUBLE_EQ(s.rate(e), 100e6) << e;
  // Freed and solved: still reused.
  s.remove_flow(0);
  s.solve();
  EXPECT_EQ(s.add_flow({r[0], r[1]}), 0);
}

TEST(FlowSolver, EmptyPathWithCapRunsAtItsCap) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId alone = s.add_flow({}, 42e6);
  const EntryId other = s.add_flow({link});
  s.solve();
  EXPECT_EQ(s.rate(alone), 42e6);
  EXPECT_EQ(s.rate(other), 100e6);
  EXPECT_EQ(s.full_solve()[static_cast<size_t>(alone)], 42e6);
}

// The header does not say what an empty path without a cap gets (nothing bounds it): only that the
// incremental and the full solve agree, and that it disturbs no other flow.
TEST(FlowSolver, EmptyPathWithoutCapAgreesWithFullSolve) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const EntryId unbounded = s.add_flow({});
  const EntryId other = s.add_flow({link});
  s.solve();
  EXPECT_FALSE(std::isnan(s.rate(unbounded)));
  EXPECT_EQ(s.rate(unbounded), s.full_solve()[static_cast<size_t>(unbounded)]);
  EXPECT_EQ(s.rate(other), 100e6);
}

TEST(FlowSolver, ReportsOnlyRatesThatChanged) {
  FlowSolver s;
  const ResourceId link = s.add_resource(100e6);
  const ResourceId side = s.add_resource(100e6);
  const EntryId capped = s.add_flow({link}, 10e6);
  const EntryId on_side = s.add_flow({side});
  EXPECT_EQ(s.solve(), (std::vector<EntryId>{capped, on_side}));
  // A second flow of the capped entry: its rate stays at the cap, nothing else moves.
  EXPECT_EQ(s.add_flow({link}, 10e6), capped);
  EXPECT_TRUE(s.solve().empty());
  EXPECT_EQ(s.multiplicity(capped), 2);
  // No changes: nothing reported, no solve counted.
  const uint64_t solves = s.stats().solves;
  EXPECT_TRUE(s.solve().empty());
  EXPECT_EQ(s.stats().solves, solves);
  // A new entry on the link does not slow the capped one (80 left): only the new entry is reported.
  const EntryId big = s.add_flow({link});
  EXPECT_EQ(s.solve(), std::vector<EntryId>{big});
  EXPECT_DOUBLE_EQ(s.rate(big), 80e6);
  EXPECT_DOUBLE_EQ(s.rate(on_side), 100e6);
}

TEST(FlowSolver, BottleneckMovesAcrossTheSystem) {
  // a: {l0}, b: {l0, l1}, c: {l1}, d: {l1, l2}. Adding flows on l2 moves d's bottleneck, which frees
  // room on l1 for b and c, which changes a's share of l0.
  FlowSolver s;
  const ResourceId l0 = s.add_resource(90e6);
  const ResourceId l1 = s.add_resource(120e6);
  const ResourceId l2 = s.add_resource(100e6);
  const EntryId a = s.add_flow({l0});
  const EntryId b = s.add_flow({l0, l1});
  const EntryId c = s.add_flow({l1});
  const EntryId d = s.add_flow({l1, l2});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(b), 40e6);
  EXPECT_DOUBLE_EQ(s.rate(c), 40e6);
  EXPECT_DOUBLE_EQ(s.rate(d), 40e6);
  EXPECT_DOUBLE_EQ(s.rate(a), 50e6);
  const EntryId e = s.add_flow({l2});
  s.add_flow({l2});
  s.add_flow({l2});
  s.add_flow({l2});  // l2: d and 4 flows of e -> 20 each
  EXPECT_EQ(s.solve(), (std::vector<EntryId>{a, b, c, d, e}));
  EXPECT_DOUBLE_EQ(s.rate(d), 20e6);
  EXPECT_DOUBLE_EQ(s.rate(e), 20e6);
  EXPECT_DOUBLE_EQ(s.rate(b), 45e6);  // l0: a and b at 45
  EXPECT_DOUBLE_EQ(s.rate(a), 45e6);
  EXPECT_DOUBLE_EQ(s.rate(c), 55e6);  // l1: 120 - 45 - 20
}

// Shares that differ by less than the solver's kRelativeTolerance (the smallest case the near-ties
// random systems below found). A full solve merges C's share with A's lower one (q and r at A's
// level, p takes what is left of B); the incremental solve after adding r re-solves C's users alone,
// at C's own share, and p keeps its earlier rate. They must still agree to kTol.
TEST(FlowSolver, NearTiesIncrementalEqualsFullSolve) {
  FlowSolver s;
  auto near = [](int k) { return 300e6 * (1 + k * 0.3 * FlowSolver::kRelativeTolerance); };
  const ResourceId a = s.add_resource(near(0));
  const ResourceId b = s.add_resource(near(4));
  const ResourceId c = s.add_resource(near(2));
  const EntryId on_a = s.add_flow({a});
  s.add_flow({a});
  const EntryId p = s.add_flow({b});
  const EntryId q = s.add_flow({c, b});
  s.solve();
  const EntryId r = s.add_flow({c});
  s.solve();
  const std::vector<double> full = s.full_solve();
  for (EntryId e : {on_a, p, q, r})
    EXPECT_TRUE(close(s.rate(e), full[static_cast<size_t>(e)]))
        << "entry " << e << ": incremental " << s.rate(e) << ", full " << full[static_cast<size_t>(e)];
}

// ---------------------------------------------------------------------------------------------------
// Random torus-shaped systems.

// Fixed: the capacities given. Random: each resource its own, uniform in [50, 600] MB/s. NearTies: each
// resource the given capacity times 1 + k * 0.3 * kRelativeTolerance (k = 0..4, random): shares that
// differ by less than the solver's tolerance, where its levels merge.
enum class Capacities { Fixed, Random, NearTies };

struct MachineShape {
  const char* name;
  Coord dims;
  int pes_per_node;
  double link;  // bytes/s
  double inject;
  double eject;
  Capacities capacities = Capacities::Fixed;
};

// The solver's view of a machine (tests/torus_flow_system.hpp), with the shape's capacities.
testing_support::TorusFlowSystem make_system(FlowSolver& solver, const MachineShape& shape, Coord order, TieRule tie,
                                             std::mt19937_64& rng) {
  auto capacity = [&](testing_support::ResourceKind kind) {
    const double given = kind == testing_support::ResourceKind::Inject  ? shape.inject
                         : kind == testing_support::ResourceKind::Eject ? shape.eject
                                                                        : shape.link;
    switch (shape.capacities) {
      case Capacities::Random:
        return std::uniform_real_distribution<double>(50e6, 600e6)(rng);
      case Capacities::NearTies:
        return given * (1 + static_cast<double>(rng() % 5) * 0.3 * FlowSolver::kRelativeTolerance);
      case Capacities::Fixed:
        break;
    }
    return given;
  };
  return testing_support::TorusFlowSystem(solver, shape.dims, shape.pes_per_node, order, tie, capacity);
}

enum class Traffic { Uniform, HotSpot, Neighbour };

struct Scenario {
  MachineShape shape;
  uint64_t first_seed;
  int sequences;  // seeds first_seed, first_seed + 1, ...
  int min_flows;  // the flow count wanders between these
  int max_flows;
  int batches;          // solves after the initial one
  int max_batch;        // changes per batch: 1..max_batch
  double crowding = 0;  // every resource crowded by this loss per further flow (FlowSolver::set_crowding)
};

// One random sequence: the test's own model of what the solver must hold (entry per path and cap,
// multiplicities, lowest free id), and the checks after every solve.
class RandomSequence {
 public:
  RandomSequence(const Scenario& sc, uint64_t seed)
      : sc_(sc),
        seed_(seed),
        rng_(seed),
        order_(random_order(rng_)),
        tie_(rng_() % 2 ? TieRule::Plus : TieRule::Minus),
        system_(make_system(solver_, sc.shape, order_, tie_, rng_)) {
    const int mode = static_cast<int>(rng_() % 3);
    traffic_ = static_cast<Traffic>(mode);
    const int hot = 1 + static_cast<int>(rng_() % 3);
    for (int i = 0; i < hot; ++i) hot_pes_.push_back(pick(system_.pe_count()));
    if (sc.crowding > 0)
      for (ResourceId r = 0; r < solver_.resource_count(); ++r) solver_.set_crowding(r, sc.crowding);
  }

  testing::AssertionResult run() {
    const int initial = sc_.min_flows + pick(sc_.max_flows - sc_.min_flows + 1);
    start_batch();
    for (int i = 0; i < initial; ++i)
      if (auto r = add_random(); !r) return r;
    if (auto r = solve_and_check(); !r) return r;
    for (batch_ = 1; batch_ <= sc_.batches; ++batch_) {
      start_batch();
      // Now and then a large batch: many entries re-solved at once.
      const int changes = 1 + (uniform() < 0.05 ? pick(sc_.max_flows / 2 + 1) : pick(sc_.max_batch));
      for (int i = 0; i < changes; ++i) {
        const int live = static_cast<int>(live_.size());
        const double p_remove = live == 0 ? 0 : live > sc_.max_flows ? 0.7 : live < sc_.min_flows ? 0.25 : 0.5;
        if (uniform() < p_remove) {
          remove_random();
        } else if (auto r = add_random(); !r) {
          return r;
        }
      }
      if (auto r = solve_and_check(); !r) return r;
    }
    return testing::AssertionSuccess();
  }

 private:
  static Coord random_order(std::mt19937_64& rng) {
    Coord o{0, 1, 2};
    std::shuffle(o.begin(), o.end(), rng);
    return o;
  }
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  double random_cap() {
    const double r = uniform();
    if (r < 0.45) return kNoCap;
    if (r < 0.6) return 329e6;  // the T3E-900 profile's put rate
    if (r < 0.7) return 350e6;  // and its get rate
    return std::uniform_real_distribution<double>(20e6, 600e6)(rng_);
  }

  int random_destination(int src) {
    const int pes = system_.pe_count();
    switch (traffic_) {
      case Traffic::HotSpot:
        if (uniform() < 0.6) return hot_pes_[static_cast<size_t>(pick(static_cast<int>(hot_pes_.size())))];
        break;
      case Traffic::Neighbour:
        if (uniform() < 0.8) return (src + 1 + pick(3)) % pes;
        break;
      case Traffic::Uniform:
        break;
    }
    return pick(pes);
  }

  std::string where() const {
    std::ostringstream s;
    s << sc_.shape.name << " seed " << seed_ << " batch " << batch_ << ": ";
    return s.str();
  }

  void start_batch() { created_.clear(); }

  testing::AssertionResult add_random() {
    std::vector<ResourceId> path;
    double cap;
    if (!live_.empty() && uniform() < 0.25) {  // a duplicate of a live flow
      const EntryId e = live_[static_cast<size_t>(pick(static_cast<int>(live_.size())))];
      path = solver_.path(e);
      cap = solver_.cap(e);
    } else {
      const int src = pick(system_.pe_count());
      path = system_.path(src, random_destination(src));
      cap = random_cap();
    }
    return add(path, cap);
  }

  testing::AssertionResult add(const std::vector<ResourceId>& path, double cap) {
    const auto key = std::make_pair(path, cap);
    const auto known = by_key_.find(key);
    EntryId expected;
    if (known != by_key_.end()) {
      expected = known->second;
    } else {
      expected = static_cast<EntryId>(count_.size());
      for (size_t e = 0; e < count_.size(); ++e)
        if (count_[e] == 0) {
          expected = static_cast<EntryId>(e);
          break;
        }
    }
    const EntryId e = solver_.add_flow(path, cap);
    // Crowded systems of odd seeds key entries by their path's last resource (a destination's
    // interface, as the transport keys flows by destination node), so streams merge in the count.
    if (sc_.crowding > 0 && seed_ % 2 == 1 && !path.empty()) solver_.set_crowd_key(e, path.back() % 7);
    if (e != expected)
      return testing::AssertionFailure() << where() << "add_flow(" << describe_path(path) << ", " << cap
                                         << ") returned entry " << e << ", expected " << expected
                                         << (known != by_key_.end() ? " (the live entry of that path and cap)"
                                                                    : " (the lowest free id)");
    if (static_cast<size_t>(e) >= count_.size()) count_.resize(static_cast<size_t>(e) + 1, 0);
    if (count_[static_cast<size_t>(e)]++ == 0) {
      by_key_.emplace(key, e);
      created_.push_back(e);
    }
    live_.push_back(e);
    return testing::AssertionSuccess();
  }

  void remove_random() {
    const size_t i = static_cast<size_t>(pick(static_cast<int>(live_.size())));
    const EntryId e = live_[i];
    live_[i] = live_.back();
    live_.pop_back();
    if (--count_[static_cast<size_t>(e)] == 0) by_key_.erase(std::make_pair(solver_.path(e), solver_.cap(e)));
    solver_.remove_flow(e);
  }

  testing::AssertionResult solve_and_check() {
    std::vector<double> before(static_cast<size_t>(solver_.entry_bound()));
    for (EntryId e = 0; e < solver_.entry_bound(); ++e) before[static_cast<size_t>(e)] = solver_.rate(e);
    const uint64_t changes_before = solver_.stats().rate_changes;
    const std::vector<EntryId> changed = solver_.solve();

    // The model: multiplicities, flow count, entry ids.
    if (solver_.flow_count() != static_cast<int>(live_.size()))
      return testing::AssertionFailure() << where() << "flow_count " << solver_.flow_count() << ", expected "
                                         << live_.size();
    if (solver_.entry_bound() < static_cast<int>(count_.size()))
      return testing::AssertionFailure() << where() << "entry_bound " << solver_.entry_bound() << " below "
                                         << count_.size();
    for (EntryId e = 0; e < solver_.entry_bound(); ++e) {
      const int expected = static_cast<size_t>(e) < count_.size() ? count_[static_cast<size_t>(e)] : 0;
      if (solver_.multiplicity(e) != expected)
        return testing::AssertionFailure()
               << where() << "entry " << e << " multiplicity " << solver_.multiplicity(e) << ", expected " << expected;
    }

    // Incremental = full, within kTol.
    const std::vector<double> full = solver_.full_solve();
    if (full.size() != static_cast<size_t>(solver_.entry_bound()))
      return testing::AssertionFailure() << where() << "full_solve gave " << full.size() << " rates for "
                                         << solver_.entry_bound() << " entry ids";
    for (EntryId e = 0; e < solver_.entry_bound(); ++e) {
      const double a = solver_.rate(e), b = full[static_cast<size_t>(e)];
      if (!solver_.alive(e)) {
        if (b != 0) return testing::AssertionFailure() << where() << "full_solve gives free entry " << e << " " << b;
        continue;
      }
      if (!close(a, b))
        return testing::AssertionFailure()
               << where() << "entry " << e << " path " << describe_path(solver_.path(e)) << " cap " << solver_.cap(e)
               << " x" << solver_.multiplicity(e) << ": incremental " << a << ", full " << b << " (relative "
               << std::abs(a - b) / std::max(std::abs(a), std::abs(b)) << ")";
    }

    // The reported entries: exactly the live ones created in this batch or whose rate differs.
    std::vector<EntryId> expected;
    for (EntryId e = 0; e < solver_.entry_bound(); ++e) {
      if (!solver_.alive(e)) continue;
      const bool created = std::find(created_.begin(), created_.end(), e) != created_.end();
      if (created || static_cast<size_t>(e) >= before.size() || solver_.rate(e) != before[static_cast<size_t>(e)])
        expected.push_back(e);
    }
    if (changed != expected) {
      auto list = [](const std::vector<EntryId>& v) {
        std::ostringstream s;
        for (EntryId e : v) s << " " << e;
        return s.str();
      };
      return testing::AssertionFailure() << where() << "solve() reported" << list(changed) << "; expected"
                                         << list(expected);
    }
    if (solver_.stats().rate_changes - changes_before != changed.size())
      return testing::AssertionFailure() << where() << "stats().rate_changes grew by "
                                         << solver_.stats().rate_changes - changes_before << " for " << changed.size()
                                         << " reported";
    return check_conditions();
  }

  // The max-min conditions, on the solver's rates: every resource within capacity; every entry at
  // its cap or crossing a saturated resource on which no entry is faster.
  testing::AssertionResult check_conditions() const {
    const auto resources = static_cast<size_t>(solver_.resource_count());
    std::vector<double> load(resources, 0), fastest(resources, 0);
    for (EntryId e = 0; e < solver_.entry_bound(); ++e) {
      if (!solver_.alive(e)) continue;
      const double rate = solver_.rate(e);
      if (!(rate > 0) || rate > solver_.cap(e) * (1 + kTol))
        return testing::AssertionFailure() << where() << "entry " << e << " rate " << rate << " cap " << solver_.cap(e);
      for (ResourceId r : solver_.path(e)) {
        load[static_cast<size_t>(r)] += solver_.multiplicity(e) * rate;
        fastest[static_cast<size_t>(r)] = std::max(fastest[static_cast<size_t>(r)], rate);
      }
    }
    for (ResourceId r = 0; r < solver_.resource_count(); ++r)
      if (load[static_cast<size_t>(r)] > solver_.capacity(r) * (1 + kTol))
        return testing::AssertionFailure() << where() << "resource " << r << " load " << load[static_cast<size_t>(r)]
                                           << " above its capacity " << solver_.capacity(r);
    for (EntryId e = 0; e < solver_.entry_bound(); ++e) {
      if (!solver_.alive(e)) continue;
      const double rate = solver_.rate(e);
      if (close(rate, solver_.cap(e))) continue;
      bool bottleneck = false;
      for (ResourceId r : solver_.path(e)) {
        const auto i = static_cast<size_t>(r);
        if (load[i] >= solver_.capacity(r) * (1 - kTol) && rate >= fastest[i] * (1 - kTol)) bottleneck = true;
      }
      if (!bottleneck)
        return testing::AssertionFailure()
               << where() << "entry " << e << " path " << describe_path(solver_.path(e)) << " rate " << rate
               << " is below its cap " << solver_.cap(e) << " with no saturated resource on which it is the fastest";
    }
    return testing::AssertionSuccess();
  }

  Scenario sc_;
  uint64_t seed_;
  std::mt19937_64 rng_;
  Coord order_;  // the routes' dimension order and tie rule (members: initialised in this order)
  TieRule tie_;
  FlowSolver solver_;
  testing_support::TorusFlowSystem system_;
  Traffic traffic_;
  std::vector<int> hot_pes_;
  int batch_ = 0;
  std::vector<EntryId> live_;  // one element per live flow
  std::vector<int> count_;     // the model's multiplicity per entry id
  std::map<std::pair<std::vector<ResourceId>, double>, EntryId> by_key_;
  std::vector<EntryId> created_;  // entries created (multiplicity 0 -> 1) in the current batch
};

// Link 300 MB/s (T3D) or 480 MB/s (T3E payload rate); interfaces slower or faster than the links.
const Scenario kScenarios[] = {
    {{"1x1x2", {1, 1, 2}, 1, 300e6, 480e6, 400e6}, 1000, 60, 1, 8, 60, 3},
    {{"1x1x1-t3d", {1, 1, 1}, 2, 300e6, 200e6, 250e6}, 2000, 20, 1, 6, 30, 2},
    {{"2x1x1-t3d", {2, 1, 1}, 2, 300e6, 200e6, 250e6}, 3000, 60, 1, 10, 60, 3},
    {{"2x2x2", {2, 2, 2}, 1, 480e6, 350e6, 500e6}, 4000, 80, 4, 24, 60, 4},
    {{"2x2x2-t3d", {2, 2, 2}, 2, 300e6, 150e6, 180e6}, 5000, 80, 4, 32, 60, 4},
    {{"3x3x3-random", {3, 3, 3}, 1, 0, 0, 0, Capacities::Random}, 6000, 60, 10, 60, 60, 5},
    {{"4x2x3-t3d-random", {4, 2, 3}, 2, 0, 0, 0, Capacities::Random}, 7000, 60, 10, 80, 60, 5},
    {{"5x1x3", {5, 1, 3}, 1, 300e6, 300e6, 300e6}, 8000, 40, 10, 50, 60, 5},
    {{"4x4x4", {4, 4, 4}, 1, 480e6, 350e6, 400e6}, 9000, 40, 40, 160, 60, 8},
    {{"4x4x4-t3d", {4, 4, 4}, 2, 300e6, 200e6, 250e6}, 10000, 30, 60, 200, 60, 8},
    {{"8x8x8", {8, 8, 8}, 1, 480e6, 350e6, 400e6}, 11000, 8, 200, 500, 50, 12},
    {{"8x8x8-random", {8, 8, 8}, 1, 0, 0, 0, Capacities::Random}, 12000, 6, 200, 600, 50, 12},
    {{"3x3x2-near-ties", {3, 3, 2}, 1, 300e6, 300e6, 300e6, Capacities::NearTies}, 13000, 60, 10, 60, 60, 5},
    {{"4x4x4-t3d-near-ties", {4, 4, 4}, 2, 300e6, 150e6, 150e6, Capacities::NearTies}, 14000, 30, 60, 200, 60, 8},
    // Crowded resources: capacities that move with the flows crossing them (network.contention_loss).
    {{"3x3x3-random-crowded", {3, 3, 3}, 1, 0, 0, 0, Capacities::Random}, 15000, 40, 10, 60, 60, 5, 0.15},
    {{"4x4x4-crowded", {4, 4, 4}, 1, 480e6, 350e6, 400e6}, 16000, 30, 40, 160, 60, 8, 0.3},
    {{"8x8x8-crowded", {8, 8, 8}, 1, 480e6, 350e6, 400e6}, 17000, 6, 200, 500, 50, 12, 0.5},
};

void PrintTo(const Scenario& sc, std::ostream* os) { *os << sc.shape.name; }

class FlowSolverRandom : public testing::TestWithParam<Scenario> {};

TEST_P(FlowSolverRandom, IncrementalEqualsFullSolve) {
  const Scenario& sc = GetParam();
  for (int i = 0; i < sc.sequences; ++i) {
    RandomSequence sequence(sc, sc.first_seed + static_cast<uint64_t>(i));
    ASSERT_TRUE(sequence.run());
  }
}

INSTANTIATE_TEST_SUITE_P(Torus, FlowSolverRandom, testing::ValuesIn(kScenarios),
                         [](const testing::TestParamInfo<Scenario>& param_info) {
                           std::string name = param_info.param.shape.name;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// ---------------------------------------------------------------------------------------------------
// Crowding (network.contention_loss): a resource's capacity C / (1 + loss (n - 1)) for its n flows.

TEST(FlowSolverCrowding, ALoneFlowKeepsTheWholeCapacity) {
  FlowSolver s;
  const ResourceId link = s.add_resource(480e6);
  s.set_crowding(link, 0.5);
  const EntryId a = s.add_flow({link});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 480e6);
  EXPECT_DOUBLE_EQ(s.capacity(link), 480e6);
}

TEST(FlowSolverCrowding, CapacityFallsWithTheFlowsAndComesBack) {
  FlowSolver s;
  const ResourceId link = s.add_resource(480e6);
  const ResourceId other = s.add_resource(480e6);  // not crowded
  s.set_crowding(link, 0.5);
  const EntryId a = s.add_flow({link});
  const EntryId b = s.add_flow({link}, 1e9);  // another entry: its own cap
  const EntryId c = s.add_flow({link, other});
  s.solve();
  // Three flows: 480 / (1 + 0.5 x 2) = 240 MB/s shared by three.
  EXPECT_DOUBLE_EQ(s.capacity(link), 240e6);
  EXPECT_DOUBLE_EQ(s.rate(a), 80e6);
  EXPECT_DOUBLE_EQ(s.rate(b), 80e6);
  EXPECT_DOUBLE_EQ(s.rate(c), 80e6);
  s.add_flow({link});  // a fourth flow joins a's entry (multiplicities count)
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 480e6 / 2.5);
  EXPECT_DOUBLE_EQ(s.rate(c), 480e6 / 2.5 / 4);
  s.remove_flow(a);
  s.remove_flow(a);
  s.remove_flow(b);
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 480e6);
  EXPECT_DOUBLE_EQ(s.rate(c), 480e6);
  EXPECT_EQ(s.full_solve()[static_cast<size_t>(c)], s.rate(c));
}

TEST(FlowSolverCrowding, CountsASplitFlowByItsWeight) {
  FlowSolver s;
  const ResourceId link = s.add_resource(400e6);
  s.set_crowding(link, 1.0);
  const ResourceId spare = s.add_resource(1e9);
  s.add_flow({link}, {1.0}, FlowSolver::kNoCap);
  s.add_flow({link, spare}, {0.5, 0.5}, FlowSolver::kNoCap);
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 400e6 / 1.5);  // 1.5 flows' worth: loss x 0.5
}

TEST(FlowSolverCrowding, FlowsOfOneKeyAreOneStream) {
  FlowSolver s;
  const ResourceId link = s.add_resource(480e6);
  const ResourceId to_a = s.add_resource(1e9), to_b = s.add_resource(1e9), spare = s.add_resource(1e9);
  s.set_crowding(link, 0.5);
  const EntryId a1 = s.add_flow({link, to_a});
  const EntryId a2 = s.add_flow({spare, link, to_a});  // another path to the same destination
  s.set_crowd_key(a1, 0);
  s.set_crowd_key(a2, 0);
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 480e6);  // one stream: nothing lost
  EXPECT_DOUBLE_EQ(s.rate(a1), 240e6);
  const EntryId b = s.add_flow({link, to_b});
  s.set_crowd_key(b, 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 480e6 / 1.5);  // two streams
  EXPECT_DOUBLE_EQ(s.rate(b), 480e6 / 1.5 / 3);
  const EntryId unkeyed = s.add_flow({link}, 1e9);  // no key: a stream of its own
  s.solve();
  EXPECT_DOUBLE_EQ(s.capacity(link), 480e6 / 2);
  EXPECT_EQ(s.full_solve()[static_cast<size_t>(unkeyed)], s.rate(unkeyed));
  EXPECT_THROW(s.set_crowd_key(b, -1), std::invalid_argument);
  EXPECT_THROW(s.set_crowd_key(99, 0), std::out_of_range);
}

TEST(FlowSolverCrowding, RefusesANegativeOrInfiniteLoss) {
  FlowSolver s;
  const ResourceId link = s.add_resource(400e6);
  EXPECT_THROW(s.set_crowding(link, -0.1), std::invalid_argument);
  EXPECT_THROW(s.set_crowding(link, INFINITY), std::invalid_argument);
  EXPECT_THROW(s.set_crowding(link, NAN), std::invalid_argument);
  EXPECT_THROW(s.set_crowding(link + 1, 0.1), std::out_of_range);
}

// ---------------------------------------------------------------------------------------------------
// Determinism: the same calls on two solvers give the same bits.

std::vector<uint64_t> bits(const std::vector<double>& v) {
  std::vector<uint64_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * sizeof(double));
  return b;
}

struct Trace {
  std::vector<std::vector<uint64_t>> rates;  // after every solve
  std::vector<std::vector<EntryId>> changed;
};

Trace record(const Scenario& sc, uint64_t seed) {
  Trace t;
  std::mt19937_64 rng(seed);
  FlowSolver s;
  const testing_support::TorusFlowSystem system = make_system(s, sc.shape, {0, 1, 2}, TieRule::Plus, rng);
  std::vector<EntryId> live;
  auto snapshot = [&] {
    t.changed.push_back(s.solve());
    std::vector<double> rates;
    for (EntryId e = 0; e < s.entry_bound(); ++e) rates.push_back(s.alive(e) ? s.rate(e) : -1.0);
    t.rates.push_back(bits(rates));
    t.rates.push_back(bits(s.full_solve()));
  };
  const double caps[] = {kNoCap, 329e6, 350e6, 123.456e6};
  for (int batch = 0; batch < 40; ++batch) {
    const int changes = batch == 0 ? sc.max_flows : 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < changes; ++i) {
      if (!live.empty() && rng() % 2) {
        const size_t k = rng() % live.size();
        s.remove_flow(live[k]);
        live[k] = live.back();
        live.pop_back();
      } else {
        const int src = static_cast<int>(rng() % static_cast<uint64_t>(system.pe_count()));
        const int dst = static_cast<int>(rng() % static_cast<uint64_t>(system.pe_count()));
        live.push_back(s.add_flow(system.path(src, dst), caps[rng() % 4]));
      }
    }
    snapshot();
  }
  return t;
}

TEST(FlowSolver, SameCallsGiveBitwiseIdenticalRates) {
  for (const Scenario& sc : {kScenarios[4], kScenarios[8], kScenarios[11]}) {
    const Trace a = record(sc, 77);
    const Trace b = record(sc, 77);
    ASSERT_EQ(a.changed, b.changed) << sc.shape.name;
    ASSERT_EQ(a.rates.size(), b.rates.size()) << sc.shape.name;
    for (size_t i = 0; i < a.rates.size(); ++i)
      ASSERT_EQ(a.rates[i], b.rates[i]) << sc.shape.name << " solve " << i / 2;
  }
}

}  // namespace
