#include "sim/io/workload/traffic_pattern_reader.hpp"

#include "sim/core/machine/machine_params.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {

core::PatternSpec read_traffic_pattern(const std::string& kind, const YAML::Node& node, const WorkloadContext& ctx) {
  const std::string path = "pattern." + kind;
  core::PatternSpec spec;
  const auto parsed = core::enum_value<core::PatternKind>(kind);
  if (!parsed) {
    std::vector<std::string> names = core::enum_names<core::PatternKind>();
    names.push_back("swap");
    names.push_back("stream");
    throw InputError(pos_of(ctx.file, node), "pattern." + kind, "unknown pattern" + did_you_mean(kind, names));
  }
  spec.kind = *parsed;
  // A pattern without parameters may be written `neighbor: {}`; null is the same.
  const YAML::Node params = node.IsNull() ? YAML::Node(YAML::NodeType::Map) : node;
  MapReader m(params, ctx.file, path);
  auto integer = [&](const char* key, long lo, long hi, long fallback) {
    auto n = m.optional(key);
    return n ? resolve_int(*n, ctx, m.child_path(key), lo, hi) : fallback;
  };
  spec.repetitions = static_cast<int>(integer("repetitions", 1, 100000, 1));
  if (spec.kind != core::PatternKind::Broadcast && spec.kind != core::PatternKind::Reduction)
    spec.messages = static_cast<int>(integer("messages", 1, 1024, 1));
  switch (spec.kind) {
    case core::PatternKind::Shift:
      spec.distance = static_cast<int>(integer("distance", -1000000, 1000000, 1));
      break;
    case core::PatternKind::DimShift: {
      // "tornado" is resolved once the grid is known: ceil(k/2) - 1 along the dimension.
      const auto dn = m.optional("distance");
      std::string shown;
      if (dn && resolve_text(*dn, ctx, m.child_path("distance"), &shown) == "tornado")
        spec.distance = 0;
      else
        spec.distance = static_cast<int>(integer("distance", -1000000, 1000000, 1));
      const YAML::Node d = m.required("dim");
      const std::string dim = resolve_text(d, ctx, m.child_path("dim"), &shown);
      spec.dim = dim == "x" ? 0 : dim == "y" ? 1 : dim == "z" ? 2 : -1;
      if (spec.dim < 0) throw InputError(pos_of(ctx.file, d), m.child_path("dim"), "must be x, y or z", shown);
      break;
    }
    case core::PatternKind::RandomPerm:
      spec.seed = static_cast<uint64_t>(integer("seed", 0, 2000000000L, 1));
      break;
    case core::PatternKind::AllToAll:
      spec.window = static_cast<int>(integer("window", 1, 1000000, 1));
      break;
    case core::PatternKind::HotSpot:
      spec.target = static_cast<int>(integer("target", 0, ctx.pes - 1, 0));
      break;
    case core::PatternKind::Broadcast:
    case core::PatternKind::Reduction:
      spec.root = static_cast<int>(integer("root", 0, ctx.pes - 1, 0));
      break;
    default:
      break;
  }
  if (spec.kind == core::PatternKind::DimShift || spec.kind == core::PatternKind::Neighbor) {
    if (auto gn = m.optional("grid")) {
      const std::string key = m.child_path("grid");
      const YAML::Node g = sequence_value(*gn, ctx.file, key);
      if (g.size() != 3) throw InputError(pos_of(ctx.file, g), key, "must list 3 sizes (x, y, z)");
      for (size_t i = 0; i < 3; ++i)
        spec.grid[i] = static_cast<int>(resolve_int(g[i], ctx, key + "[" + std::to_string(i) + "]", 1, 1000000));
    } else {
      spec.grid = core::balanced_grid(ctx.pes);
    }
    if (spec.kind == core::PatternKind::DimShift && spec.distance == 0)
      spec.distance = (spec.grid[spec.dim] + 1) / 2 - 1;
  }
  m.finish();
  const std::string problem = core::pattern_problem(spec, ctx.pes);
  if (!problem.empty()) throw InputError(pos_of(ctx.file, node), path, problem);
  return spec;
}

core::StreamSpec read_stream_pattern(const YAML::Node& node, const WorkloadContext& ctx) {
  core::StreamSpec spec;
  MapReader m(node, ctx.file, "pattern.stream");
  const YAML::Node traffic = m.required("traffic");
  spec.traffic = resolve_enum<core::StreamTraffic>(traffic, ctx, m.child_path("traffic"));
  auto integer = [&](const char* key, long lo, long hi, long fallback) {
    auto n = m.optional(key);
    return n ? resolve_int(*n, ctx, m.child_path(key), lo, hi) : fallback;
  };
  spec.messages = static_cast<int>(integer("messages", 1, 100000000, spec.messages));
  spec.block = static_cast<int>(integer("block", 1, 1000000, spec.block));
  spec.seed = static_cast<uint64_t>(integer("seed", 0, 2000000000L, 1));
  if (auto list = m.optional("permutation")) {
    const std::string key = m.child_path("permutation");
    const YAML::Node seq = sequence_value(*list, ctx.file, key);
    for (size_t i = 0; i < seq.size(); ++i)
      spec.permutation.push_back(
          static_cast<int>(resolve_int(seq[i], ctx, key + "[" + std::to_string(i) + "]", 0, core::kMaxNodes)));
  }
  if (auto g = m.optional("gap")) spec.gap = resolve_quantity(*g, ctx, m.child_path("gap"), core::Quantity::Time, 0, 1);
  m.finish();
  const std::string problem = core::stream_problem(spec, ctx.pes);
  if (!problem.empty()) throw InputError(pos_of(ctx.file, node), "pattern.stream", problem);
  return spec;
}

}  // namespace t3sim::io
