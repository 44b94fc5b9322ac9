// Reads a machine file (platforms/*.yaml) into a core::MachineSpec, strictly: see machine_params.hpp
// for every scalar key, and `t3sim describe machine` for the whole schema.
#pragma once
#include <string>

#include "sim/core/machine/machine_spec.hpp"

namespace t3sim::io {

core::MachineSpec load_machine(const std::string& path);

}  // namespace t3sim::io
