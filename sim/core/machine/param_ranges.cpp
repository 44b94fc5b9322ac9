#include "sim/core/machine/param_ranges.hpp"
#include "sim/core/support/seeded_permutation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/machine_params.hpp"

namespace t3sim::core {
namespace {

// Finds the declaration `key` in a section's table and applies `use` to it.
template <class Section, class Use>
bool with_decl(const std::vector<ParamDecl<Section>>& decls, const std::string& key, Use&& use) {
  for (const auto& d : decls)
    if (d.key == key) {
      use(d);
      return true;
    }
  return false;
}

// Splits "software.profiles.NAME.KEY" into NAME and KEY (the profile name may not contain a dot).
bool split_profile_path(const std::string& path, std::string* profile, std::string* key) {
  const std::string prefix = "software.profiles.";
  if (path.rfind(prefix, 0) != 0) return false;
  const std::string rest = path.substr(prefix.size());
  const size_t dot = rest.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size()) return false;
  *profile = rest.substr(0, dot);
  *key = rest.substr(dot + 1);
  return key->find('.') == std::string::npos;
}

// Applies `use(decl, section)` to the parameter a path names; false when it names none.
template <class Use>
bool visit(MachineSpec& m, const std::string& path, Use&& use) {
  if (path.rfind("node.", 0) == 0)
    return with_decl(node_params(), path.substr(5), [&](const auto& d) { use(d, m.node); });
  if (path.rfind("network.", 0) == 0)
    return with_decl(network_params(), path.substr(8), [&](const auto& d) { use(d, m.network); });
  if (path.rfind("io.", 0) == 0) return with_decl(io_params(), path.substr(3), [&](const auto& d) { use(d, m.io); });
  std::string profile, key;
  if (!split_profile_path(path, &profile, &key)) return false;
  for (auto& p : m.profiles)
    if (p.name == profile) return with_decl(profile_params(), key, [&](const auto& d) { use(d, p); });
  return false;
}

}  // namespace

std::vector<std::string> param_paths(const MachineSpec& m) {
  std::vector<std::string> paths;
  for (const auto& d : node_params()) paths.push_back("node." + d.key);
  for (const auto& d : network_params()) paths.push_back("network." + d.key);
  if (m.has_io())
    for (const auto& d : io_params()) paths.push_back("io." + d.key);
  for (const auto& p : m.profiles)
    for (const auto& d : profile_params()) paths.push_back("software.profiles." + p.name + "." + d.key);
  return paths;
}

std::optional<double> param_value(const MachineSpec& m, const std::string& path) {
  std::optional<double> out;
  visit(const_cast<MachineSpec&>(m), path, [&](const auto& d, const auto& section) { out = d.get(section); });
  return out;
}

bool set_param(MachineSpec& m, const std::string& path, double value) {
  return visit(m, path, [&](const auto& d, auto& section) { d.set(section, value); });
}

namespace {
// Calls use(declaration) for the parameter `path` names, of whichever section (no machine needed).
template <class Use>
void with_any_decl(const std::string& path, Use&& use) {
  if (path.rfind("node.", 0) == 0) with_decl(node_params(), path.substr(5), use);
  if (path.rfind("network.", 0) == 0) with_decl(network_params(), path.substr(8), use);
  if (path.rfind("io.", 0) == 0) with_decl(io_params(), path.substr(3), use);
  std::string profile, key;
  if (split_profile_path(path, &profile, &key)) with_decl(profile_params(), key, use);
}
}  // namespace

void use_packet_driver_values(MachineSpec& m) {
  for (const auto& [profile, own] : m.packet_driver)
    for (const auto& [key, value] : own.values) {
      const std::string path = "software.profiles." + profile + "." + key;
      if (!set_param(m, path, value)) throw std::logic_error("packet_driver names no parameter " + path);
      m.uncertainty.erase(path);
      if (const auto r = own.fit.ranges.find(key); r != own.fit.ranges.end()) m.uncertainty[path] = r->second;
      m.set_by[path] = "the packet driver's fit (packet_driver)";
    }
}

