// The real TI trace corpus (tests/data/ti-real/): its traces' names and paths, for the tests that run
// every trace of it.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

namespace t3sim::test {

// The master file of corpus trace `name`.
inline std::string ti_corpus_trace(const std::string& name) {
  return std::string(T3SIM_SOURCE_DIR) + "/tests/data/ti-real/" + name + "/" + name + ".txt";
}

// Every trace of the corpus: the folders holding NAME/NAME.txt, sorted.
inline std::vector<std::string> ti_corpus_names() {
  std::vector<std::string> names;
  const std::filesystem::path root = std::string(T3SIM_SOURCE_DIR) + "/tests/data/ti-real";
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && std::filesystem::exists(entry.path() / (name + ".txt"))) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A corpus trace's name as a gtest parameter name (letters, digits and _).
inline std::string ti_corpus_test_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

}  // namespace t3sim::test
