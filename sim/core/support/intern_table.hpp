// Names (flags, labels) stored once and referred to by a dense integer id, so that millions of
// operations and records carry 4 bytes each instead of a string.
// Invariants: ids are 0, 1, 2, ... in the order names were first interned (deterministic for a given
// sequence of intern calls); the same name always has the same id; "" is never stored and stands as
// kNoName (-1), so name(kNoName) == "" and intern("") == kNoName.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace t3sim::core {

using NameId = int32_t;
constexpr NameId kNoName = -1;       // no flag, no label: the empty name
constexpr NameId kUnknownName = -2;  // what find() answers for a name never interned: no id equals it

class InternTable {
 public:
  // The id of `name`, adding it when new; kNoName for "".
  NameId intern(const std::string& name) {
    if (name.empty()) return kNoName;
    const auto [it, added] = ids_.emplace(name, static_cast<NameId>(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
  }
  // The id of `name` if it was interned (kNoName for ""), else kUnknownName: comparing ids with it is
  // comparing names.
  NameId find(const std::string& name) const {
    if (name.empty()) return kNoName;
    const auto it = ids_.find(name);
    return it == ids_.end() ? kUnknownName : it->second;
  }
  // The name of an id this table gave out; "" for kNoName.
  const std::string& name(NameId id) const { return id == kNoName ? empty_ : names_[static_cast<size_t>(id)]; }
  // Names stored (kNoName excluded): the ids are 0 .. size()-1.
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;  // by id
  std::unordered_map<std::string, NameId> ids_;
  std::string empty_;
};

}  // namespace t3sim::core
