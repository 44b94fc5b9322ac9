#include "sim/io/workload/workload_loader.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "sim/core/machine/machine_params.hpp"
#include "sim/io/workload/file_io_pattern_reader.hpp"
#include "sim/io/workload/swap_pattern_reader.hpp"
#include "sim/io/workload/traffic_pattern_reader.hpp"
#include "sim/io/workload/workload_values.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {

std::string message_size_problem(double bytes) {
  if (bytes < 1 || bytes > kMaxMessageBytes || bytes != static_cast<double>(static_cast<long long>(bytes)))
    return "must be a whole number of bytes from 1B to 1GiB";
  return "";
}

namespace {

// Refuses a workload that would expand beyond core::kMaxOperations, before building anything.
void check_operation_limit(double per_size, size_t sizes, int pes, const SourcePos& at, const std::string& key) {
  const double total = per_size * static_cast<double>(sizes);
  if (total > core::kMaxOperations)
    throw InputError(at, key,
                     fmt::format("would expand to about {:.3g} operations ({:.3g} per size x {} sizes) for {} PEs, "
                                 "over t3sim's limit of {:.3g} (a run needs about 0.7 KiB per operation: the limit "
                                 "keeps it near 11 GB); use fewer PEs, sizes, repetitions or messages",
                                 total, per_size, sizes, pes, core::kMaxOperations));
}

using Context = WorkloadContext;

std::string read_flag_name(const YAML::Node& n, const Context& ctx, const std::string& key) {
  const std::string name = scalar_text(n, ctx.file, key);
  if (!core::is_flag_name(name)) throw InputError(pos_of(ctx.file, n), key, core::kFlagNameRule, "'" + name + "'");
  return name;
}

int read_pe(MapReader& step, const std::string& key, const Context& ctx) {
  return resolve_pe(step.required(key), ctx, step.child_path(key));
}

double read_bytes(MapReader& step, const Context& ctx) {
  const YAML::Node n = step.required("bytes");
  const std::string key = step.child_path("bytes");
  double bytes = 0;
  if (scalar_text(n, ctx.file, key) == "$size") {
    if (!ctx.size) throw InputError(pos_of(ctx.file, n), key, "$size needs a top-level 'sizes' list");
    bytes = *ctx.size;
  } else {
    bytes = quantity_value(n, ctx.file, key, core::Quantity::Size);
  }
  if (const std::string problem = message_size_problem(bytes); !problem.empty())
    throw InputError(pos_of(ctx.file, n), key, problem, n.Scalar());
  return bytes;
}

// The operations a workload step may name, in the order `describe` lists them; the others come from
// patterns, traces and the message layer.
constexpr core::OpKind kStepKinds[] = {core::OpKind::Get,   core::OpKind::Put,     core::OpKind::Quiet,
                                       core::OpKind::Wait,  core::OpKind::Barrier, core::OpKind::Compute,
                                       core::OpKind::Write, core::OpKind::Read,    core::OpKind::Close};

bool is_step_kind(core::OpKind k) {
  return std::find(std::begin(kStepKinds), std::end(kStepKinds), k) != std::end(kStepKinds);
}

std::vector<std::string> step_kind_names() {
  std::vector<std::string> names;
  for (core::OpKind k : kStepKinds) names.emplace_back(core::enum_name(k));
  return names;
}

core::Op read_step(const YAML::Node& node, int index, const Context& ctx, core::Workload& w) {
  MapReader step(node, ctx.file, "steps[" + std::to_string(index) + "]");
  core::Op op;
  op.step = index;
  const std::string kind = step.string_at("op");
  const std::optional<core::OpKind> parsed = core::enum_value<core::OpKind>(kind);
  if (!parsed || !is_step_kind(*parsed))
    throw InputError(pos_of(ctx.file, node["op"]), step.child_path("op"),
                     "unknown operation" + did_you_mean(kind, step_kind_names()), "'" + kind + "'");
  op.kind = *parsed;
  if (op.kind == core::OpKind::Get) {
    op.pe = read_pe(step, "pe", ctx);
    op.peer = read_pe(step, "from", ctx);
    op.bytes = read_bytes(step, ctx);
  } else if (op.kind == core::OpKind::Put) {
    op.pe = read_pe(step, "pe", ctx);
    op.peer = read_pe(step, "to", ctx);
    op.bytes = read_bytes(step, ctx);
    if (auto c = step.optional("complete")) op.complete = resolve_bool(*c, ctx, step.child_path("complete"));
    if (auto s = step.optional("signal")) {
      op.flag = w.flags.intern(read_flag_name(*s, ctx, step.child_path("signal")));
      op.order = core::SignalOrder::Fence;
    }
    if (auto o = step.optional("order")) {
      const std::string key = step.child_path("order");
      const std::string text = scalar_text(*o, ctx.file, key);
      if (op.flag == core::kNoName) throw InputError(pos_of(ctx.file, *o), key, "needs a signal", "'" + text + "'");
      const auto order = core::enum_value<core::SignalOrder>(text);
      if (!order)
        throw InputError(pos_of(ctx.file, *o), key, "must be " + core::enum_names_text<core::SignalOrder>(", ", " or "),
                         "'" + text + "'");
      op.order = *order;
    }
  } else if (op.kind == core::OpKind::Quiet) {
    op.pe = read_pe(step, "pe", ctx);
  } else if (op.kind == core::OpKind::Wait) {
    op.pe = read_pe(step, "pe", ctx);
    op.flag = w.flags.intern(read_flag_name(step.required("flag"), ctx, step.child_path("flag")));
  } else if (op.kind == core::OpKind::Barrier) {
    op.pe = core::kAllPes;
  } else if (op.kind == core::OpKind::Compute) {
    op.pe = read_pe(step, "pe", ctx);
    auto secs = step.optional("seconds");
    auto flops = step.optional("flops");
    if (static_cast<bool>(secs) == static_cast<bool>(flops))
      throw InputError(pos_of(ctx.file, node), step.child_path("seconds"), "give exactly one of seconds or flops");
    if (secs) op.seconds = quantity_value(*secs, ctx.file, step.child_path("seconds"), core::Quantity::Time);
    if (auto d = step.optional("distribution")) {
      std::string shown;
      const std::string text = resolve_text(*d, ctx, step.child_path("distribution"), &shown);
      if (text == "exponential" && secs)
        op.exponential = true;
      else if (text != "fixed")
        throw InputError(pos_of(ctx.file, *d), step.child_path("distribution"),
                         secs ? "must be fixed or exponential" : "needs seconds (the mean)", shown);
    }
    if (flops) {
      op.flops = quantity_value(*flops, ctx.file, step.child_path("flops"), core::Quantity::Ratio);
      if (!(op.flops > 0))
        throw InputError(pos_of(ctx.file, *flops), step.child_path("flops"), "must be > 0", flops->Scalar());
    }
  } else {  // write, read, close
    op.pe = read_pe(step, "pe", ctx);
    const YAML::Node f = step.required("file");
    op.peer = static_cast<int>(w.files.intern(resolve_text(f, ctx, step.child_path("file"), nullptr)));
    if (op.kind != core::OpKind::Close) {
      op.bytes = read_bytes(step, ctx);
      op.flops = op.bytes;  // record_bytes(op): the whole call is one record unless `record` says
      if (auto r = step.optional("record"))
        op.flops = resolve_quantity(*r, ctx, step.child_path("record"), core::Quantity::Size, 1, kMaxMessageBytes);
      if (auto b = step.optional("buffering")) {
        op.io_mode = resolve_enum<core::IoMode>(*b, ctx, step.child_path("buffering"));
      }
    }
  }
  op.label = w.labels.intern(step.optional_string("label").value_or(kind + std::to_string(index)));
  step.finish();
  return op;
}

}  // namespace

