// libFuzzer target: traces (`run --trace`), t3sim SHMEM traces and SimGrid TI traces alike, with the
// message layer eager and rendezvous and with a --pes override.
#include "fuzz_input.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/trace/trace_loader.hpp"

#include <vector>

// Far below t3sim's 16M: a legitimate trace of millions of operations takes seconds to expand under
// ASan, which the fuzzer would report as a hang; the limit's own check is what needs exercising.
constexpr double kMaxOperations = 1e5;

// A streamed TI trace's second reading, as a run makes it: every PE's operations, the PEs asking in
// turn (the first reading checked every line, so this must not throw or touch memory it should not).
void drain(t3sim::core::OpSource& source) {
  std::vector<bool> done(static_cast<size_t>(source.pes()), false);
  std::vector<t3sim::core::Op> ops;
  for (int left = source.pes(); left > 0;)
    for (int pe = 0; pe < source.pes(); ++pe) {
      if (done[static_cast<size_t>(pe)]) continue;
      ops.clear();
      if (!source.next_ops(pe, ops)) {
        done[static_cast<size_t>(pe)] = true;
        --left;
      }
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = t3sim::fuzz::input_file(data, size, ".t3t");
  for (int pes : {0, 7}) {
    try {
      const t3sim::io::LoadedWorkload w =
          t3sim::io::load_trace(path, {pes ? 4096.0 : 0.0}, pes, 0, kMaxOperations, false, false, kMaxOperations);
      if (w.workload.source) drain(*w.workload.source);
    } catch (const t3sim::io::InputError&) {
    }
  }
  return 0;
}
