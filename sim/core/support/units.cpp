#include "sim/core/support/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace t3sim::core {
namespace {

struct UnitScale {
  std::string_view name;
  double factor;  // SI value of one unit
};

constexpr std::array<UnitScale, 5> kTime{{{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}}};
// Decimal prefixes for B are powers of 1000 (as the newsletter's "MB = 1e6 bytes"), binary ones 1024.
constexpr std::array<UnitScale, 9> kSize{{{"B", 1.0},
                                          {"KB", 1e3},
                                          {"MB", 1e6},
                                          {"GB", 1e9},
                                          {"TB", 1e12},
                                          {"KiB", 1024.0},
                                          {"MiB", 1048576.0},
                                          {"GiB", 1073741824.0},
                                          {"TiB", 1099511627776.0}}};
constexpr std::array<UnitScale, 4> kFrequency{{{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}}};

template <size_t N>
std::optional<double> scale_of(const std::array<UnitScale, N>& table, std::string_view unit) {
  for (const auto& u : table)
    if (u.name == unit) return u.factor;
  return std::nullopt;
}

std::optional<double> unit_factor(Quantity q, std::string_view unit) {
  switch (q) {
    case Quantity::Time:
      return scale_of(kTime, unit);
    case Quantity::Size:
      return scale_of(kSize, unit);
    case Quantity::Frequency:
      return scale_of(kFrequency, unit);
    case Quantity::Bandwidth:
      if (unit.size() > 2 && unit.substr(unit.size() - 2) == "/s")
        return scale_of(kSize, unit.substr(0, unit.size() - 2));
      return std::nullopt;
    case Quantity::Count:
    case Quantity::Ratio:
      if (unit.empty()) return 1.0;
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::string_view unit_names(Quantity q) {
  switch (q) {
    case Quantity::Time:
      return "s|ms|us|ns|ps";
    case Quantity::Bandwidth:
      return "B/s|KB/s|MB/s|GB/s|KiB/s|MiB/s|GiB/s";
    case Quantity::Size:
      return "B|KB|MB|GB|TB|KiB|MiB|GiB|TiB";
    case Quantity::Frequency:
      return "Hz|kHz|MHz|GHz";
    case Quantity::Count:
      return "whole number";
    case Quantity::Ratio:
      return "number";
  }
  return "";
}

std::string_view display_unit(Quantity q) {
  switch (q) {
    case Quantity::Time:
      return "us";
    case Quantity::Bandwidth:
      return "MB/s";
    case Quantity::Size:
      return "B";
    case Quantity::Frequency:
      return "MHz";
    case Quantity::Count:
    case Quantity::Ratio:
      return "";
  }
  return "";
}

std::optional<double> parse_quantity(std::string_view text, Quantity q, std::string* why) {
  auto fail = [&](std::string reason) -> std::optional<double> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || ptr == begin) return fail("not a number");
  if (!std::isfinite(number)) return fail("not a finite number");
  std::string_view unit(ptr, static_cast<size_t>(end - ptr));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (q == Quantity::Count && (!unit.empty() || number != std::floor(number))) return fail("expected a whole number");
  if (unit.empty() && q != Quantity::Count && q != Quantity::Ratio)
    return fail(std::string("unit missing (one of ") + std::string(unit_names(q)) + ")");
  auto factor = unit_factor(q, unit);
  if (!factor) return fail("unknown unit '" + std::string(unit) + "' (one of " + std::string(unit_names(q)) + ")");
  const double value = number * *factor;
  if (!std::isfinite(value)) return fail("out of range");
  return value;
}

std::string format_quantity_exact(double value, Quantity q) {
  // Each table's first unit is the SI one (factor 1); a bandwidth is a size per second.
  std::string unit;
  if (q == Quantity::Time) unit = kTime[0].name;
  if (q == Quantity::Size || q == Quantity::Bandwidth) unit = kSize[0].name;
  if (q == Quantity::Bandwidth) unit += "/s";
  if (q == Quantity::Frequency) unit = kFrequency[0].name;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return buf + unit;
}

std::string format_quantity(double value, Quantity q) {
  double shown = value;
  if (q == Quantity::Time) shown = value * 1e6;
  if (q == Quantity::Bandwidth || q == Quantity::Frequency) shown = value / 1e6;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.7g", shown);
  return std::string(buf) + std::string(display_unit(q));
}

}  // namespace t3sim::core
