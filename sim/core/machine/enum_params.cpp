#include "sim/core/machine/enum_params.hpp"

namespace t3sim::core {
namespace {

template <class E>
bool set_from(E& field, const std::string& text) {
  const auto value = enum_value<E>(text);
  if (value) field = *value;
  return value.has_value();
}

}  // namespace

const std::vector<std::string>& enum_param_paths() {
  static const std::vector<std::string> paths = {"network.switching", "network.switch_hold", "network.dateline"};
  return paths;
}

bool is_enum_param(const std::string& path) {
  for (const auto& p : enum_param_paths())
    if (p == path) return true;
  return false;
}

std::string enum_param_choices(const std::string& path) {
  if (path == "network.switching") return enum_names_text<Switching>(", ", " or ");
  if (path == "network.switch_hold") return enum_names_text<SwitchHold>(", ", " or ");
  if (path == "network.dateline") return enum_names_text<Dateline>(", ", " or ");
  return "";
}

bool set_enum_param(MachineSpec& m, const std::string& path, const std::string& text) {
  if (path == "network.switching") return set_from(m.network.switching, text);
  if (path == "network.switch_hold") return set_from(m.network.switch_hold, text);
  if (path == "network.dateline") return set_from(m.network.dateline, text);
  return false;
}

std::optional<std::pair<std::string, std::string>> enum_param_inconsistency(const MachineSpec& m) {
  if (m.network.switch_hold == SwitchHold::Packet && m.network.switching != Switching::CutThrough)
    return std::make_pair(std::string("network.switch_hold"),
                          "packet needs network.switching: cut_through (a held wormhole packet can stall mid-way)");
  return std::nullopt;
}

}  // namespace t3sim::core
