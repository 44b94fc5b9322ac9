// libFuzzer target: workload files (steps, variables, sizes, swap and traffic patterns), loaded as
// given and with a --pes override, as `t3sim run --pes` does.
#include "fuzz_input.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/workload/workload_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = t3sim::fuzz::input_file(data, size, ".yaml");
  for (int pes : {0, 7}) {
    try {
      t3sim::io::load_workload(path, {}, pes);
    } catch (const t3sim::io::InputError&) {
    }
  }
  return 0;
}
