#include "sim/io/machine/machine_loader.hpp"

#include "sim/core/machine/param_ranges.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/topology/failed_links.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {
namespace {

core::Coord read_dims(MapReader& torus) {
  const std::string key = torus.child_path("dims");
  const YAML::Node list = sequence_value(torus.required("dims"), torus.file(), key);
  if (list.size() != 3)
    throw InputError(pos_of(torus.file(), list), key, "must list 3 sizes (x, y, z)",
                     std::to_string(list.size()) + " items");
  core::Coord dims{};
  long nodes = 1;
  for (size_t d = 0; d < 3; ++d) {
    dims[d] =
        static_cast<int>(integer_value(list[d], torus.file(), key + "[" + std::to_string(d) + "]", 1, core::kMaxNodes));
    nodes *= dims[d];
  }
  if (nodes > core::kMaxNodes)
    throw InputError(pos_of(torus.file(), list), key,
                     "more than " + std::to_string(core::kMaxNodes) +
                         " nodes: per-pair routes and link state would not fit in memory",
                     std::to_string(nodes) + " nodes");
  return dims;
}

core::Coord read_order(MapReader& torus) {
  const std::string key = torus.child_path("dimension_order");
  const YAML::Node list = sequence_value(torus.required("dimension_order"), torus.file(), key);
  if (list.size() != 3) throw InputError(pos_of(torus.file(), list), key, "must list x, y and z once each");
  core::Coord order{};
  bool seen[3] = {false, false, false};
  for (size_t i = 0; i < 3; ++i) {
    const std::string name = scalar_text(list[i], torus.file(), key);
    const int d = name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
    if (d < 0) throw InputError(pos_of(torus.file(), list[i]), key, "must be x, y or z", "'" + name + "'");
    if (seen[d]) throw InputError(pos_of(torus.file(), list[i]), key, "names a dimension twice", "'" + name + "'");
    seen[d] = true;
    order[i] = d;
  }
  return order;
}

core::TieRule read_tie_rule(MapReader& torus) {
  const std::string text = torus.string_at("tie_rule");
  if (auto rule = core::enum_value<core::TieRule>(text)) return *rule;
  throw InputError(pos_of(torus.file(), torus.node()["tie_rule"]), torus.child_path("tie_rule"),
                   "must be " + core::enum_names_text<core::TieRule>(", ", " or "), "'" + text + "'");
}

// A key naming one value of an enum E (network.switching, network.dateline).
template <class E>
E read_enum_key(MapReader& section, const std::string& key) {
  const std::string text = section.string_at(key);
  if (auto value = core::enum_value<E>(text)) return *value;
  throw InputError(pos_of(section.file(), section.node()[key]), section.child_path(key),
                   "must be " + core::enum_names_text<E>(", ", " or "), "'" + text + "'");
}

core::RoutingKind read_routing(MapReader& torus) {
  const std::string text = torus.string_at("routing");
  if (auto kind = core::enum_value<core::RoutingKind>(text)) return *kind;
  throw InputError(pos_of(torus.file(), torus.node()["routing"]), torus.child_path("routing"),
                   "must be one of " + core::enum_names_text<core::RoutingKind>(", "), "'" + text + "'");
}

std::vector<core::LinkId> read_failed_links(MapReader& torus, const core::Torus& shape) {
  const std::string key = torus.child_path("failed_links");
  const YAML::Node list = sequence_value(torus.required("failed_links"), torus.file(), key);
  std::vector<core::LinkId> links;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string item_key = key + "[" + std::to_string(i) + "]";
    const std::string spec = scalar_text(list[i], torus.file(), item_key);
    const std::string wrong = core::parse_failed_link(shape, spec, links);
    if (!wrong.empty()) throw InputError(pos_of(torus.file(), list[i]), item_key, wrong, "'" + spec + "'");
  }
  core::normalise_links(links);
  return links;
}

