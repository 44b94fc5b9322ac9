// Uncertainty of a machine's parameters: the range each one may lie in, and Latin-hypercube samples
// over those ranges (`t3sim run|sweep --uncertainty N`, `t3sim sensitivity`).
//
// Where a range comes from: an assumed parameter's from the machine file's `uncertainty:` section
// (a range and a stated reason: its source's spread or a judgement); a fitted one's from
// `t3sim calibrate --bootstrap B`, which refits the parameter on B resamples of the measurement rows
// and keeps the 5-95% spread of the refitted values (the profile's `fit.range`). Ranges are absolute
// values in SI units. A derived machine that scales a value (software.scale_with_clock) scales its range
// with it; a value set over the base's (a derived file's own value, --param, a study's axis) has only
// the range its setter gives (MachineSpec::set_by names the setter).
//
// Parameters are named by key path: node.KEY, network.KEY, io.KEY, software.profiles.PROFILE.KEY.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/support/units.hpp"

namespace t3sim::core {

// The value of a scalar machine parameter by key path, or nullopt when the path names none.
std::optional<double> param_value(const MachineSpec& m, const std::string& path);
// Sets it; false when the path names no parameter (the value is not range-checked here).
bool set_param(MachineSpec& m, const std::string& path, double value);
// The quantity of the parameter a path names (for parsing and printing), or nullopt.
std::optional<Quantity> param_quantity(const std::string& path);
// Why `value` is outside the range path's declaration allows (as a machine file is checked), or nullopt.
std::optional<std::string> param_range_violation(const std::string& path, double value);
// Which transport reads the parameter `path` names (its declaration's ReadBy; Every for none).
ReadBy param_read_by(const std::string& path);
// For a run under the packet driver: each profile's packet_driver values replace its own, and their
// ranges are the packet fit's (none when it gave none: the flow fit's spread is of other values); set_by
// names the packet driver's fit. Call before --param overrides, which then apply over them.
void use_packet_driver_values(MachineSpec& m);
// Every path `m` has a parameter at (node., network., io. when it has I/O nodes, each profile's), for
// "did you mean" on --param.
std::vector<std::string> param_paths(const MachineSpec& m);

// The ranged parameters that a run with `profile` depends on: node, network and that profile's keys,
// in key-path order, of those the run's driver reads (param_read_by): the flow model's own terms only
// under the flow drivers, the packet router's only under the packet driver (`packet_driver`) or where
// the flow model's VC holding time reads them (vc_hold_cycles > 0).
struct RangedParam {
  std::string path;
  ParamRange range;
  double nominal = 0;
  bool whole = false;  // a count (buffer flits, VCs) or a named parameter's choice: sampled as whole numbers
};
std::vector<RangedParam> ranged_params(const MachineSpec& m, const std::string& profile, bool packet_driver);
// A range as the tables write it: "LOW .. HIGH" with units, or a named parameter's "A | B".
std::string range_text(const std::string& path, const ParamRange& r);
// A sampled value as `--param` and the tables write it: a named parameter's choice by its index, else
// the quantity with its unit, exact (`exact`) or to 4 significant figures.
std::string ranged_value_text(const RangedParam& p, double value, bool exact);

// n points of a Latin hypercube over the ranges, uniform within each: for parameter d, point i lies
// in stratum perm_d(i) of n equal strata, at a uniform offset inside it. A whole-number parameter
// takes the integer that point falls on when [low, high + 1) is cut into its integers (each integer
// of the range equally likely; a count such as a buffer's flits has no value between two). Seeded and the same on every
// platform (std::mt19937_64, whose output the standard fixes; offsets from its top 53 bits).
// Returns n rows of one value per parameter, in the order of `params`.
std::vector<std::vector<double>> latin_hypercube(const std::vector<RangedParam>& params, int n, uint64_t seed);

// The q-quantile (0..1) of values by linear interpolation between order statistics (type 7, R's
// default); values need not be sorted. NaN when empty.
double quantile(std::vector<double> values, double q);

}  // namespace t3sim::core
