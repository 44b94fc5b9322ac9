// `t3sim bench`: the fixed speed suite. Each case runs as child processes (SimGrid allows one
// simulation per process), several times with the fast driver and with the reference driver; wall
// time is the median over runs (these machines are noisy), memory the child's peak resident set.
// The two drivers' data movements are then compared message by message.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "sim/cli/child_run.hpp"
#include "sim/cli/commands.hpp"
#include "sim/core/traffic_report.hpp"
#include "sim/core/transfer_comparison.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/bench_suite.hpp"
#include "sim/io/input_error.hpp"
#include "sim/io/machine_loader.hpp"
#include "sim/io/results_writer.hpp"

namespace t3sim::cli {
namespace {

struct DriverRuns {
  std::string driver;
  std::vector<double> walls;
  std::vector<double> rss;
  double makespan = 0;
  size_t messages = 0;
  size_t operations = 0;
  std::string transfers_path;
};

// `tag` names a variant of the driver's runs (its transfers file and its rows).
DriverRuns run_driver(const io::BenchCase& c, const std::string& driver, int repeat, const std::string& out_dir,
                      const std::string& tag = "") {
  DriverRuns r;
  r.driver = driver + tag;
  r.transfers_path = out_dir + "/" + c.name + "." + r.driver + ".transfers.csv";
  std::vector<std::string> args = {"run",      "--machine", c.machine,     "--summary",
                                   "--driver", driver,      "--transfers", r.transfers_path};
  if (!c.trace.empty()) {
    args.insert(args.end(), {"--trace", c.trace});
  } else {
    args.insert(args.end(),
                {"--workload", c.workload, "--pes", std::to_string(c.pes), "--size", fmt::format("{:.0f}B", c.bytes)});
  }
  for (const auto& [name, value] : c.variables) {
    args.push_back("--set");
    args.push_back(name + "=" + value);
  }
  for (int i = 0; i < repeat; ++i) {
    const ChildOutcome o = run_child(args);
    if (o.exit_status != 0)
      throw std::runtime_error("bench case " + c.name + " (" + r.driver + ") failed with status " +
                               std::to_string(o.exit_status));
    r.walls.push_back(o.wall_s);
    r.rss.push_back(o.peak_rss_bytes);
    const auto j = nlohmann::json::parse(o.out);
    r.makespan = j.at("traffic").at("makespan_s").get<double>();
    r.messages = j.at("traffic").at("transfers").get<size_t>();
    r.operations = j.at("traffic").at("operations").get<size_t>();
    std::cerr << fmt::format("  {} {} run {}/{}: {:.2f} s, {:.0f} MiB\n", c.name, r.driver, i + 1, repeat, o.wall_s,
                             o.peak_rss_bytes / 1048576.0);
  }
  return r;
}

std::vector<core::Transfer> read_transfers(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return io::parse_transfers_csv(text.str(), path);
}

// The case's machine with router_delay scaled by 1 + 1e-9, as a derived machine file in out_dir.
io::BenchCase perturbed(const io::BenchCase& c, const std::string& out_dir) {
  const core::MachineSpec m = io::load_machine(c.machine);
  io::BenchCase p = c;
  p.machine = out_dir + "/" + c.name + ".perturbed.yaml";
  const double delay = m.network.router_delay * (1 + 1e-9);
  io::write_file_atomically(
      p.machine,
      fmt::format("# {}'s machine with router_delay x (1 + 1e-9): the noise floor of `t3sim bench --noise-floor`.\n"
                  "schema_version: 1\nbase: {}\nname: {}-perturbed\ndoc: noise-floor twin of {}\n"
                  "network:\n  router_delay: {:.17g}s\nprovenance:\n  network.router_delay: the base value x (1 + "
                  "1e-9)\n",
                  c.name, std::filesystem::absolute(c.machine).string(), m.name, m.name, delay));
  return p;
}

// One line comparing two runs of a case.
std::string comparison_line(const std::string& name, const std::string& what, const DriverRuns& a, const DriverRuns& b,
                            const core::TransferComparison& cmp) {
  return fmt::format(
      "{:<16} {}: makespan differs by {:.2e}; message completion instants by at most {:.2e}; durations by at most "
      "{:.2e} (median {:.2e}, {:.1f}% within 1%)\n",
      name, what, std::abs(b.makespan - a.makespan) / a.makespan, cmp.max_end_rel, cmp.max_duration_rel,
      cmp.median_duration_rel, 100 * cmp.within_1pct);
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace

int cmd_bench(const BenchArgs& a) {
  const io::BenchSuite suite = io::load_bench_suite(a.suite);
  std::vector<io::BenchCase> cases;
  for (const auto& c : suite.cases)
    if (a.cases.empty() || std::find(a.cases.begin(), a.cases.end(), c.name) != a.cases.end()) cases.push_back(c);
  for (const auto& name : a.cases)
    if (std::none_of(suite.cases.begin(), suite.cases.end(), [&](const io::BenchCase& c) { return c.name == name; }))
      throw io::InputError({"--cases", 0, 0}, "", "the suite " + a.suite + " has no case named '" + name + "'");
  std::filesystem::create_directories(a.out_dir);

  nlohmann::ordered_json report;
  report["suite"] = suite.name;
  report["cpu"] = cpu_model();
  report["cores"] = std::thread::hardware_concurrency();
  report["repeat"] = a.repeat;
  report["reference_repeat"] = a.reference_repeat;
  std::string csv =
      "case,driver,runs,wall_median_s,wall_min_s,wall_max_s,peak_rss_mib,messages,messages_per_s,makespan_s,"
      "speedup,makespan_rel_diff,end_max_rel_diff,duration_max_rel_diff,duration_median_rel_diff,"
      "duration_within_1pct,operations,operations_per_s\n";
  std::string table = fmt::format("{:<16} {:<9} {:>4} {:>10} {:>9} {:>9} {:>12} {:>12} {:>12}\n", "case", "driver",
                                  "runs", "wall s", "peak MiB", "messages", "msgs/wall-s", "ops/wall-s", "makespan s");
  std::string comparisons;
  for (size_t i = 0; i < cases.size(); ++i) {
    const io::BenchCase& c = cases[i];
    std::cerr << fmt::format("[{}/{}] {}: {}\n", i + 1, cases.size(), c.name, c.doc);
    std::vector<DriverRuns> runs = {run_driver(c, "fast", a.repeat, a.out_dir)};
    if (a.reference_repeat > 0) runs.push_back(run_driver(c, "reference", a.reference_repeat, a.out_dir));
    nlohmann::ordered_json jc;
    jc["name"] = c.name;
    jc["doc"] = c.doc;
    for (const DriverRuns& r : runs) {
      const core::Distribution walls = core::distribution_of(r.walls);
      const double wall = walls.median;
      const double rss = core::distribution_of(r.rss).median / 1048576.0;
      const double rate = wall > 0 ? static_cast<double>(r.messages) / wall : 0;
      const double op_rate = wall > 0 ? static_cast<double>(r.operations) / wall : 0;
      table += fmt::format("{:<16} {:<9} {:>4} {:>10.2f} {:>9.0f} {:>9} {:>12.0f} {:>12.0f} {:>12.6e}\n", c.name,
                           r.driver, r.walls.size(), wall, rss, r.messages, rate, op_rate, r.makespan);
      jc[r.driver] = {{"runs", r.walls.size()},   {"wall_s", r.walls},          {"wall_median_s", wall},
                      {"peak_rss_mib", rss},      {"messages", r.messages},     {"messages_per_s", rate},
                      {"makespan_s", r.makespan}, {"operations", r.operations}, {"operations_per_s", op_rate}};
      csv += fmt::format("{},{},{},{:.3f},{:.3f},{:.3f},{:.1f},{},{:.1f},{:.9e}", c.name, r.driver, r.walls.size(),
                         wall, walls.min, walls.max, rss, r.messages, rate, r.makespan);
      if (r.driver == "fast" && runs.size() == 2) {
        const DriverRuns& ref = runs[1];
        const auto cmp = core::compare_transfers(read_transfers(ref.transfers_path), read_transfers(r.transfers_path));
        if (!cmp.mismatch.empty()) throw std::runtime_error("bench case " + c.name + ": " + cmp.mismatch);
        const double speedup = core::distribution_of(ref.walls).median / wall;
        const double makespan_diff = std::abs(r.makespan - ref.makespan) / ref.makespan;
        jc["comparison"] = {{"speedup", speedup},
                            {"makespan_rel_diff", makespan_diff},
                            {"end_max_rel_diff", cmp.max_end_rel},
                            {"duration_max_rel_diff", cmp.max_duration_rel},
                            {"duration_median_rel_diff", cmp.median_duration_rel},
                            {"duration_within_1pct", cmp.within_1pct}};
        csv += fmt::format(",{:.3f},{:.3e},{:.3e},{:.3e},{:.3e},{:.4f}", speedup, makespan_diff, cmp.max_end_rel,
                           cmp.max_duration_rel, cmp.median_duration_rel, cmp.within_1pct);
        comparisons += comparison_line(c.name, fmt::format("fast is {:.2f}x the reference", speedup), ref, r, cmp);
      } else {
        csv += ",,,,,,";
      }
      csv += fmt::format(",{},{:.1f}\n", r.operations, op_rate);
    }
    if (a.noise_floor) {
      const DriverRuns twin = run_driver(perturbed(c, a.out_dir), "fast", 1, a.out_dir, "-perturbed");
      const auto cmp =
          core::compare_transfers(read_transfers(runs[0].transfers_path), read_transfers(twin.transfers_path));
      if (!cmp.mismatch.empty()) throw std::runtime_error("bench case " + c.name + ": " + cmp.mismatch);
      jc["noise_floor"] = {{"makespan_rel_diff", std::abs(twin.makespan - runs[0].makespan) / runs[0].makespan},
                           {"end_max_rel_diff", cmp.max_end_rel},
                           {"duration_max_rel_diff", cmp.max_duration_rel},
                           {"duration_median_rel_diff", cmp.median_duration_rel},
                           {"duration_within_1pct", cmp.within_1pct}};
      comparisons += comparison_line(c.name, "router_delay x (1 + 1e-9)", runs[0], twin, cmp);
    }
    report["cases"].push_back(jc);
  }
  io::write_file_atomically(a.out_dir + "/bench.csv", csv);
  io::write_file_atomically(a.out_dir + "/bench.json", report.dump(1) + "\n");
  std::cout << table << (comparisons.empty() ? "" : "\n" + comparisons) << "\nwritten: " << a.out_dir
            << "/bench.csv, bench.json\n";
  return 0;
}

}  // namespace t3sim::cli
