#include "sim/study/sweep_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "sim/io/files/atomic_file.hpp"
#include "sim/study/sweep_rows.hpp"

namespace t3sim::study {
namespace {

// The files of DIR/parts ending in `suffix`, in name order (deterministic merging).
std::vector<std::string> part_paths(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  const std::string parts = dir + "/parts";
  if (!std::filesystem::is_directory(parts)) return out;
  for (const auto& e : std::filesystem::directory_iterator(parts)) {
    const std::string name = e.path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        !(suffix == ".csv" && name.size() > 11 && name.compare(name.size() - 11, 11, ".timing.csv") == 0))
      out.push_back(e.path().string());
  }
  // Oldest first: JOB_TASK names by job, then task, as numbers (job 10 after job 9); others after, by name.
  const auto key = [](const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    const size_t us = name.find('_');
    char* end = nullptr;
    const long job = std::strtol(name.c_str(), &end, 10);
    if (us == std::string::npos || end != name.c_str() + us) return std::make_tuple(1, 0L, 0L, name);
    const long task = std::strtol(name.c_str() + us + 1, &end, 10);
    return std::make_tuple(0, job, task, name);
  };
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) { return key(a) < key(b); });
  return out;
}

// Complete lines of a file (a half-written last one dropped).
std::vector<std::string> complete_lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  return out;
}

}  // namespace

std::string other_study_in(const std::string& dir, const std::string& spec, const std::set<std::string>& ids) {
  // By rows, not by the study file: a study grown (or edited) keeps its folder, since its done points
  // are found again by id; only rows of points it does not have belong to another study.
  size_t foreign = 0;
  std::string example;
  for (const auto& [id, row] : rows_in_folder(dir))
    if (!ids.count(id) && foreign++ == 0) example = id;
  if (foreign == 0) return "";
  std::string other = std::to_string(foreign) + " rows of points that are not this study's, e.g. " + example;
  const std::string manifest = dir + "/sweep-manifest.json";
  if (std::filesystem::exists(manifest)) {
    const auto j = nlohmann::json::parse(io::read_whole_file(manifest), nullptr, false);
    const std::string mine = std::filesystem::absolute(spec).lexically_normal().string();
    if (!j.is_discarded() && j.contains("spec") && j["spec"].is_string() && j["spec"].get<std::string>() != mine)
      other += " (of the study " + j["spec"].get<std::string>() + ")";
  }
  return other;
}

std::string point_traffic_file(const std::string& dir, int index) {
  return dir + "/traffic/" + std::to_string(index) + ".json";
}

PartFiles part_files(const std::string& dir, const std::string& points_list) {
  const char* job = std::getenv("SLURM_ARRAY_JOB_ID");
  const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
  std::string base;
  if (job && task && *job && *task) {
    base = std::string(job) + "_" + task;
  } else {
    base = "points-" + points_list;
    std::replace(base.begin(), base.end(), ',', '_');
  }
  const std::string stem = dir + "/parts/" + base;
  return {stem + ".csv", stem + ".failed", stem + ".timing.csv"};
}

std::map<std::string, std::string> rows_in_folder(const std::string& dir) {
  std::map<std::string, std::string> rows = read_sweep_rows(dir + "/sweep.csv");
  for (const auto& path : part_paths(dir, ".csv"))
    for (auto& [id, row] : read_sweep_rows(path)) rows.emplace(id, row);  // the first seen wins
  return rows;
}

std::map<int, std::string> failures_in_folder(const std::string& dir) {
  std::map<int, std::string> failed;
  for (const auto& path : part_paths(dir, ".failed"))
    for (const auto& line : complete_lines(path)) {
      const size_t comma = line.find(',');
      if (comma == std::string::npos) continue;
      try {
        failed[std::stoi(line.substr(0, comma))] = line.substr(comma + 1);
      } catch (const std::exception&) {
        // not a failure line: skipped
      }
    }
  return failed;
}

CollectOutcome collect_parts(const std::vector<io::SweepPoint>& points, const std::string& dir,
                             const std::string& header) {
  const auto all_rows = rows_in_folder(dir);
  const auto failures = failures_in_folder(dir);
  // Every row found is kept (rows of points the study no longer lists too: a narrowed study loses no
  // results); those of the study's points take their current index.
  std::map<std::string, std::string> rows = all_rows;
  CollectOutcome c;
  c.total = points.size();
  for (const auto& p : points) {
    const auto it = rows.find(p.id());
    if (it != rows.end()) {
      it->second = reindexed(it->second, p.index);
      ++c.collected;
      continue;
    }
    c.missing.push_back(p.index);
    if (failures.count(p.index)) c.failed[p.index] = failures.at(p.index);
  }
  c.foreign = rows.size() - c.collected;
  io::write_file_atomically(dir + "/sweep.csv", sweep_csv_text(rows, header));
  // Wall times: the local run's file, then each task's; the last seen wins.
  std::map<std::string, std::string> timing;
  std::vector<std::string> sources = {dir + "/sweep-timing.csv"};
  for (const auto& path : part_paths(dir, ".timing.csv")) sources.push_back(path);
  for (const auto& path : sources)
    for (const auto& line : complete_lines(path)) {
      const size_t comma = line.rfind(',');
      if (line == "id,wall_s" || comma == std::string::npos) continue;
      timing[line.substr(0, comma)] = line;
    }
  std::string text = "id,wall_s\n";
  for (const auto& [id, line] : timing) text += line + "\n";
  io::write_file_atomically(dir + "/sweep-timing.csv", text);
  return c;
}

}  // namespace t3sim::study
