// libFuzzer target: the transfers CSV reader of `t3sim bench`; its documented error is
// std::runtime_error naming the line.
#include <stdexcept>
#include <string>

#include "fuzz_input.hpp"
#include "sim/io/output/results_writer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    t3sim::io::parse_transfers_csv(std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
