// The event calendar against a sorted reference: events scheduled on the heap and in lanes (by delay,
// more delays than lanes, a clock that sometimes steps back) come out in (time, sequence) order.
#include "sim/core/support/event_calendar.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

namespace t3sim::core {
namespace {

TEST(EventCalendar, EventsComeOutInTimeThenSequenceOrderFromLanesAndHeap) {
  std::mt19937_64 rng(11);
  EventCalendar calendar;
  std::map<std::pair<double, int>, int> due;  // the reference: (time, order scheduled) -> id
  int made = 0;
  int last_run = -1;
  double now = 0;
  auto schedule_some = [&] {
    const int n = static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      const int id = made++;
      const uint64_t r = rng() % 40;
      const double delay = r < 30 ? static_cast<double>(r % 24) * 0.25 : static_cast<double>(rng() % 1000) * 1e-3;
      EventCalendar::Callback then = [&last_run, id] { last_run = id; };
      if (rng() % 5 == 0)
        calendar.schedule(now + delay, then);
      else
        calendar.schedule_after(now, delay, then);
      due[{now + delay, id}] = id;
    }
  };
  for (int step = 0; step < 50000; ++step) {
    schedule_some();
    ASSERT_EQ(calendar.empty(), due.empty());
    ASSERT_EQ(calendar.size(), due.size());
    if (due.empty()) continue;
    const auto first = due.begin();
    ASSERT_EQ(calendar.next_time(), first->first.first);
    // The clock runs at the event's time, sometimes a hair before it (as a cycle rounded down).
    now = calendar.next_time() - (rng() % 8 == 0 ? 1e-6 : 0.0);
    calendar.pop()();
    ASSERT_EQ(last_run, first->second);
    due.erase(first);
  }
}

}  // namespace
}  // namespace t3sim::core
