// Names of enums as files, the command line and messages write them: one table per enum, declared beside
// the enum, and the one set of look-ups over it. A table lists every enumerator once as {value, name},
// in declaration order unless the enum's messages list the names otherwise; `name_table(E)` (found by
// argument-dependent lookup, in the enum's namespace) returns it, so enum_name(v), enum_value<E>(text), enum_names<E>()
// ... work for every tabled enum. tests/unit/enum_names_test.cpp checks every table: name -> value -> name, names
// unique, none missing.
#pragma once
#include <cstddef>
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

// `names` joined for messages and help: "a, b or c" with (", ", " or "), "a|b|c" with ("|").
std::string join_names(const std::vector<std::string>& names, const std::string& separator,
                       const std::string& last_separator);
inline std::string join_names(const std::vector<std::string>& names, const std::string& separator) {
  return join_names(names, separator, separator);
}

// The closest of `candidates` to `word` by edit distance, or "" when none is close: the one "did you
// mean" of t3sim (input files, traces, the command line).
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);
// "; did you mean 'x'?" for the closest candidate, or "" when none is close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

// The look-ups over an enum's own table (name_table(E{}), beside the enum).
template <class E>
const char* enum_name(E value) {
  return name_in(name_table(E{}), value);
}
template <class E>
std::optional<E> enum_value(const std::string& name) {
  return value_in(name_table(E{}), name);
}
template <class E>
std::vector<E> enum_values() {
  std::vector<E> out;
  for (const auto& entry : name_table(E{})) out.push_back(entry.first);
  return out;
}
template <class E>
std::vector<std::string> enum_names() {
  return names_in(name_table(E{}));
}
template <class E>
std::string enum_names_text(const std::string& separator, const std::string& last_separator) {
  return join_names(enum_names<E>(), separator, last_separator);
}
template <class E>
std::string enum_names_text(const std::string& separator) {
  return join_names(enum_names<E>(), separator);
}
template <class E>
std::string enum_did_you_mean(const std::string& word) {
  return did_you_mean(word, enum_names<E>());
}

}  // namespace t3sim::core