LoadedWorkload load_workload(const std::string& path, const std::map<std::string, std::string>& overrides, int pes,
                             double size) {
  MapReader top = read_document(path);
  LoadedWorkload out;
  core::Workload& w = out.workload;
  w.name = top.string_at("name");
  w.doc = top.optional_string("doc").value_or("");
  out.pes_pos = top.key_pos("pes");
  w.pes = static_cast<int>(top.integer_at("pes", 1, static_cast<long>(core::kMaxNodes) * 8));
  if (pes > 0) {
    if (pes > core::kMaxNodes * 8)
      throw InputError({path, 0, 0}, "pes", "--pes beyond t3sim's limit of " + std::to_string(core::kMaxNodes * 8),
                       std::to_string(pes));
    w.pes = pes;
    out.pes_pos = {"--pes", 0, 0};
  }

  Context ctx{path, w.pes, {}, std::nullopt};
  if (auto vars = top.optional("variables")) {
    MapReader vm(*vars, path, "variables");
    for (const auto& name : vm.keys()) ctx.variables[name] = scalar_text(vm.node()[name], path, "variables." + name);
  }
  for (const auto& [name, value] : overrides) {
    if (!ctx.variables.count(name)) {
      std::vector<std::string> declared;
      for (const auto& [declared_name, value] : ctx.variables) declared.push_back(declared_name);
      throw InputError({path, 0, 0}, "variables." + name,
                       "--set names a variable the workload does not declare" + did_you_mean(name, declared));
    }
    ctx.variables[name] = value;
  }

  std::vector<std::optional<double>> sizes{std::nullopt};
  if (auto list = top.optional("sizes")) {
    sequence_value(*list, path, "sizes");
    if (list->size() == 0) throw InputError(pos_of(path, *list), "sizes", "must list at least one size");
    sizes.clear();
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string key = "sizes[" + std::to_string(i) + "]";
      sizes.push_back(quantity_value((*list)[i], path, key, core::Quantity::Size));
      if (const std::string problem = message_size_problem(*sizes.back()); !problem.empty())
        throw InputError(pos_of(path, (*list)[i]), key, problem, (*list)[i].Scalar());
    }
  }
  if (size > 0) {
    if (size > kMaxMessageBytes) throw InputError({"--size", 0, 0}, "", "must be at most 1GiB", std::to_string(size));
    sizes.assign(1, size);
  }
  if (top.has("pattern") == top.has("steps"))
    throw InputError(pos_of(path, top.node()), "steps", "give exactly one of 'steps' or 'pattern'");
  if (auto pattern = top.optional("pattern")) {
    if (pattern->IsMap() && pattern->size() == 1 && is_io_pattern(pattern->begin()->first.as<std::string>())) {
      const std::string kind = pattern->begin()->first.as<std::string>();
      if (top.has("sizes")) throw InputError(top.key_pos("sizes"), "sizes", "pattern '" + kind + "' takes no sizes");
      read_io_pattern(kind, pattern->begin()->second, ctx, w);
      top.finish();
      return out;
    }
    if (!sizes.front()) throw InputError(top.key_pos("pattern"), "sizes", "a pattern needs a 'sizes' list");
    // One pattern, or phases: a list of patterns that run one after the other in each measurement.
    const bool phased = pattern->IsSequence();
    if (phased && pattern->size() == 0) throw InputError(pos_of(path, *pattern), "pattern", "must list a phase");
    std::vector<core::PatternSpec> phases;
    double per_size = 0;
    for (size_t i = 0; i < (phased ? pattern->size() : 1); ++i) {
      const YAML::Node node = phased ? (*pattern)[i] : *pattern;
      const std::string where = phased ? "pattern[" + std::to_string(i) + "]" : "pattern";
      MapReader pm(node, path, where);
      const auto kinds = pm.keys();
      if (kinds.size() != 1) throw InputError(pos_of(path, node), where, "must name exactly one pattern");
      const std::string kind = kinds.front();
      w.pattern += (i ? "+" : "") + kind;
      if (kind == "swap") {
        if (phased)
          throw InputError(pm.key_pos(kind), where + ".swap", "a swap cannot be a phase (it has its own statistics)");
        const core::SwapSpec swap = read_swap_pattern(pm.node()[kind], ctx);
        // At most 9 operations per PE and swap (ready_send), plus a barrier per PE.
        check_operation_limit(static_cast<double>(w.pes) * (1 + 9.0 * swap.iterations * (swap.overlap ? 2 : 1)),
                              sizes.size(), w.pes, pm.key_pos(kind), where + ".swap");
        for (size_t it = 0; it < sizes.size(); ++it)
          core::append_swap_measurement(w, swap, *sizes[it], static_cast<int>(it));
        w.swap_iterations = swap.iterations;
        top.finish();
        return out;
      }
      if (kind == "stream") {
        if (phased) throw InputError(pm.key_pos(kind), where + ".stream", "a stream cannot be a phase");
        const core::StreamSpec stream = read_stream_pattern(pm.node()[kind], ctx);
        check_operation_limit(core::stream_operation_bound(stream, w.pes), sizes.size(), w.pes, pm.key_pos(kind),
                              where + ".stream");
        for (size_t it = 0; it < sizes.size(); ++it)
          core::append_stream_measurement(w, stream, w.pes, *sizes[it], static_cast<int>(it));
        top.finish();
        return out;
      }
      phases.push_back(read_traffic_pattern(kind, pm.node()[kind], ctx));
      per_size += core::pattern_operation_bound(phases.back(), w.pes);
      check_operation_limit(per_size, sizes.size(), w.pes, pm.key_pos(kind), where + "." + kind);
    }
    w.ops.reserve(static_cast<size_t>(per_size * static_cast<double>(sizes.size())));  // a bound: no regrowth
    for (size_t it = 0; it < sizes.size(); ++it)
      for (const auto& spec : phases)
        core::append_pattern_measurement(w, spec, w.pes, *sizes[it], static_cast<int>(it));
    top.finish();
    return out;
  }
  const YAML::Node steps = sequence_value(top.required("steps"), path, "steps");
  if (steps.size() == 0) throw InputError(pos_of(path, steps), "steps", "must list at least one step");
  if (static_cast<double>(steps.size()) * static_cast<double>(sizes.size()) > core::kMaxOperations)
    throw InputError(pos_of(path, steps), "steps",
                     fmt::format("{} steps x {} sizes is over t3sim's limit of {:.3g} operations", steps.size(),
                                 sizes.size(), core::kMaxOperations));
  for (size_t it = 0; it < sizes.size(); ++it) {
    ctx.size = sizes[it];
    for (size_t s = 0; s < steps.size(); ++s) {
      core::Op op = read_step(steps[s], static_cast<int>(s), ctx, w);
      op.iteration = static_cast<int>(it);
      w.ops.push_back(std::move(op));
    }
  }
  top.finish();
  return out;
}

