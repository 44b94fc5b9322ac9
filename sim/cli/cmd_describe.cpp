#include <fmt/format.h>

#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/core/machine/enum_params.hpp"
#include "sim/core/machine/machine_params.hpp"
#include "sim/core/machine/param_ranges.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/trace/shmem/shmem_trace_reader.hpp"
#include "sim/io/trace/ti/ti_rank_reader.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace t3sim::cli {
namespace {

void print_keys(const std::vector<core::KeyDoc>& keys) {
  for (const auto& k : keys) std::cout << fmt::format("  {:<28} {:<30} {}\n", k.key, k.type, k.doc);
}

template <class Section>
void print_params(const std::string& section, const std::vector<core::ParamDecl<Section>>& decls) {
  for (const auto& d : decls) {
    const std::string unit = std::string(core::unit_names(d.quantity));
    const std::string range =
        fmt::format("{}{} .. {}", d.min_exclusive ? ">" : ">=", core::format_quantity(d.min, d.quantity),
                    core::format_quantity(d.max, d.quantity));
    std::cout << fmt::format("  {:<40} {:<36} {:<10} {:<28} {}{}\n", section + "." + d.key, unit,
                             d.default_text ? *d.default_text : "required", range, d.fit ? "[calibrated] " : "", d.doc);
  }
}

// One machine file's parameters: value, the range it may lie in and where that comes from.
void print_machine_values(const std::string& file, const std::vector<std::pair<std::string, std::string>>& params) {
  core::MachineSpec m = io::load_machine(file);
  protocol::RunRequest overrides;
  overrides.machine = file;
  overrides.params = params;
  apply_params(m, overrides);
  std::cout << fmt::format("{} ({}): {}\n", m.name, file, m.doc);
  std::string failed;
  for (core::LinkId l : m.failed_links) failed += " " + core::Torus::link_name(l);
  std::cout << fmt::format("  torus {}x{}x{}, routing {}, failed links:{}\n", m.dims[0], m.dims[1], m.dims[2],
                           core::enum_name(m.routing), failed.empty() ? " none" : failed);
  std::cout << fmt::format("  {:<44} {:>14} {:>26}  {}\n", "parameter", "value", "range", "range from");
  auto line = [&](const std::string& path, const std::string& value) {
    auto it = m.uncertainty.find(path);
    const bool ranged = it != m.uncertainty.end();
    const std::string range = ranged ? core::range_text(path, it->second) : "-";
    std::string from = ranged ? it->second.why : "";
    if (auto by = m.set_by.find(path); by != m.set_by.end())  // its base's range is not its range
      from = "set by " + by->second + (ranged ? "; " + from : ", no range");
    std::cout << fmt::format("  {:<44} {:>14} {:>26}  {}\n", path, value, range, from);
  };
  auto number = [&](const std::string& path, double value, core::Quantity q) {
    line(path, core::format_quantity(value, q));
  };
  for (const auto& d : core::node_params()) number("node." + d.key, d.get(m.node), d.quantity);
  for (const auto& d : core::network_params()) number("network." + d.key, d.get(m.network), d.quantity);
  for (const auto& path : core::enum_param_paths()) line(path, core::enum_param_value(m, path));  // (packet driver)
  if (m.has_io()) {
    std::string nodes;
    for (int n : m.io_nodes) nodes += " n" + std::to_string(n);
    std::cout << fmt::format("  I/O nodes:{}\n", nodes);
    for (const auto& d : core::io_params()) number("io." + d.key, d.get(m.io), d.quantity);
  }
  for (const auto& p : m.profiles)
    for (const auto& d : core::profile_params())
      number("software.profiles." + p.name + "." + d.key, d.get(p), d.quantity);
  for (const auto& [profile, own] : m.packet_driver)
    for (const auto& [key, value] : own.values) {
      const std::string path = "software.profiles." + profile + "." + key;
      std::cout << fmt::format(
          "  {:<44} {:>14} {:>26}  under --driver packet: fitted there to {} ({} rows, rms {:.4f})\n",
          "software.profiles." + profile + ".packet_driver." + key,
          core::format_quantity(value, *core::param_quantity(path)), "-", own.fit.suite, own.fit.points,
          own.fit.rms_rel_error);
    }
  std::cout
      << "\nA '-' range: the value is taken as exact (a measured or structural figure, or not yet given a range).\n"
      << "A value set over its base's (by a derived machine file or --param) has only the range its setter gives.\n";
}

}  // namespace

int cmd_describe(const std::string& what, const std::string& file,
                 const std::vector<std::pair<std::string, std::string>>& params) {
  if (what == "machine" && !file.empty()) {
    print_machine_values(file, params);
    return 0;
  }
  if (!params.empty())
    throw io::InputError({"--param", 0, 0}, "", "goes with 'describe machine FILE'", "'" + params[0].first + "'");
  if (!file.empty())
    throw io::InputError({"describe", 0, 0}, "", "only 'describe machine' takes a FILE", "'" + file + "'");
  if (what == "machine") {
    std::cout << "Machine file (platforms/*.yaml). Structure:\n";
    print_keys(core::machine_structure_keys());
    std::cout << "  uncertainty.(node|network).KEY, uncertainty.profiles.NAME.KEY: {range: LOW..HIGH, why: ...}, the "
                 "range an assumed value may lie in and why;\n  a fitted value's range is its profile's fit.range "
                 "(`t3sim calibrate --bootstrap N`). `t3sim describe machine FILE` lists a file's values and ranges.\n";
    std::cout << "\nParameters (values are strings with units, e.g. 300MB/s, 13.3ns, 150MHz):\n";
    std::cout << fmt::format("  {:<40} {:<36} {:<10} {:<28} {}\n", "key", "units", "default", "range", "meaning");
    print_params("node", core::node_params());
    print_params("network", core::network_params());
    print_params("io", core::io_params());
    print_params("software.profiles.NAME", core::profile_params());
    std::cout << "\n[calibrated] parameters are fitted by `t3sim calibrate` (at most 4 per profile).\n";
    return 0;
  }
  if (what == "workload") {
    std::cout << "Workload file (workloads/*.yaml):\n";
    print_keys(io::workload_keys());
    print_keys(io::io_pattern_keys());
    return 0;
  }
  if (what == "trace") {
    std::cout << "SHMEM trace (workloads/traces/*.t3t; format: workloads/README.md). Header: 't3sim-trace 1', "
                 "'pes N', optional 'name', 'doc', 'sizes' ($size);\nthen sections 'pe N | A-B | list | all'. "
                 "'pe LIST from FILE' reads the body from FILE. PE: absolute, or +k / -k from the running PE. "
                 "Operations (each also takes 'label NAME'):\n";
    print_keys(io::shmem_trace_operations());
    std::cout << "\nAny other file given to `run --trace` is read as a SimGrid 3.32 time-independent MPI trace "
                 "(`smpirun -trace-ti`; rules: workloads/README.md). Lines 'RANK ACTION ...'; TYPE is SimGrid's "
                 "datatype number (-1: derived, warned); actions:\n";
    for (const auto& k : io::ti_trace_actions()) std::cout << fmt::format("  {:<44} {}\n", k.key, k.doc);
    return 0;
  }
  throw io::InputError({"describe", 0, 0}, "", "describe takes 'machine', 'workload' or 'trace'", "'" + what + "'");
}

}  // namespace t3sim::cli
