// Name tables of enums read from and written to files: one table per enum, looked up both ways.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace t3sim::core {

template <class E, size_t N>
using NameTable = std::pair<E, const char*>[N];

template <class E, size_t N>
const char* name_in(const NameTable<E, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

template <class E, size_t N>
std::optional<E> value_in(const NameTable<E, N>& table, const std::string& name) {
  for (const auto& [v, n] : table)
    if (name == n) return v;
  return std::nullopt;
}

template <class E, size_t N>
std::vector<std::string> names_in(const NameTable<E, N>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table) out.emplace_back(entry.second);
  return out;
}

}  // namespace t3sim::core
