// libFuzzer target: validation cases files and the suites they describe.
#include "fuzz_input.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/validation/cases_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    for (const auto& suite : t3sim::io::load_suites(t3sim::fuzz::input_file(data, size, ".yaml")))
      t3sim::io::load_suite_cases(suite);
  } catch (const t3sim::io::InputError&) {
  }
  return 0;
}