std::optional<Quantity> param_quantity(const std::string& path) {
  std::optional<Quantity> q;
  with_any_decl(path, [&](const auto& d) { q = d.quantity; });
  return q;
}

std::optional<std::string> param_range_violation(const std::string& path, double value) {
  std::optional<std::string> why;
  with_any_decl(path, [&](const auto& d) { why = range_violation(d, value); });
  return why;
}

ReadBy param_read_by(const std::string& path) {
  if (const auto named = enum_param_read_by(path)) return *named;
  ReadBy r = ReadBy::Every;
  with_any_decl(path, [&](const auto& d) { r = d.read_by; });
  return r;
}

std::vector<RangedParam> ranged_params(const MachineSpec& m, const std::string& profile, bool packet_driver) {
  const SoftwareProfile* p = m.find_profile(profile);
  const std::string own = p ? "software.profiles." + p->name + "." : "";
  const bool router_read = packet_driver || m.network.vc_hold_cycles > 0;  // (the holding time's classes)
  std::vector<RangedParam> out;
  for (const auto& [path, range] : m.uncertainty) {  // std::map: key-path order
    const bool shared = path.rfind("node.", 0) == 0 || path.rfind("network.", 0) == 0 || path.rfind("io.", 0) == 0;
    if (!shared && (own.empty() || path.rfind(own, 0) != 0)) continue;
    const ReadBy reader = param_read_by(path);
    if ((packet_driver && reader == ReadBy::FlowModel) || (!router_read && reader == ReadBy::PacketRouter)) continue;
    if (!range.choices.empty()) {  // a named parameter: its choice's index
      const auto at = std::find(range.choices.begin(), range.choices.end(), enum_param_value(m, path));
      if (at == range.choices.end())  // (the loader and --param keep the value among its choices)
        throw std::logic_error(path + ": its value is not among its choices");
      out.push_back({path, range, static_cast<double>(at - range.choices.begin()), true});
      continue;
    }
    const auto quantity = param_quantity(path);
    out.push_back({path, range, param_value(m, path).value_or(0), quantity && *quantity == Quantity::Count});
  }
  return out;
}

std::string range_text(const std::string& path, const ParamRange& r) {
  if (!r.choices.empty()) return join_names(r.choices, " | ");
  const Quantity q = *param_quantity(path);
  return format_quantity(r.low, q) + " .. " + format_quantity(r.high, q);
}

std::string ranged_value_text(const RangedParam& p, double value, bool exact) {
  if (!p.range.choices.empty()) {
    const size_t i = static_cast<size_t>(std::clamp(value, 0.0, static_cast<double>(p.range.choices.size() - 1)));
    return p.range.choices[i];
  }
  const Quantity q = *param_quantity(p.path);
  return exact ? format_quantity_exact(value, q) : format_quantity(value, q);
}

std::vector<std::vector<double>> latin_hypercube(const std::vector<RangedParam>& params, int n, uint64_t seed) {
  std::vector<std::vector<double>> rows(static_cast<size_t>(std::max(n, 0)), std::vector<double>(params.size()));
  std::mt19937_64 rng(seed);
  for (size_t d = 0; d < params.size(); ++d) {
    const std::vector<int> strata = seeded_permutation(n, rng());
    const ParamRange& r = params[d].range;
    for (int i = 0; i < n; ++i) {
      const double offset = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // uniform in [0, 1)
      const double u = (strata[static_cast<size_t>(i)] + offset) / n;
      double& value = rows[static_cast<size_t>(i)][d];
      if (params[d].whole) {
        const double low = std::ceil(r.low), high = std::floor(r.high);
        value = std::min(high, std::floor(low + u * (high - low + 1)));
      } else {
        value = r.low + u * (r.high - r.low);
      }
    }
  }
  return rows;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double h = (static_cast<double>(values.size()) - 1) * q;
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

}  // namespace t3sim::core
