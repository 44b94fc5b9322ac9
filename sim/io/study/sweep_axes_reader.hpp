// Reading a study's axes, settings bundles and fitted values from its YAML (sweep_axes.hpp holds what
// they read into). For sim/io only: it exposes yaml-cpp.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/io/study/sweep_axes.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {

// Reads `axes:` (a mapping of axis name to a mapping of label to settings). Rejects, naming the key:
// an axis without values, a label or name holding a comma or '|' (CSV cells, point ids), an axis named
// like one of sweep.csv's own columns, an unknown settings key, a machine parameter t3sim does not
// have or a value not in its units, a background file that does not exist, background_set or
// background_pes without a background, and two axes that set the same variable, parameter or
// background.
std::vector<SweepAxis> read_sweep_axes(MapReader& top, const std::vector<std::string>& reserved_columns);

// A mapping of workload variable NAME: VALUE (`set:`, `background_set:`).
std::map<std::string, std::string> read_variable_values(const YAML::Node& node, const std::string& file,
                                                        const std::string& path);

// Reads a settings bundle (`set`, `param`, `background`, `background_pes`, `background_set`) at `path`.
RunSettings read_run_settings(const YAML::Node& node, const std::string& file, const std::string& path);

// The main-job variables `t3sim calibrate` fitted for a validation suite (`fitted:` with
// {cases: FILE, suite: NAME}): a study runs the calibrated model, not the workload file's placeholder.
std::map<std::string, std::string> read_fitted_variables(MapReader& top);

}  // namespace t3sim::io
