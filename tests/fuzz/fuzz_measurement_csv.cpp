// libFuzzer target: recorded-measurement CSV files, every cell read as a number.
#include "fuzz_input.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/validation/measurement_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto table = t3sim::io::MeasurementTable::read(t3sim::fuzz::input_file(data, size, ".csv"));
    for (size_t r = 0; r < table.row_count(); ++r)
      for (const char* col : {"bytes", "time_s", "remote_time_s", "bandwidth_MBps", "latency_us"}) {
        try {
          table.positive_number(r, table.column(col));
        } catch (const t3sim::io::InputError&) {
        }
      }
  } catch (const t3sim::io::InputError&) {
  }
  return 0;
}
