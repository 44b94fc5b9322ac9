// libFuzzer target: traces (`run --trace`), t3sim SHMEM traces and SimGrid TI traces alike, with the
// message layer eager and rendezvous and with a --pes override.
#include "fuzz_input.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/trace_loader.hpp"

// Far below t3sim's 16M: a legitimate trace of millions of operations takes seconds to expand under
// ASan, which the fuzzer would report as a hang; the limit's own check is what needs exercising.
constexpr double kMaxOperations = 1e5;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = t3sim::fuzz::input_file(data, size, ".t3t");
  for (int pes : {0, 7}) {
    try {
      t3sim::io::load_trace(path, pes ? 4096 : 0, pes, 0, kMaxOperations, false, false, kMaxOperations);
    } catch (const t3sim::io::InputError&) {
    }
  }
  return 0;
}