const std::vector<core::KeyDoc>& workload_keys() {
  static const std::vector<core::KeyDoc> keys = {
      {"schema_version", "integer", "must be 1"},
      {"name", "string", "workload name used in reports and output file names"},
      {"doc", "string", "what the workload does (optional)"},
      {"pes", "integer >= 1", "PEs of the job: ids 0 .. pes-1; must not exceed the machine's PEs"},
      {"variables", "map name -> value", "named values steps may use as $name; `run --set name=v` overrides"},
      {"sizes", "list of sizes (8B, 2KiB, ...)",
       "the steps run once per size, in order; bytes: $size takes it; each a whole number of bytes from 1B to 1GiB"},
      {"steps", "list of maps", "the operations; each PE runs the steps naming it in list order"},
      {"pattern", "map, or list of maps",
       "one pattern; or phases: a list of traffic patterns run one after the other in each measurement"},
      {"pattern.stream", "map",
       "instead of steps: every PE sends message after message to a synthetic traffic pattern's destinations, "
       "at most the profile's outstanding_puts unacknowledged (BookSim's throughput mode), or with exponential "
       "gaps (its latency mode); one measurement per size, label 'stream'"},
      {"pattern.stream.traffic", core::enum_names_text<core::StreamTraffic>("|"),
       "BookSim's definitions over the PEs as a k-ary grid: uniform (random, itself included), tornado (each "
       "coordinate + ceil(k/2)-1), neighbor (each + 1), bitcomp, bitrev, shuffle (bits rotated left), transpose "
       "(bit halves swapped), randperm (seeded permutation); a message to itself crosses its router"},
      {"pattern.stream.messages", "integer >= 1 (optional)", "messages per PE; default 8000"},
      {"pattern.stream.block", "integer >= 1 (optional)",
       "uniform: destinations drawn per PE, sent again and again; default 256"},
      {"pattern.stream.seed", "integer (optional)", "uniform and randperm draws; default 1"},
      {"pattern.stream.permutation", "list of PEs (optional)",
       "randperm: PE p sends to the p-th entry (a permutation of 0..pes-1); default a seeded draw"},
      {"pattern.stream.gap", "time (optional)",
       "mean of an exponential gap before each message (latency mode); default 0: always backlogged"},
      {"pattern.swap", "map", "instead of steps: PSTSWM's ordered swap, once per size (sizes required)"},
      {"pattern.swap.pairs", "list of [PE, PE]", "the pairs that swap at the same time; a PE in one pair at most"},
      {"pattern.swap.pairing", "xor:K", "instead of pairs: every PE p with its partner p^K (the page's is xor:2)"},
      {"pattern.swap.protocol", core::enum_names_text<core::SwapProtocol>("|"),
       "the handshake sequence (sim/core/program/swap_pattern.hpp)"},
      {"pattern.swap.iterations", "integer >= 1", "swaps timed per measurement; the time is divided by it"},
      {"pattern.swap.overlap", "true|false", "split each swap into start and finish around overlap_work"},
      {"pattern.swap.overlap_work", "time", "computation between start and finish when overlapping; default 0s"},
      {"pattern.KIND", core::enum_names_text<core::PatternKind>("|"),
       "instead of swap: a synthetic traffic pattern (sim/core/program/traffic_pattern.hpp), once per size"},
      {"pattern.KIND.repetitions", "integer >= 1", "exchanges per measurement, each after a barrier; default 1"},
      {"pattern.KIND.distance", "integer | tornado", "shift, dim_shift: how far; default 1; tornado: ceil(k/2)-1"},
      {"pattern.KIND.dim", "x|y|z", "dim_shift: the grid dimension"},
      {"pattern.KIND.grid", "list of 3 integers",
       "dim_shift, neighbor: the job's PEs as an X x Y x Z grid, x fastest; default the most cubic"},
      {"pattern.KIND.seed", "integer", "random_perm: the permutation's seed; default 1"},
      {"pattern.KIND.window", "integer >= 1", "all_to_all: messages in flight per PE; default 1"},
      {"pattern.KIND.target", "PE", "hot_spot: the PE everyone sends to; default 0"},
      {"pattern.KIND.root", "PE", "broadcast, reduction: the tree's root; default 0"},
      {"steps[].op", core::join_names(step_kind_names(), "|"), "the operation"},
      {"steps[].pe", "PE id or $var", "the PE that issues it (not for barrier: all PEs take part)"},
      {"steps[].from", "PE id or $var", "get: the PE whose memory is read (== pe: a local copy)"},
      {"steps[].to", "PE id or $var", "put: the PE whose memory is written"},
      {"steps[].bytes", "size or $size", "get/put: message size; write/read: bytes of the call; 1B .. 1GiB"},
      {"steps[].complete", "true|false", "put: wait for delivery (shmem_put + shmem_quiet); default true"},
      {"steps[].signal", "flag name",
       "put: signal this flag at the target behind the data: the put, shmem_fence, then a flag put (8 B), each "
       "with its call cost; the flag rises once the data has landed"},
      {"steps[].order", core::enum_names_text<core::SignalOrder>("|"),
       "put with a signal: fence (default; orders delivery, no wait), quiet (wait until every put of the PE is "
       "acknowledged, then the flag put), none (the put is itself the flag put: one call)"},
      {"steps[].flag", "flag name", "wait: wait until this flag of pe is signalled, then consume the signal"},
      {"steps[].seconds", "time", "compute: duration (the mean, when exponential)"},
      {"steps[].distribution", "fixed|exponential",
       "compute: fixed (default) or a seeded exponential draw of mean `seconds` (each PE its own stream)"},
      {"steps[].file", "name", "write/read/close: the file (machine's io section: striped over its disks)"},
      {"steps[].record", "size", "write/read: bytes per record; default: the whole call is one record"},
      {"steps[].buffering", core::enum_names_text<core::IoMode>("|"),
       "write/read: as pattern.md.buffering; default none"},
      {"steps[].flops", "number", "compute: floating-point operations at the node's peak rate"},
      {"steps[].label", "string", "name reported with the step's timing; default op + step index"},
  };
  return keys;
}

void check_fits_machine(const LoadedWorkload& w, int machine_pes, const std::string& machine_name) {
  if (w.workload.pes > machine_pes)
    throw InputError(w.pes_pos, "pes",
                     "more PEs than machine '" + machine_name + "' has (" + std::to_string(machine_pes) + ")",
                     std::to_string(w.workload.pes));
}

}  // namespace t3sim::io
