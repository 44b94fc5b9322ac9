#include <fmt/format.h>

#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/core/machine_params.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/shmem_trace_reader.hpp"
#include "sim/io/workload_loader.hpp"

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

}  // namespace

int cmd_describe(const std::string& what) {
  if (what == "machine") {
    std::cout << "Machine file (platforms/*.yaml). Structure:\n";
    print_keys(core::machine_structure_keys());
    std::cout << "\nParameters (values are strings with units, e.g. 300MB/s, 13.3ns, 150MHz):\n";
    std::cout << fmt::format("  {:<40} {:<36} {:<10} {:<28} {}\n", "key", "units", "default", "range", "meaning");
    print_params("node", core::node_params());
    print_params("network", core::network_params());
    print_params("software.profiles.NAME", core::profile_params());
    std::cout << "\n[calibrated] parameters are fitted by `t3sim calibrate` (at most 4 per profile).\n";
    return 0;
  }
  if (what == "workload") {
    std::cout << "Workload file (workloads/*.yaml):\n";
    print_keys(io::workload_keys());
    return 0;
  }
  if (what == "trace") {
    std::cout << "SHMEM trace (workloads/traces/*.t3t; format: workloads/README.md). Header: 't3sim-trace 1', "
                 "'pes N', optional 'name', 'doc', 'sizes' ($size);\nthen sections 'pe N | A-B | list | all'. "
                 "'pe LIST from FILE' reads the body from FILE. PE: absolute, or +k / -k from the running PE. "
                 "Operations (each also takes 'label NAME'):\n";
    print_keys(io::shmem_trace_operations());
    std::cout << "\nAny other file given to `run --trace` is read as a SimGrid time-independent MPI trace.\n";
    return 0;
  }
  throw io::InputError({"describe", 0, 0}, "", "describe takes 'machine', 'workload' or 'trace'", "'" + what + "'");
}

}  // namespace t3sim::cli
