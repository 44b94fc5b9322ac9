#include "sim/core/machine/enum_params.hpp"

namespace t3sim::core {
namespace {

template <class E>
bool set_from(E& field, const std::string& text) {
  const auto value = enum_value<E>(text);
  if (value) field = *value;
  return value.has_value();
}

// One row per parameter: its path, its names, how to set it by name, and which transport reads it.
struct EnumParam {
  const char* path;
  std::vector<std::string> (*names)();
  std::string (*get)(const MachineSpec&);
  bool (*set)(MachineSpec&, const std::string&);
  ReadBy read_by;
};

const EnumParam kEnumParams[] = {
    {"network.switching", enum_names<Switching>,
     [](const MachineSpec& m) -> std::string { return enum_name(m.network.switching); },
     [](MachineSpec& m, const std::string& t) { return set_from(m.network.switching, t); }, ReadBy::PacketRouter},
    {"network.switch_hold", enum_names<SwitchHold>,
     [](const MachineSpec& m) -> std::string { return enum_name(m.network.switch_hold); },
     [](MachineSpec& m, const std::string& t) { return set_from(m.network.switch_hold, t); }, ReadBy::PacketRouter},
    {"network.dateline", enum_names<Dateline>,
     [](const MachineSpec& m) -> std::string { return enum_name(m.network.dateline); },
     [](MachineSpec& m, const std::string& t) { return set_from(m.network.dateline, t); }, ReadBy::PacketRouter},
    {"network.arbitration", enum_names<Arbitration>,
     [](const MachineSpec& m) -> std::string { return enum_name(m.network.arbitration); },
     [](MachineSpec& m, const std::string& t) { return set_from(m.network.arbitration, t); }, ReadBy::PacketRouter},
};

const EnumParam* find(const std::string& path) {
  for (const auto& p : kEnumParams)
    if (path == p.path) return &p;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& enum_param_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> out;
    for (const auto& p : kEnumParams) out.emplace_back(p.path);
    return out;
  }();
  return paths;
}

bool is_enum_param(const std::string& path) { return find(path) != nullptr; }

std::optional<ReadBy> enum_param_read_by(const std::string& path) {
  const EnumParam* p = find(path);
  return p != nullptr ? std::optional<ReadBy>(p->read_by) : std::nullopt;
}

std::string enum_param_choices(const std::string& path) {
  const EnumParam* p = find(path);
  return p != nullptr ? join_names(p->names(), ", ", " or ") : "";
}

std::vector<std::string> enum_param_names(const std::string& path) {
  const EnumParam* p = find(path);
  return p != nullptr ? p->names() : std::vector<std::string>{};
}

std::string enum_param_value(const MachineSpec& m, const std::string& path) {
  const EnumParam* p = find(path);
  return p != nullptr ? p->get(m) : "";
}

bool set_enum_param(MachineSpec& m, const std::string& path, const std::string& text) {
  const EnumParam* p = find(path);
  return p != nullptr && p->set(m, text);
}

std::optional<std::pair<std::string, std::string>> enum_param_inconsistency(const MachineSpec& m) {
  if (m.network.switch_hold == SwitchHold::Packet && m.network.switching != Switching::CutThrough)
    return std::make_pair(std::string("network.switch_hold"),
                          "packet needs network.switching: cut_through (a held wormhole packet can stall mid-way)");
  return std::nullopt;
}

}  // namespace t3sim::core
