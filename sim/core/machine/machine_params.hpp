// The declaration of every scalar machine parameter: key, quantity, default, range, doc, and whether
// `t3sim calibrate` fits it. The same tables drive the YAML loader, the range checks, `t3sim describe`
// and the calibrator, so no default or bound is written twice.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/support/units.hpp"

namespace t3sim::core {

// How a calibrated parameter is searched: start value and bounds, in SI units. A profile's parameters
// are searched on log(value), so their bounds are > 0; a network parameter (a suite's fit_network) on
// the value itself, between its bounds (0 allowed).
struct FitRange {
  double start;
  double lower;
  double upper;
};

// Which transport reads a parameter, so that bands and sensitivity (ranged_params) sample only what
// the run's driver reads: every driver; the flow model only (the fast and reference drivers); or the
// packet driver's routers (which the flow model's VC holding time, network.vc_hold_cycles > 0, also reads).
enum class ReadBy { Every, FlowModel, PacketRouter };

template <class Section>
struct ParamDecl {
  std::string key;
  Quantity quantity;
  std::optional<std::string> default_text;  // nullopt: required
  double min;                               // inclusive lower bound, SI
  bool min_exclusive;                       // true: value must be > min
  double max;                               // inclusive upper bound, SI
  std::string doc;
  std::optional<FitRange> fit;  // set for parameters `t3sim calibrate` may fit
  std::function<void(Section&, double)> set;
  std::function<double(const Section&)> get;
  ReadBy read_by = ReadBy::Every;
};

const std::vector<ParamDecl<NodeParams>>& node_params();
const std::vector<ParamDecl<NetworkParams>>& network_params();
const std::vector<ParamDecl<SoftwareProfile>>& profile_params();
const std::vector<ParamDecl<IoParams>>& io_params();

// Checks a value against a declaration's range. Returns the reason when out of range.
template <class Section>
std::optional<std::string> range_violation(const ParamDecl<Section>& d, double value);

// Structural keys that are not scalar parameters (documented for `t3sim describe`).
struct KeyDoc {
  std::string key;
  std::string type;
  std::string doc;
};
const std::vector<KeyDoc>& machine_structure_keys();

// The absolute limit on PEs t3sim accepts, and why (memory of per-pair routes grows as PEs^2).
constexpr int kMaxNodes = 65536;

}  // namespace t3sim::core
