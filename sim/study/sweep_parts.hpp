// Where the tasks of a study run through Slurm leave their results, and `sweep --collect`: every task
// appends to files of its own under DIR/parts/ (rows, failures, wall times), named after its array job
// and task; collecting merges them with DIR/sweep.csv into sweep.csv in point order, the bytes a local
// run of the same study writes, and says which points are still missing or failed.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/io/study/sweep_spec.hpp"

namespace t3sim::study {

// A task's files: DIR/parts/BASE.csv (rows), BASE.failed ("index,exit status,message" lines) and
// BASE.timing.csv ("id,wall_s"). BASE is JOB_TASK under Slurm (SLURM_ARRAY_JOB_ID,
// SLURM_ARRAY_TASK_ID), else points-LIST for a task started by hand.
struct PartFiles {
  std::string rows, failed, timing;
};
PartFiles part_files(const std::string& dir, const std::string& points_list);

// DIR/traffic/INDEX.json: the traffic report point INDEX's run wrote (`run --traffic`), what the
// report draws the most loaded point's heat map from.
std::string point_traffic_file(const std::string& dir, int index);

// Every complete row under DIR: DIR/sweep.csv and all DIR/parts/*.csv, by point id.
std::map<std::string, std::string> rows_in_folder(const std::string& dir);

// What of another study DIR holds, in words ("3 rows of points that are not this study's, e.g. ID (of
// the study /a/b.yaml)"), or "" when every row under DIR (sweep.csv, parts/) is one of this study's
// points (`ids`; `spec` the study file as given, to compare with DIR/sweep-manifest.json's).
std::string other_study_in(const std::string& dir, const std::string& spec, const std::set<std::string>& ids);

// Failures recorded by tasks (DIR/parts/*.failed), by point index: the last message of each.
std::map<int, std::string> failures_in_folder(const std::string& dir);

struct CollectOutcome {
  size_t total = 0, collected = 0;
  size_t foreign = 0;                 // rows kept of points the study no longer lists
  std::vector<int> missing;           // point indices with no row, in order
  std::map<int, std::string> failed;  // those of them a task recorded as failed, with why
};

// Writes DIR/sweep.csv (`header`, then every row found under DIR, the study's own with their current index, in point
// order) and DIR/sweep-timing.csv.
CollectOutcome collect_parts(const std::vector<io::SweepPoint>& points, const std::string& dir,
                             const std::string& header);

}  // namespace t3sim::study
