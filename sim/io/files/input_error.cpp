#include "sim/io/files/input_error.hpp"

namespace t3sim::io {
namespace {

std::string format_message(const SourcePos& pos, const std::string& key, const std::string& what,
                           const std::string& got) {
  std::string msg = pos.file;
  if (pos.line > 0) msg += ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
  msg += ": ";
  if (!key.empty()) msg += key + ": ";
  msg += what;
  if (!got.empty()) msg += " (got " + got + ")";
  return msg;
}

}  // namespace

InputError::InputError(const SourcePos& pos, const std::string& key, const std::string& what, const std::string& got)
    : std::runtime_error(format_message(pos, key, what, got)), pos_(pos), key_(key) {}

}  // namespace t3sim::io
