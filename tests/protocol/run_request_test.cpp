// RunRequest::to_argv against the real command line: every request below goes through
// `t3sim run ... --echo-request` (main.cpp's CLI11 parser) and must come back as the same command line;
// and every field of a request must show in its command line.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "sim/protocol/run_request.hpp"

using t3sim::protocol::argv_text;
using t3sim::protocol::RunRequest;

namespace {

// Single-quotes each word for sh.
std::string shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& w : argv) {
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += " " + q + "'";
  }
  return out;
}

// What `t3sim <argv> --echo-request` prints (its first line), and its exit status.
std::pair<std::string, int> echo(const RunRequest& r) {
  const std::string command = std::string(T3SIM_BIN) + shell_words(r.to_argv()) + " --echo-request 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  const int status = pclose(pipe.release());
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return {out, status};
}

RunRequest every_field_set() {
  RunRequest r;
  r.machine = "platforms/t3e-900-mcurie.yaml";
  r.workload = "workloads/shift.yaml";
  r.profile = "shmem";
  r.out_dir = "out dir";  // json stays false: --json and --summary exclude each other
  r.variables = {{"peer", "3"}, {"window", "2"}};
  r.pes = 64;
  r.size = 65536;
  r.summary = true;
  r.paje = "run.paje";
  r.background = "workloads/halo3d.yaml";
  r.background_pes = 16;
  r.background_placement = "random:5";
  r.background_variables = {{"steps", "4"}};
  r.placement = "list:0,2,4,6";
  r.driver = "reference";
  r.transfers_file = "t.csv";
  r.traffic_file = "traffic/3.json";
  r.vc_report_file = "vcs.csv";
  r.vc_window = "1ms:2ms";
  r.threads = 2;
  r.params = {{"network.router_delay", "30ns"}, {"network.router_delay", "40ns"}};
  r.routing = "minimal_adaptive";
  r.fail = {"n0.x", "n5.y+"};
  r.uncertainty = 7;
  r.seed = 42;
  return r;
}

}  // namespace

TEST(RunRequest, CommandLinesComeBackFromTheParserUnchanged) {
  std::vector<RunRequest> requests;
  RunRequest minimal;
  minimal.machine = "m.yaml";
  minimal.workload = "w.yaml";
  requests.push_back(minimal);
  requests.push_back(every_field_set());
  RunRequest json = minimal;
  json.json = true;
  json.out_dir = "out";
  requests.push_back(json);
  RunRequest ops = minimal;
  ops.ops = true;
  requests.push_back(ops);
  RunRequest trace;
  trace.machine = "m.yaml";
  trace.trace = "workloads/traces/shift.t3t";
  trace.strict = true;
  trace.expand_whole = true;
  trace.size = 8;
  requests.push_back(trace);
  for (const auto& r : requests) {
    const auto [out, status] = echo(r);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out, argv_text(r.to_argv()));
  }
}

TEST(RunRequest, EveryFieldShowsInItsCommandLine) {
  // Each field alone away from its default changes the command line, and to_argv tells requests apart
  // exactly when operator== does.
  const RunRequest base = [] {
    RunRequest r;
    r.machine = "m.yaml";
    return r;
  }();
  const RunRequest all = every_field_set();
  const std::vector<std::function<void(RunRequest&)>> one_field = {
      [&](RunRequest& r) { r.workload = all.workload; },
      [&](RunRequest& r) { r.trace = "t.txt"; },
      [&](RunRequest& r) { r.strict = true; },
      [&](RunRequest& r) { r.expand_whole = true; },
      [&](RunRequest& r) { r.profile = all.profile; },
      [&](RunRequest& r) { r.out_dir = all.out_dir; },
      [&](RunRequest& r) { r.json = true; },  // index 6
      [&](RunRequest& r) { r.variables = all.variables; },
      [&](RunRequest& r) { r.pes = all.pes; },
      [&](RunRequest& r) { r.size = all.size; },
      [&](RunRequest& r) { r.summary = true; },
      [&](RunRequest& r) { r.paje = all.paje; },
      [&](RunRequest& r) { r.background = all.background; },
      [&](RunRequest& r) { r.background_pes = all.background_pes; },
      [&](RunRequest& r) { r.background_placement = all.background_placement; },
      [&](RunRequest& r) { r.background_variables = all.background_variables; },
      [&](RunRequest& r) { r.placement = all.placement; },
      [&](RunRequest& r) { r.driver = all.driver; },
      [&](RunRequest& r) { r.transfers_file = all.transfers_file; },
      [&](RunRequest& r) { r.traffic_file = all.traffic_file; },
      [&](RunRequest& r) { r.vc_report_file = all.vc_report_file; },
      [&](RunRequest& r) { r.vc_window = all.vc_window; },
      [&](RunRequest& r) { r.threads = all.threads; },
      [&](RunRequest& r) { r.params = all.params; },
      [&](RunRequest& r) { r.routing = all.routing; },
      [&](RunRequest& r) { r.fail = all.fail; },
      [&](RunRequest& r) { r.uncertainty = all.uncertainty; },
      [&](RunRequest& r) { r.seed = all.seed; },
      [&](RunRequest& r) { r.ops = true; },  // the last: excludes --summary, so not in every_field_set()
  };
  for (size_t i = 0; i < one_field.size(); ++i) {
    RunRequest r = base;
    one_field[i](r);
    EXPECT_NE(r, base) << "field " << i;
    EXPECT_NE(r.to_argv(), base.to_argv()) << "field " << i << " does not reach the command line";
  }
  // Setting them all one by one (but the trace's and --json) gives every_field_set(): the list covers it.
  RunRequest built = base;
  built.machine = all.machine;
  for (size_t i = 0; i < one_field.size(); ++i)
    if (i != 1 && i != 2 && i != 3 && i != 6 && i + 1 != one_field.size())
      one_field[i](built);  // not the trace's, not --json, not --ops
  EXPECT_EQ(built, all);
}
