// Writes a whole file or nothing: the text goes to a temporary name beside the target, then is renamed
// over it, so an interrupted run leaves the old file or the new one, never half of one.
#pragma once
#include <string>

namespace t3sim::io {

// Throws std::runtime_error naming the path when the file cannot be written.
void write_file_atomically(const std::string& path, const std::string& content);
std::string read_whole_file(const std::string& path);

}  // namespace t3sim::io
