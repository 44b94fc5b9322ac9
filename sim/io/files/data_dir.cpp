#include "sim/io/files/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "sim/io/files/input_error.hpp"

namespace t3sim::io {

namespace fs = std::filesystem;

namespace {

// The source folder a CMake build tree was configured from: CMakeCache.txt's t3sim_SOURCE_DIR line.
// Read at run time, so a build tree moved or deleted leaves nothing stale in the binary.
std::optional<fs::path> build_tree_source(const fs::path& exe_dir) {
  std::ifstream cache(exe_dir / "CMakeCache.txt");
  const std::string key = "t3sim_SOURCE_DIR:STATIC=";
  for (std::string line; std::getline(cache, line);)
    if (line.rfind(key, 0) == 0) return fs::path(line.substr(key.size()));
  return std::nullopt;
}

bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "platforms", ec) && fs::is_directory(dir / "validation", ec);
}

}  // namespace

std::optional<DataDir> find_data_dir(const std::string& exe) {
  if (const char* env = std::getenv("T3SIM_DATA"); env != nullptr && *env != '\0')
    return DataDir{env, "T3SIM_DATA", false};
  std::error_code ec;
  const fs::path self = fs::canonical(exe.empty() ? "/proc/self/exe" : exe, ec);
  if (ec) return std::nullopt;
  const fs::path dir = self.parent_path();
  if (const fs::path installed = dir.parent_path() / "share" / "t3sim"; holds_data(installed))
    return DataDir{installed.lexically_normal().string(), "installed", false};
  if (const auto source = build_tree_source(dir); source && holds_data(*source))
    return DataDir{source->string(), "source tree", true};
  return std::nullopt;
}

std::string data_file(const std::string& relative, const std::string& option) {
  const auto data = find_data_dir();
  if (!data)
    throw InputError({option, 0, 0}, "",
                     "no default " + relative +
                         ": t3sim's data is not in $T3SIM_DATA, nor in ../share/t3sim beside the binary, nor in a "
                         "source tree beside a build tree; give " +
                         option + " FILE or set T3SIM_DATA");
  return (fs::path(data->path) / relative).string();
}

}  // namespace t3sim::io