// `io.nodes`: positions [x, y, z] in the torus, each one that holds no PE, none twice.
std::vector<int> read_io_nodes(MapReader& io, const core::MachineSpec& m) {
  const std::string key = io.child_path("nodes");
  const YAML::Node list = sequence_value(io.required("nodes"), io.file(), key);
  if (list.size() == 0) throw InputError(pos_of(io.file(), list), key, "must list at least one I/O node");
  const core::Torus torus = m.torus();
  const int populated = m.populated_nodes > 0 ? m.populated_nodes : torus.node_count();
  std::vector<int> nodes;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = key + "[" + std::to_string(i) + "]";
    const YAML::Node item = sequence_value(list[i], io.file(), at);
    if (item.size() != 3) throw InputError(pos_of(io.file(), item), at, "must be a position [x, y, z]");
    core::Coord c{};
    for (size_t d = 0; d < 3; ++d)
      c[d] = static_cast<int>(
          integer_value(item[d], io.file(), at + "[" + std::to_string(d) + "]", 0, torus.dims()[d] - 1));
    const int node = torus.node_id(c);
    if (node < populated)
      throw InputError(pos_of(io.file(), item), at,
                       "holds PEs (node " + std::to_string(node) + "; torus.populated_nodes is " +
                           std::to_string(populated) + "): an I/O node takes a position of its own");
    if (std::find(nodes.begin(), nodes.end(), node) != nodes.end())
      throw InputError(pos_of(io.file(), item), at, "names an I/O node twice", "node " + std::to_string(node));
    nodes.push_back(node);
  }
  return nodes;
}

// Reads every declared scalar of a section: present keys are parsed and range-checked, absent ones
// take their declared default or are reported missing. Returns the key paths that were given.
// With `inherited`, an absent key keeps the inherited value (a machine derived from a base).
template <class Section>
std::vector<std::string> read_params(MapReader& map, const std::vector<core::ParamDecl<Section>>& decls, Section& out,
                                     const Section* inherited = nullptr) {
  std::vector<std::string> given;
  for (const auto& d : decls) {
    const auto node = map.optional(d.key);
    double value = 0;
    if (!node && inherited) {
      value = d.get(*inherited);
    } else if (node) {
      value = quantity_value(*node, map.file(), map.child_path(d.key), d.quantity);
      if (auto why = core::range_violation(d, value))
        throw InputError(pos_of(map.file(), *node), map.child_path(d.key), *why, "'" + node->Scalar() + "'");
      given.push_back(map.child_path(d.key));
    } else if (d.default_text) {
      value = *core::parse_quantity(*d.default_text, d.quantity, nullptr);
    } else {
      throw InputError(pos_of(map.file(), map.node()), map.child_path(d.key), "required key is missing");
    }
    d.set(out, value);
  }
  return given;
}

// "LOW..HIGH", each a quantity of q, LOW <= HIGH.
core::ParamRange read_range_text(const YAML::Node& n, const std::string& file, const std::string& key,
                                 core::Quantity q) {
  const std::string text = scalar_text(n, file, key);
  const size_t dots = text.find("..");
  std::string why;
  std::optional<double> low, high;
  if (dots != std::string::npos) {
    low = core::parse_quantity(text.substr(0, dots), q, &why);
    if (low) high = core::parse_quantity(text.substr(dots + 2), q, &why);
  }
  if (!low || !high)
    throw InputError(pos_of(file, n), key,
                     "must be LOW..HIGH in " + std::string(core::unit_names(q)) + (why.empty() ? "" : ": " + why),
                     "'" + text + "'");
  if (*low > *high) throw InputError(pos_of(file, n), key, "LOW is above HIGH", "'" + text + "'");
  return {*low, *high, "", {}};
}

// The declaration of the calibrated profile parameter `key`, or null when it names none.
const core::ParamDecl<core::SoftwareProfile>* calibrated_decl(const std::string& key) {
  for (const auto& d : core::profile_params())
    if (d.key == key && d.fit) return &d;
  return nullptr;
}

