// Every enum whose values have names (core/support/enum_names.hpp): each value's name leads back to it,
// no name twice, no enumerator missing; an unknown name gets a "did you mean".
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/calib/validation_spec.hpp"
#include "sim/core/messages/collectives.hpp"
#include "sim/core/program/packet_stream.hpp"
#include "sim/core/program/swap_pattern.hpp"
#include "sim/core/program/traffic_pattern.hpp"
#include "sim/core/program/workload.hpp"
#include "sim/core/routing/ordered_routes.hpp"
#include "sim/core/routing/routing.hpp"
#include "sim/core/support/enum_names.hpp"
#include "sim/engine/simulation.hpp"

namespace t3sim {
namespace {

// `first` .. `last` are the enumerators a table must hold (contiguous values); the table holds each once.
template <class E>
void check_table(E first, E last) {
  const auto& table = name_table(E{});
  std::set<std::string> names;
  std::set<int> values;
  for (const auto& [value, name] : table) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(std::string(name).empty());
    EXPECT_TRUE(names.insert(name).second) << "a name twice";
    EXPECT_TRUE(values.insert(static_cast<int>(value)).second) << "a value twice";
    const auto back = core::enum_value<E>(name);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, value);
    EXPECT_STREQ(core::enum_name(value), name);
  }
  for (int v = static_cast<int>(first); v <= static_cast<int>(last); ++v)
    EXPECT_TRUE(values.count(v)) << "enumerator " << v << " has no name";
  EXPECT_EQ(values.size(), static_cast<size_t>(static_cast<int>(last) - static_cast<int>(first) + 1));
  EXPECT_EQ(core::enum_names<E>().size(), values.size());
  EXPECT_FALSE(core::enum_value<E>("no such name").has_value());
}

TEST(EnumNames, EveryTableRoundTrips) {
  check_table(core::OpKind::Get, core::OpKind::Close);
  check_table(core::IoMode::Runtime, core::IoMode::Iobuf);
  check_table(core::SignalOrder::OnArrival, core::SignalOrder::Quiet);
  check_table(core::PatternKind::Shift, core::PatternKind::Reduction);
  check_table(core::SwapProtocol::NonblockingSend, core::SwapProtocol::ReadySend);
  check_table(core::Collective::Barrier, core::Collective::Exscan);
  check_table(core::RoutingKind::DimensionOrder, core::RoutingKind::MinimalAdaptive);
  check_table(core::TieRule::Plus, core::TieRule::Balanced);
  check_table(engine::Driver::Fast, engine::Driver::Packet);
  check_table(core::Switching::CutThrough, core::Switching::Wormhole);
  check_table(core::Dateline::Fixed, core::Dateline::None);
  check_table(core::SwitchHold::Flit, core::SwitchHold::Packet);
  check_table(core::Arbitration::RoundRobin, core::Arbitration::Age);
  check_table(core::StreamTraffic::Uniform, core::StreamTraffic::RandPerm);
  // RecordDuration is a metric without `statistic:`: it has no name.
  check_table(calib::Statistic::PeakBandwidth, calib::Statistic::LabelSpan);
  check_table(calib::MetricSpec::Holds::TimeSeconds, calib::MetricSpec::Holds::RateMBps);
}

TEST(EnumNames, NamesJoinForMessages) {
  EXPECT_EQ(core::enum_names_text<core::TieRule>(", ", " or "), "plus, minus or balanced");
  EXPECT_EQ(core::enum_names_text<core::SignalOrder>(", ", " or "), "fence, quiet or none");
  EXPECT_EQ(core::enum_names_text<core::IoMode>("|"), "none|iobuf");
  EXPECT_EQ(core::enum_names_text<core::RoutingKind>(", "),
            "dimension_order, direction_order, minimal_oblivious, minimal_adaptive");
  EXPECT_EQ(core::join_names({"a"}, ", ", " or "), "a");
  EXPECT_EQ(core::join_names({}, ", ", " or "), "");
}

TEST(EnumNames, UnknownNameGetsADidYouMean) {
  EXPECT_EQ(core::enum_did_you_mean<core::RoutingKind>("minimal_adaptve"), "; did you mean 'minimal_adaptive'?");
  EXPECT_EQ(core::enum_did_you_mean<core::SwapProtocol>("ready_sned"), "; did you mean 'ready_send'?");
  EXPECT_EQ(core::enum_did_you_mean<engine::Driver>("refrence"), "; did you mean 'reference'?");
  EXPECT_EQ(core::enum_did_you_mean<core::TieRule>("xyzzyxyzzy"), "");  // nothing close: no suggestion
}

}  // namespace
}  // namespace t3sim
