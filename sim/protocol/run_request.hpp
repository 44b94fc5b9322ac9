// What a `t3sim run` is asked: every option of the run subcommand, as one value. The command line parses
// into it (sim/cli/main.cpp); sweeps, validation, calibration, bench and uncertainty bands build one and
// run it in a child process through to_argv(), the one place that writes a run's command line.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace t3sim::protocol {

struct RunRequest {
  std::string machine;
  std::string workload;
  std::string trace;          // a trace instead of a workload file (io/trace/trace_loader.hpp)
  bool strict = false;        // a TI trace's warnings are errors
  bool expand_whole = false;  // a TI trace expanded whole before the run, not streamed
  std::string profile;        // "": the machine's default profile
  std::string out_dir;
  bool json = false;
  std::map<std::string, std::string> variables;  // --set NAME=VALUE
  int pes = 0;                                   // job size; 0: the workload's
  double size = 0;                               // one message size in bytes instead of the workload's sizes; 0: theirs
  bool summary = false;                          // print one JSON line (protocol/run_summary.hpp) instead of tables
  bool ops = false;                              // print the per-operation table, not the short summary
  std::string paje;                              // write a SimGrid Paje trace here
  std::string background;                        // a second workload on the PEs the job leaves free
  int background_pes = 0;                        // its size; 0: its file's
  std::string background_placement = "contiguous";          // contiguous | random:SEED among the free PEs
  std::map<std::string, std::string> background_variables;  // --background-set
  std::string placement = "contiguous";
  std::string driver = "fast";  // fast | reference (engine/simulation.hpp)
  std::string transfers_file;   // also write the data movements (CSV) here
  std::string traffic_file;     // also write the traffic report (JSON, every link's load) here (sweeps: the heat map)
  std::string vc_report_file;   // packet driver: also write what each virtual channel did (CSV) here
  std::string vc_window;        // its window of simulated time, FROM:TO with units ("": the whole run)
  int threads = 1;              // packet driver: threads sharing each busy cycle (the same results for any count)
  std::vector<std::pair<std::string, std::string>> params;  // machine parameter overrides, in order: path, value
  std::string routing;                                      // torus.routing instead of the machine's; "": its own
  std::vector<std::string> fail;  // failed links added to the machine's (core/topology/failed_links.hpp names)
  int uncertainty = 0;  // > 0: the point this many times over the parameters' ranges (cli/uncertainty_run.hpp)
  uint64_t seed = 1;    // of the Latin hypercube

  // `run` and every option that differs from its default, in a fixed order: the same request gives the
  // same command line, and parsing it gives the same request back (tests/unit/run_request_test.cpp).
  std::vector<std::string> to_argv() const;
  bool operator==(const RunRequest& o) const;
  bool operator!=(const RunRequest& o) const { return !(*this == o); }
};

// The command line as one text, words separated by spaces (for messages and `run --echo-request`).
std::string argv_text(const std::vector<std::string>& argv);

}  // namespace t3sim::protocol
