// The benchmark suite of `t3sim bench`: fixed cases, each one `t3sim run` of a machine, a workload,
// a job size, one message size and workload variables, or of a machine and a trace. Read from a suite file (strict
// YAML, paths relative to it), e.g. bench/suite.yaml. Optional per case: `chaotic: true` (judged against
// a reference ensemble, core/bench_verdict.hpp), `long: true` (run only when asked for), and `driver:
// packet` with a `peer` (the packet driver's flits per wall-second against a packet-level peer's).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace t3sim::io {

struct BenchCase {
  std::string name;  // short id, [a-z0-9-]
  std::string doc;
  std::string machine;                           // resolved path
  std::string workload;                          // resolved path; "" when the case replays a trace
  std::string trace;                             // resolved path of a trace (`run --trace`); "" for a workload
  int pes = 0;                                   // 0 (traces only): the trace's own
  double bytes = 0;                              // 0 (traces only): the trace's own sizes
  std::map<std::string, std::string> variables;  // --set NAME=VALUE
  bool chaotic = false;       // judged against a reference ensemble, not one reference run (core/bench_verdict.hpp)
  bool long_running = false;  // `long: true`: run only when named by --cases or with --long
  std::string routing;        // `routing: NAME`: run --routing NAME (a multipath routing runs the fast driver only)
  // `driver: packet`: the case times the packet driver alone (no reference run, no verdict; fast is the default).
  std::string driver = "fast";
  // `peer: {name, flits_per_s, target, config}` (packet cases): a packet-level peer's delivered flits per
  // wall-second on the same configuration, and the speed the case should reach, as a multiple of it;
  // `config` (resolved path): the peer's own configuration file for that run, which `bench --peer-binary
  // PEER` runs as `PEER config` beside the case to time the peer on this machine ("": none).
  std::string peer;
  double peer_flits_per_s = 0;
  double speed_target = 0;  // 0: none stated
  std::string peer_config;
};

struct BenchSuite {
  std::string name;
  std::vector<BenchCase> cases;
};

BenchSuite load_bench_suite(const std::string& path);

}  // namespace t3sim::io
