// Shared by the fuzz targets: the loaders read files, so each input is written to a file first, and
// only the errors a loader documents (io::InputError, with file:line:column and key) are accepted.
// Anything else escaping a loader (another exception, a crash, a sanitizer report, a leak) is a bug,
// and libFuzzer stops on it.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace t3sim::fuzz {

// Writes the input to a per-process file with the given extension and returns its path.
inline std::string input_file(const uint8_t* data, size_t size, const std::string& ext) {
  const std::string path = "/tmp/t3sim-fuzz-" + std::to_string(getpid()) + ext;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace t3sim::fuzz