core::FitRecord read_fit(const YAML::Node& node, const std::string& file, const std::string& path) {
  MapReader fit(node, file, path);
  core::FitRecord r;
  r.present = true;
  r.suite = fit.string_at("suite");
  r.points = static_cast<int>(fit.integer_at("points", 0, 1000000));
  r.rms_rel_error = fit.quantity_at("rms_rel_error", core::Quantity::Ratio);
  r.max_rel_error = fit.quantity_at("max_rel_error", core::Quantity::Ratio);
  if (fit.has("range")) {
    r.bootstrap = static_cast<int>(fit.integer_at("bootstrap", 2, 100000));
    MapReader ranges(fit.required("range"), file, fit.child_path("range"));
    for (const auto& key : ranges.keys()) {
      const core::ParamDecl<core::SoftwareProfile>* decl = calibrated_decl(key);
      if (!decl) throw InputError(ranges.key_pos(key), ranges.child_path(key), "names no calibrated parameter");
      core::ParamRange range = read_range_text(ranges.node()[key], file, ranges.child_path(key), decl->quantity);
      range.why = "fit: 5-95% of the values refitted on " + std::to_string(r.bootstrap) +
                  " residual-bootstrap data sets of " + r.suite + "'s " + std::to_string(r.points) + " rows";
      r.ranges[key] = range;
    }
    ranges.finish();
  }
  fit.finish();
  return r;
}

