#include "sim/io/files/input_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/io/files/input_error.hpp"

namespace t3sim::io {

std::ifstream open_input_file(const std::string& path, unsigned long long max_bytes) {
  const SourcePos whole{path, 0, 0};
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(whole, "", "no such file");
  if (std::filesystem::is_directory(status)) throw InputError(whole, "", "is a directory, not a file");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(whole, "", "is not a regular file (a device, FIFO or socket cannot be an input)");
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes)
    throw InputError(whole, "",
                     "is " + std::to_string(size >> 20) + " MiB; inputs are limited to " +
                         std::to_string(max_bytes >> 20) + " MiB (is this the right file?)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(whole, "", "cannot be read (no permission)");
  return in;
}

std::string read_input_file(const std::string& path, unsigned long long max_bytes) {
  std::ifstream in = open_input_file(path, max_bytes);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string path_beside(const std::string& file, const std::string& path) {
  const std::filesystem::path p(path);
  return p.is_absolute() ? p.string() : (std::filesystem::path(file).parent_path() / p).string();
}

}  // namespace t3sim::io
