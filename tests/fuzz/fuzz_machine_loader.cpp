// libFuzzer target: machine files (including `base:` derivation and every parameter rule).
#include "fuzz_input.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    t3sim::io::load_machine(t3sim::fuzz::input_file(data, size, ".yaml"));
  } catch (const t3sim::io::InputError&) {
  }
  return 0;
}
