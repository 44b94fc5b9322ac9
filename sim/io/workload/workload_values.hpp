// Values of workload files that may name a variable ($name) or the size sweep ($size): shared by the
// step reader and the pattern readers. Variables are text; each use parses them as what it needs.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/core/support/enum_names.hpp"
#include "sim/core/support/units.hpp"

namespace t3sim::io {

struct WorkloadContext {
  std::string file;
  int pes = 0;
  std::map<std::string, std::string> variables;
  std::optional<double> size;  // the current value of $size, when the workload sweeps sizes
};

// The scalar, or the value of the variable it names. `shown` gets what an error should quote.
std::string resolve_text(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key, std::string* shown);
long resolve_int(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key, long min, long max);
bool resolve_bool(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key);
int resolve_pe(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key);
// A quantity with its unit ("16ms", "81B"), in [min, max] (SI units).
double resolve_quantity(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key, core::Quantity q,
                        double min, double max);
// The position in `names` of the name the value holds, else an error "must be a, b or c".
size_t resolve_name(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key,
                    const std::vector<std::string>& names);
// A value of enum E by its name (its table, core/support/enum_names.hpp).
template <class E>
E resolve_enum(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key) {
  return name_table(E{})[resolve_name(n, ctx, key, core::enum_names<E>())].first;
}

}  // namespace t3sim::io
