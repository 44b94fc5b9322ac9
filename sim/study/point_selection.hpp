// Which points of a study one process runs: `t3sim sweep SPEC --points LIST`, the form each task of a
// Slurm job array is given. LIST is comma-separated point indices and inclusive ranges I..J, 0-based as
// `t3sim sweep SPEC --list` prints them ("0..3", "5", "2,7,10..12").
#pragma once
#include <string>
#include <vector>

namespace t3sim::study {

// The sorted, distinct indices of `text`. InputError (key --points) on an empty item, a malformed number,
// a range with J < I, or an index outside 0..count-1.
std::vector<int> parse_point_selection(const std::string& text, int count);

// The shortest LIST for sorted distinct indices: runs of two or more as I..J ("0..3,5,7..8").
std::string format_point_selection(const std::vector<int>& indices);

// Sorted distinct indices cut into consecutive groups of at most `per_task` (>= 1): one per array task.
std::vector<std::vector<int>> group_points(const std::vector<int>& indices, int per_task);

}  // namespace t3sim::study
