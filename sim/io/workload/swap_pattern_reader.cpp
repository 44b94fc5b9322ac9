#include "sim/io/workload/swap_pattern_reader.hpp"

#include <set>

#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {

namespace {

// "xor:K": every PE p with p^K < N pairs with p^K (the PSTSWM page's 0<->2, 1<->3 is xor:2).
std::vector<std::pair<int, int>> xor_pairs(const YAML::Node& n, const WorkloadContext& ctx, const std::string& key) {
  std::string shown;
  const std::string text = resolve_text(n, ctx, key, &shown);
  long k = 0;
  try {
    size_t used = 0;
    if (text.rfind("xor:", 0) != 0) throw std::invalid_argument("prefix");
    k = std::stol(text.substr(4), &used);
    if (used != text.size() - 4) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw InputError(pos_of(ctx.file, n), key, "must be xor:K with K a whole number", shown);
  }
  if (k < 1 || k >= ctx.pes) throw InputError(pos_of(ctx.file, n), key, "K must be between 1 and pes-1", shown);
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < ctx.pes; ++p) {
    const int q = p ^ static_cast<int>(k);
    if (q > p && q < ctx.pes) pairs.emplace_back(p, q);
  }
  return pairs;
}

}  // namespace

core::SwapSpec read_swap_pattern(const YAML::Node& node, const WorkloadContext& ctx) {
  MapReader m(node, ctx.file, "pattern.swap");
  core::SwapSpec spec;

  if (m.has("pairing") == m.has("pairs"))
    throw InputError(pos_of(ctx.file, node), "pattern.swap.pairs", "give exactly one of 'pairs' or 'pairing'");
  if (auto pairing = m.optional("pairing")) spec.pairs = xor_pairs(*pairing, ctx, m.child_path("pairing"));
  const std::string pairs_key = m.child_path("pairs");
  const YAML::Node pairs =
      m.has("pairs") ? sequence_value(m.required("pairs"), ctx.file, pairs_key) : YAML::Node(YAML::NodeType::Sequence);
  if (m.has("pairs") && pairs.size() == 0)
    throw InputError(pos_of(ctx.file, pairs), pairs_key, "must list at least one pair");
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
  const auto parsed = core::enum_value<core::SwapProtocol>(name);
  if (!parsed)
    throw InputError(pos_of(ctx.file, protocol), m.child_path("protocol"),
                     "unknown protocol" + core::enum_did_you_mean<core::SwapProtocol>(name), shown);
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
  return spec;
}

}  // namespace t3sim::io
