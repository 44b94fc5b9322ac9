// Machine parameters that name one of a few values rather than a quantity (network.switching,
// network.switch_hold, network.dateline, network.arbitration), so that `--param` and a study's axis can set them as
// they set a number: `--param network.switch_hold=packet`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/machine/machine_spec.hpp"

namespace t3sim::core {

// Whether `path` names such a parameter.
bool is_enum_param(const std::string& path);
// Which transport reads it (machine_params.hpp's ReadBy); nullopt when the path names none.
std::optional<ReadBy> enum_param_read_by(const std::string& path);
// The values it may take, as "a, b or c"; empty when the path names none.
std::string enum_param_choices(const std::string& path);
// Its values' names, in their table's order; empty when the path names none.
std::vector<std::string> enum_param_names(const std::string& path);
// The name of its value in `m` ("" when the path names none).
std::string enum_param_value(const MachineSpec& m, const std::string& path);
// Sets it from `text`; false (m unchanged) when the text names none of its values.
bool set_enum_param(MachineSpec& m, const std::string& path, const std::string& text);
// Its paths, for "did you mean".
const std::vector<std::string>& enum_param_paths();
// What the machine's network cannot combine (switch_hold: packet needs cut_through): the key at fault
// and why, or nullopt.
std::optional<std::pair<std::string, std::string>> enum_param_inconsistency(const MachineSpec& m);

}  // namespace t3sim::core
