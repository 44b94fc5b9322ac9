#include "sim/io/swap_pattern_reader.hpp"

#include <set>

#include "sim/core/units.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/yaml_map.hpp"

namespace t3sim::io {

core::SwapSpec read_swap_pattern(const YAML::Node& pattern, const WorkloadContext& ctx) {
  MapReader outer(pattern, ctx.file, "pattern");
  MapReader m(outer.required("swap"), ctx.file, "pattern.swap");
  core::SwapSpec spec;

  const std::string pairs_key = m.child_path("pairs");
  const YAML::Node pairs = sequence_value(m.required("pairs"), ctx.file, pairs_key);
  if (pairs.size() == 0) throw InputError(pos_of(ctx.file, pairs), pairs_key, "must list at least one pair");
  std::set<int> used;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string key = pairs_key + "[" + std::to_string(i) + "]";
    const YAML::Node pair = sequence_value(pairs[i], ctx.file, key);
    if (pair.size() != 2) throw InputError(pos_of(ctx.file, pair), key, "a pair is two PEs, [a, b]");
    const int a = resolve_pe(pair[0], ctx, key + "[0]");
    const int b = resolve_pe(pair[1], ctx, key + "[1]");
    if (a == b) throw InputError(pos_of(ctx.file, pair), key, "a PE cannot swap with itself", std::to_string(a));
    for (int pe : {a, b})
      if (!used.insert(pe).second)
        throw InputError(pos_of(ctx.file, pair), key, "PE " + std::to_string(pe) + " is already in another pair");
    spec.pairs.emplace_back(a, b);
  }

  std::string shown;
  const YAML::Node protocol = m.required("protocol");
  const std::string name = resolve_text(protocol, ctx, m.child_path("protocol"), &shown);
  const auto parsed = core::parse_swap_protocol(name);
  if (!parsed) {
    const std::string hint = closest_match(name, core::swap_protocol_names());
    throw InputError(pos_of(ctx.file, protocol), m.child_path("protocol"),
                     "unknown protocol" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"), shown);
  }
  spec.protocol = *parsed;
  spec.iterations = static_cast<int>(resolve_int(m.required("iterations"), ctx, m.child_path("iterations"), 1, 1000));
  spec.overlap = resolve_bool(m.required("overlap"), ctx, m.child_path("overlap"));
  if (auto work = m.optional("overlap_work")) {
    resolve_text(*work, ctx, m.child_path("overlap_work"), &shown);
    spec.overlap_work = quantity_value(*work, ctx.file, m.child_path("overlap_work"), core::Quantity::Time);
    if (spec.overlap_work < 0)
      throw InputError(pos_of(ctx.file, *work), m.child_path("overlap_work"), "must be >= 0", work->Scalar());
  }
  m.finish();
  outer.finish();
  return spec;
}

}  // namespace t3sim::io
