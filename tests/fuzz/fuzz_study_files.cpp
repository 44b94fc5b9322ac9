// libFuzzer target: sweep (study) files and bench suite files, both strict YAML with file paths.
#include "fuzz_input.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/study/bench_suite.hpp"
#include "sim/io/study/sweep_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = t3sim::fuzz::input_file(data, size, ".yaml");
  try {
    t3sim::io::sweep_points(t3sim::io::load_sweep(path));
  } catch (const t3sim::io::InputError&) {
  }
  try {
    t3sim::io::load_bench_suite(path);
  } catch (const t3sim::io::InputError&) {
  }
  return 0;
}
