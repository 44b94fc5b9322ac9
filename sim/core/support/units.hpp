// Physical quantities at the input boundary: "300MB/s", "1.5us", "2MiB", "150MHz".
// Inside t3sim every value is a double in SI base units: seconds, bytes, bytes/second, hertz.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace t3sim::core {

enum class Quantity {
  Time,       // seconds; units s, ms, us, ns, ps
  Bandwidth,  // bytes/second; units B/s, KB/s, MB/s, GB/s (10^3 steps), KiB/s, MiB/s, GiB/s
  Size,       // bytes; units B, KB, MB, GB, TB (10^3 steps), KiB, MiB, GiB, TiB
  Frequency,  // hertz; units Hz, kHz, MHz, GHz
  Count,      // a plain whole number, no unit
  Ratio,      // a plain real number, no unit
};

// The unit names a Quantity accepts, for messages and `t3sim describe` ("s|ms|us|ns|ps").
std::string_view unit_names(Quantity q);
// The unit a value is printed in by format_quantity ("us", "MB/s", "B", "MHz", "").
std::string_view display_unit(Quantity q);

// Parses text into SI units. On failure returns nullopt and sets *why to a short reason
// ("unit missing", "unknown unit 'Mb/s'", "not a number"). Rejects NaN and infinities.
std::optional<double> parse_quantity(std::string_view text, Quantity q, std::string* why);

// Prints an SI value back in display_unit with 7 significant digits, e.g. "10.36118us".
// parse_quantity(format_quantity(v, q), q) == v to 7 significant digits.
std::string format_quantity(double value, Quantity q);

// The value exactly, in SI units ("2.5000000000000001e-08s", "329053500B/s"):
// parse_quantity(format_quantity_exact(v, q), q) == v bit for bit (generated machine files, --param).
std::string format_quantity_exact(double value, Quantity q);

}  // namespace t3sim::core
