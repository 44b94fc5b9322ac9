// A study's own axes (sweep file `axes:`), beyond machines x PE counts x placements x workloads x sizes:
// each axis is a name and labelled values, each value a bundle of the options a point's
// `t3sim run` takes (workload variables, machine parameters, a background job); every combination of
// every axis's values is one point. E.g. the I/O study's
//   axes:
//     buffering:
//       none: {set: {buffering: none}}
//       iobuf 64KiB: {set: {buffering: iobuf}, param: {io.iobuf_size: 64KiB}}
//     background:
//       quiet: {}
//       think 75ms: {background: ../io-background.yaml, background_set: {think: 75ms}}
// The study's `set:` (and the main-job variables a validation suite fitted, `fitted:`) apply to every
// point; an axis value overrides them. Two axes may not set the same thing (which would win is not
// obvious); sweep.csv gets one column per axis holding the value's label.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/protocol/run_request.hpp"

namespace t3sim::io {

// Options of one `t3sim run`, as the sweep passes them to a point's process.
struct RunSettings {
  std::map<std::string, std::string> sets;             // workload variables (--set)
  std::map<std::string, std::string> params;           // machine parameters (--param), values in the parameter's units
  std::string background;                              // a background job's workload file (--background); "" none
  int background_pes = 0;                              // --background-pes; 0: its file's
  std::map<std::string, std::string> background_sets;  // --background-set
  std::string driver;                                  // --driver (fast | reference | packet); "": fast

  // `over` layered on top of this one (its values win).
  RunSettings overlaid(const RunSettings& over) const;
  // Sets these in a run's request (workload variables added, parameters appended, the background).
  void apply_to(protocol::RunRequest& r) const;
};

struct AxisValue {
  std::string label;  // its cell in sweep.csv and its part of the point's id
  RunSettings settings;
};

struct SweepAxis {
  std::string name;  // its column in sweep.csv
  std::vector<AxisValue> values;
};

}  // namespace t3sim::io
