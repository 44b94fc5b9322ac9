// Where t3sim's data lives (platforms/, workloads/, validation/, bench/), found when the program runs:
// never a path fixed when it was built, so an installed or copied binary reads its own data.
#pragma once
#include <optional>
#include <string>

namespace t3sim::io {

struct DataDir {
  std::string path;          // the folder holding validation/, platforms/, workloads/, bench/
  std::string how;           // how it was found, for messages: "T3SIM_DATA", "installed", "source tree"
  bool source_tree = false;  // the source tree of the build tree the binary runs from
};

// In this order: the environment variable T3SIM_DATA; EXE_DIR/../share/t3sim (an installed binary:
// PREFIX/bin/t3sim); the source tree of the build tree holding the binary (its CMakeCache.txt names it).
// exe: the running binary's path (default: /proc/self/exe). nullopt when none is there.
std::optional<DataDir> find_data_dir(const std::string& exe = "");

// DATA/relative in the found data folder; throws InputError saying where it looked when there is none.
std::string data_file(const std::string& relative, const std::string& option);

}  // namespace t3sim::io