// software.profiles.NAME.packet_driver: the profile's own values under the packet driver, calibrated
// parameters only (each range-checked as the profile's own), and the record of their fit there.
core::PacketDriverValues read_packet_driver(const YAML::Node& node, const std::string& file, const std::string& path) {
  MapReader pd(node, file, path);
  core::PacketDriverValues out;
  std::vector<std::string> calibrated;
  for (const auto& d : core::profile_params())
    if (d.fit) calibrated.push_back(d.key);
  for (const auto& key : pd.keys()) {
    if (key == "fit") continue;
    const core::ParamDecl<core::SoftwareProfile>* decl = calibrated_decl(key);
    if (!decl) {
      const std::string hint = closest_match(key, calibrated);
      throw InputError(pd.key_pos(key), pd.child_path(key),
                       "names no calibrated parameter of a profile (the packet driver re-fits only those)" +
                           (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    const YAML::Node value_node = pd.required(key);
    const double value = quantity_value(value_node, file, pd.child_path(key), decl->quantity);
    if (auto why = core::range_violation(*decl, value))
      throw InputError(pos_of(file, value_node), pd.child_path(key), *why, "'" + value_node.Scalar() + "'");
    out.values[key] = value;
  }
  if (out.values.empty())
    throw InputError(pos_of(file, node), path,
                     "gives no value: name the calibrated parameters the packet driver re-fits");
  if (!pd.has("fit"))
    throw InputError(pos_of(file, node), path + ".fit",
                     "is missing: the packet driver's values come from `t3sim calibrate --driver packet`, which "
                     "writes its record there (start with 'fit: {suite: NAME, points: 0, rms_rel_error: 0, "
                     "max_rel_error: 0}')");
  out.fit = read_fit(pd.required("fit"), file, pd.child_path("fit"));
  for (const auto& [key, range] : out.fit.ranges)
    if (!out.values.count(key))
      throw InputError(pos_of(file, node), pd.child_path("fit") + ".range." + key,
                       "is the range of a value this packet_driver does not give");
  pd.finish();
  return out;
}

// Checks a range against its parameter: inside the declared bounds, and around the nominal value.
void check_range(const core::MachineSpec& m, const std::string& param, const core::ParamRange& r, const YAML::Node& n,
                 const std::string& file, const std::string& key) {
  const double nominal = core::param_value(m, param).value_or(0);
  const auto q = *core::param_quantity(param);
  if (r.low < 0) throw InputError(pos_of(file, n), key, "must not go below 0", "'" + n.Scalar() + "'");
  if (nominal < r.low * (1 - 1e-9) || nominal > r.high * (1 + 1e-9))
    throw InputError(pos_of(file, n), key, "must contain the parameter's value " + core::format_quantity(nominal, q),
                     "'" + n.Scalar() + "'");
}

// A named parameter's `choices: [A, B, ...]` (network.arbitration): at least two of its values, each
// once, the machine's own among them.
std::vector<std::string> read_choices(const core::MachineSpec& m, const std::string& param, const YAML::Node& n,
                                      const std::string& file, const std::string& key) {
  if (!n.IsSequence() || n.size() < 2)
    throw InputError(pos_of(file, n), key, "must list at least two of " + core::enum_param_choices(param),
                     n.IsSequence() ? fmt::format("{} value", n.size()) : "not a list");
  const std::vector<std::string> names = core::enum_param_names(param);
  std::vector<std::string> out;
  for (const auto& c : n) {
    const std::string name = c.IsScalar() ? c.Scalar() : "";
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw InputError(pos_of(file, c), key, "must name " + core::enum_param_choices(param), "'" + name + "'");
    if (std::find(out.begin(), out.end(), name) != out.end())
      throw InputError(pos_of(file, c), key, "names a value twice", "'" + name + "'");
    // (a choice the machine's other named rules rule out would fail only in the sampled run)
    core::MachineSpec with = m;
    core::set_enum_param(with, param, name);
    if (const auto wrong = core::enum_param_inconsistency(with))
      throw InputError(pos_of(file, c), key, "cannot be taken here: " + wrong->first + ": " + wrong->second,
                       "'" + name + "'");
    out.push_back(name);
  }
  const std::string own = core::enum_param_value(m, param);
  if (std::find(out.begin(), out.end(), own) == out.end())
    throw InputError(pos_of(file, n), key, "must contain the parameter's value " + own);
  return out;
}

// `uncertainty:` of a machine file: node/network/profiles.NAME -> key -> {range: LOW..HIGH, why: ...}, or for
// a named parameter (network.arbitration) {choices: [A, B], why: ...}.
void read_uncertainty(MapReader& top, const std::string& path, core::MachineSpec& m) {
  auto u = top.optional("uncertainty");
  if (!u) return;
  MapReader sections(*u, path, "uncertainty");
  auto read_entries = [&](const YAML::Node& node, const std::string& at, const std::string& param_prefix,
                          const std::vector<std::string>& names, const std::string& profile) {
    MapReader entries(node, path, at);
    for (const auto& key : entries.keys()) {
      const std::string where = entries.child_path(key);
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        const std::string hint = closest_match(key, names);
        throw InputError(entries.key_pos(key), where,
                         "names no parameter" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
      }
      const std::string param = param_prefix + key;
      if (!profile.empty() && m.fits.count(profile) && m.fits.at(profile).ranges.count(key))
        throw InputError(entries.key_pos(key), where,
                         "is calibrated: its range comes from the fit (software.profiles." + profile + ".fit.range)");
      MapReader e(entries.node()[key], path, where);
      const bool named = core::is_enum_param(param);
      if (named && e.has("range"))
        throw InputError(e.key_pos("range"), e.child_path("range"),
                         "a named parameter takes choices: [" + core::join_names(core::enum_param_names(param), ", ") +
                             "], not a range");
      if (!named && e.has("choices"))
        throw InputError(e.key_pos("choices"), e.child_path("choices"),
                         "only a named parameter takes choices; a number takes a range: LOW..HIGH");
      const YAML::Node range_node = e.required(named ? "choices" : "range");
      core::ParamRange r;
      if (named) {
        r.choices = read_choices(m, param, range_node, path, e.child_path("choices"));
        r.high = static_cast<double>(r.choices.size() - 1);
      } else {
        r = read_range_text(range_node, path, e.child_path("range"), *core::param_quantity(param));
      }
      const std::string why = e.string_at("why");
      if (why.empty()) throw InputError(e.key_pos("why"), e.child_path("why"), "must say why the range is what it is");
      // A range calibrate wrote (a network fit's model-form error) says so with "fit:"; others are assumed.
      r.why = why.rfind("assumed", 0) == 0 || why.rfind("fit:", 0) == 0 ? why : "assumed: " + why;
      e.finish();
      if (!named) check_range(m, param, r, range_node, path, e.child_path("range"));
      m.uncertainty[param] = r;
    }
    entries.finish();
  };
  auto names_of = [](const auto& decls) {
    std::vector<std::string> v;
    for (const auto& d : decls) v.push_back(d.key);
    return v;
  };
  for (const auto& section : sections.keys()) {
    if (section == "node") {
      read_entries(sections.node()[section], "uncertainty.node", "node.", names_of(core::node_params()), "");
    } else if (section == "network") {
      std::vector<std::string> names = names_of(core::network_params());
      for (const auto& named : core::enum_param_paths()) names.push_back(named.substr(std::string("network.").size()));
      read_entries(sections.node()[section], "uncertainty.network", "network.", names, "");
    } else if (section == "io") {
      if (!m.has_io()) throw InputError(sections.key_pos(section), "uncertainty.io", "the machine has no io section");
      read_entries(sections.node()[section], "uncertainty.io", "io.", names_of(core::io_params()), "");
    } else if (section == "profiles") {
      MapReader profiles(sections.node()[section], path, "uncertainty.profiles");
      for (const auto& name : profiles.keys()) {
        if (!m.find_profile(name))
          throw InputError(profiles.key_pos(name), profiles.child_path(name), "names no profile of this machine");
        read_entries(profiles.node()[name], profiles.child_path(name), "software.profiles." + name + ".",
                     names_of(core::profile_params()), name);
      }
      profiles.finish();
    } else {
      const std::string hint = closest_match(section, {"node", "network", "io", "profiles"});
      throw InputError(
          sections.key_pos(section), "uncertainty." + section,
          "must be node, network, io or profiles" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
  }
  sections.finish();
}

constexpr int kMaxBaseDepth = 4;

core::MachineSpec load_machine_at_depth(const std::string& path, int depth);

// Reads `torus`, `node`, `network` and `software` into m. With a base machine every section and key is
// optional and keeps the base's value. Returns the key paths given in this file.
std::vector<std::string> read_sections(MapReader& top, const std::string& path, core::MachineSpec& m, bool derived) {
  std::vector<std::string> sourced;  // key paths whose value needs a provenance entry
  auto section = [&](const std::string& key) -> std::optional<YAML::Node> {
    if (derived) return top.optional(key);
    return top.required(key);
  };
  if (auto t = section("torus")) {
    MapReader torus(*t, path, "torus");
    if (!derived || torus.has("dims")) m.dims = read_dims(torus), sourced.push_back("torus.dims");
    if (!derived || torus.has("dimension_order"))
      m.dimension_order = read_order(torus), sourced.push_back("torus.dimension_order");
    if (!derived || torus.has("tie_rule")) m.tie_rule = read_tie_rule(torus), sourced.push_back("torus.tie_rule");
    if (torus.has("routing")) m.routing = read_routing(torus), sourced.push_back("torus.routing");
    if (torus.has("adaptive_moves")) {  // a model setting: its provenance says why this value
      m.adaptive_moves = static_cast<int>(torus.integer_at("adaptive_moves", 0, 1000));
      sourced.push_back("torus.adaptive_moves");
    }
    // Failed links are a what-if of the file's author, not a measured value: no provenance asked.
    if (torus.has("failed_links")) m.failed_links = read_failed_links(torus, m.torus());
    if (torus.has("populated_nodes")) {
      m.populated_nodes = static_cast<int>(torus.integer_at("populated_nodes", 1, m.torus().node_count()));
      sourced.push_back("torus.populated_nodes");
    }
    // Inherited failed links name links of the base's torus: with other dims they would be other links.
    if (derived && torus.has("dims") && !torus.has("failed_links") && !m.failed_links.empty())
      throw InputError(top.key_pos("torus"), "torus.failed_links",
                       "inherited from the base, whose torus has other dims: give them again (or [])");
    torus.finish();
  }
  if (m.populated_nodes > m.torus().node_count())
    throw InputError(top.key_pos("torus"), "torus.populated_nodes", "more than the torus has",
                     std::to_string(m.populated_nodes));

  const core::NodeParams inherited_node = m.node;
  if (auto n = section("node")) {
    MapReader node(*n, path, "node");
    auto given = read_params(node, core::node_params(), m.node, derived ? &inherited_node : nullptr);
    sourced.insert(sourced.end(), given.begin(), given.end());
    if (const auto wrong = m.node_inconsistency()) {
      const std::string key = wrong->first.substr(5);
      throw InputError(node.has(key) ? pos_of(path, node.node()[key]) : top.key_pos("node"), wrong->first,
                       wrong->second, fmt::format("{:g}", *core::param_value(m, wrong->first)));
    }
    node.finish();
  }
  const core::NetworkParams inherited_net = m.network;
  if (auto n = section("network")) {
    MapReader net(*n, path, "network");
    if (net.has("switching"))
      m.network.switching = read_enum_key<core::Switching>(net, "switching"), sourced.push_back("network.switching");
    if (net.has("switch_hold")) {
      m.network.switch_hold = read_enum_key<core::SwitchHold>(net, "switch_hold");
      sourced.push_back("network.switch_hold");
    }
    // Either key may come from a base: named at the one this file gives.
    if (const auto wrong = core::enum_param_inconsistency(m)) {
      if (net.has("switch_hold"))
        throw InputError(pos_of(path, net.node()["switch_hold"]), wrong->first, wrong->second, "'packet'");
      throw InputError(pos_of(path, net.node()["switching"]), net.child_path("switching"),
                       "must be cut_through under network.switch_hold: packet (a held wormhole packet can stall "
                       "mid-way)",
                       "'" + std::string(core::enum_name(m.network.switching)) + "'");
    }
    if (net.has("dateline"))
      m.network.dateline = read_enum_key<core::Dateline>(net, "dateline"), sourced.push_back("network.dateline");
    if (net.has("arbitration")) {
      m.network.arbitration = read_enum_key<core::Arbitration>(net, "arbitration");
      sourced.push_back("network.arbitration");
    }
    auto given = read_params(net, core::network_params(), m.network, derived ? &inherited_net : nullptr);
    sourced.insert(sourced.end(), given.begin(), given.end());
    if (m.network.header_flits >= m.network.packet_flits)
      throw InputError(net.has("header_flits") ? pos_of(path, net.node()["header_flits"]) : top.key_pos("network"),
                       "network.header_flits", "must be less than network.packet_flits (a packet needs payload room)",
                       fmt::format("{:g} of {:g}", m.network.header_flits, m.network.packet_flits));
    net.finish();
  }

  if (auto n = top.optional("io")) {
    MapReader io(*n, path, "io");
    const bool inherit = derived && m.has_io();
    if (!inherit || io.has("nodes")) m.io_nodes = read_io_nodes(io, m), sourced.push_back("io.nodes");
    const core::IoParams inherited_io = m.io;
    auto given = read_params(io, core::io_params(), m.io, inherit ? &inherited_io : nullptr);
    sourced.insert(sourced.end(), given.begin(), given.end());
    if (const auto wrong = m.io_inconsistency()) {
      const std::string key = wrong->first.substr(3);
      throw InputError(io.has(key) ? pos_of(path, io.node()[key]) : io.key_pos("nodes"), wrong->first, wrong->second,
                       fmt::format("{:g}", *core::param_value(m, wrong->first)));
    }
    io.finish();
  } else if (m.has_io() && derived && top.has("torus")) {
    // Inherited I/O nodes are positions of the base's torus: they must still hold no PE.
    const int populated = m.populated_nodes > 0 ? m.populated_nodes : m.torus().node_count();
    for (int node : m.io_nodes)
      if (node < populated || node >= m.torus().node_count())
        throw InputError(top.key_pos("torus"), "io.nodes",
                         "inherited from the base: node " + std::to_string(node) +
                             " holds PEs or is off this torus; "
                             "give io.nodes again");
  }

  auto sw_node = section("software");
  if (!sw_node) return sourced;
  MapReader sw(*sw_node, path, "software");
  if (auto scale = sw.optional("scale_with_clock")) {
    if (!derived) throw InputError(sw.key_pos("scale_with_clock"), "software.scale_with_clock", "needs a base machine");
    const std::string key = "software.scale_with_clock";
    sequence_value(*scale, path, key);
    const double ratio = inherited_node.clock_hz / m.node.clock_hz;
    for (size_t i = 0; i < scale->size(); ++i) {
      const std::string name = scalar_text((*scale)[i], path, key);
      const core::ParamDecl<core::SoftwareProfile>* decl = nullptr;
      std::vector<std::string> times;
      for (const auto& d : core::profile_params())
        if (d.quantity == core::Quantity::Time) {
          times.push_back(d.key);
          if (d.key == name) decl = &d;
        }
      if (!decl) {
        const std::string hint = closest_match(name, times);
        throw InputError(
            pos_of(path, (*scale)[i]), key,
            "names no time parameter of a profile" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
            "'" + name + "'");
      }
      for (auto& p : m.profiles) decl->set(p, decl->get(p) * ratio);
      for (auto& [profile, own] : m.packet_driver)  // the base's values under the packet driver scale alike
        if (auto v = own.values.find(decl->key); v != own.values.end()) v->second *= ratio;
    }
    sourced.push_back(key);
  }
  if (auto pn = derived ? sw.optional("profiles") : std::optional<YAML::Node>(sw.required("profiles"))) {
    MapReader profiles(*pn, path, "software.profiles");
    for (const auto& name : profiles.keys()) {
      MapReader pr(profiles.node()[name], path, profiles.child_path(name));
      auto inherited = std::find_if(m.profiles.begin(), m.profiles.end(),
                                    [&](const core::SoftwareProfile& q) { return q.name == name; });
      const core::SoftwareProfile* base = inherited == m.profiles.end() ? nullptr : &*inherited;
      core::SoftwareProfile p = base ? *base : core::SoftwareProfile{};
      p.name = name;
      p.doc = pr.optional_string("doc").value_or(p.doc);
      auto given = read_params(pr, core::profile_params(), p, base);
      sourced.insert(sourced.end(), given.begin(), given.end());
      // A value this file gives replaces the base's under every driver: the base's packet fit of it goes.
      if (auto own = m.packet_driver.find(name); own != m.packet_driver.end()) {
        for (const auto& g : given) own->second.values.erase(g.substr(g.rfind('.') + 1));
        if (own->second.values.empty()) m.packet_driver.erase(own);
      }
      if (auto fit = pr.optional("fit")) m.fits[name] = read_fit(*fit, path, pr.child_path("fit"));
      if (auto pd = pr.optional("packet_driver"))
        m.packet_driver[name] = read_packet_driver(*pd, path, pr.child_path("packet_driver"));
      pr.finish();
      if (base)
        *inherited = std::move(p);  // a derived machine overrides the base's profile of that name
      else
        m.profiles.push_back(std::move(p));
    }
    profiles.finish();
  }
  if (!derived || sw.has("default_profile")) {
    m.default_profile = sw.string_at("default_profile");
    if (!m.find_profile(m.default_profile))
      throw InputError(pos_of(path, sw.node()["default_profile"]), "software.default_profile",
                       "names no profile under software.profiles", "'" + m.default_profile + "'");
  }
  sw.finish();
  return sourced;
}

}  // namespace

core::MachineSpec load_machine(const std::string& path) { return load_machine_at_depth(path, 0); }

namespace {

core::MachineSpec load_machine_at_depth(const std::string& path, int depth) {
  MapReader top = read_document(path);
  core::MachineSpec m;
  core::MachineSpec base_machine;  // as the base left it: a range follows its value when this file changes it
  bool derived = false;
  if (auto base = top.optional("base")) {
    if (depth >= kMaxBaseDepth)
      throw InputError(
          pos_of(path, *base), "base",
          "bases nest deeper than " + std::to_string(kMaxBaseDepth) + " (a machine that is its own base?)");
    const std::filesystem::path rel(scalar_text(*base, path, "base"));
    const std::string base_path = rel.is_absolute()
                                      ? rel.string()
                                      : (std::filesystem::path(path).parent_path() / rel).lexically_normal().string();
    m = load_machine_at_depth(base_path, depth + 1);
    m.fits.clear();  // the base's fit residuals say nothing about this machine
    // Its values under the packet driver are kept, as its profiles' are (scaled with them, and dropped
    // where this file gives a value of its own), with their fit's record: the base's fit.
    base_machine = m;
    derived = true;
  }
  m.name = top.string_at("name");
  m.doc = top.optional_string("doc").value_or("");
  const std::vector<std::string> sourced = read_sections(top, path, m, derived);
  // A value this file gives over its base's is this file's: the base's range and source no longer
  // describe it (read_uncertainty below adds the file's own range, if it gives one). A value changed
  // without being given (software.scale_with_clock) keeps the base's range, scaled with it.
  const auto given = [&](const std::string& param) {
    return std::find(sourced.begin(), sourced.end(), param) != sourced.end();
  };
  for (auto it = m.uncertainty.begin(); it != m.uncertainty.end();) {
    auto& [param, range] = *it;
    if (derived && given(param)) {
      it = m.uncertainty.erase(it);
      continue;
    }
    const auto was = core::param_value(base_machine, param), now = core::param_value(m, param);
    if (was && now && *was > 0 && *now != *was) {
      range.low *= *now / *was;
      range.high *= *now / *was;
    }
    ++it;
  }
  if (derived)
    for (const auto& s : sourced)
      if (core::param_value(m, s) || core::is_enum_param(s)) {
        m.set_by[s] = std::filesystem::path(path).filename().string();
        m.provenance.erase(s);  // the base's source of the value; this file's own (checked below) replaces it
      }
  for (const auto& [profile, fit] : m.fits)
    for (const auto& [key, range] : fit.ranges) m.uncertainty["software.profiles." + profile + "." + key] = range;
  read_uncertainty(top, path, m);

  MapReader prov(top.required("provenance"), path, "provenance");
  std::map<std::string, std::string> own;  // this file's sources; a base's cover only what it gave
  for (const auto& key : prov.keys()) {
    const bool names_a_key = std::any_of(sourced.begin(), sourced.end(),
                                         [&](const std::string& s) { return s == key || s.rfind(key + ".", 0) == 0; });
    if (!names_a_key) {
      const std::string hint = closest_match(key, sourced);
      throw InputError(prov.key_pos(key), "provenance." + key,
                       "names no key given in this file" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    own[key] = scalar_text(prov.node()[key], path, "provenance." + key);
  }
  prov.finish();
  for (const auto& s : sourced) {
    bool covered = false;
    for (std::string k = s;; k = k.substr(0, k.rfind('.'))) {
      if (own.count(k)) covered = true;
      if (covered || k.find('.') == std::string::npos) break;
    }
    if (!covered)
      throw InputError(prov.key_pos(prov.keys().empty() ? "" : prov.keys().front()), "provenance",
                       "no source given for '" + s + "' (add 'provenance: " + s + ": ...' or 'calibrated: ...')");
  }
  for (auto& [key, text] : own) m.provenance[key] = std::move(text);
  top.finish();
  return m;
}

}  // namespace
}  // namespace t3sim::io
