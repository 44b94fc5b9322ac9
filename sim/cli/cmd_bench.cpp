// `t3sim bench`: the fixed speed suite. Each case runs as child processes (SimGrid allows one
// simulation per process), several times with the fast driver and with the reference driver; wall
// time is the median over runs (these machines are noisy), memory the child's peak resident set.
// The two drivers' data movements are then compared message by message, and each case gets a verdict
// (core/bench_verdict.hpp): exact cases by makespan within 1e-9 of the reference, chaotic ones ensemble
// against ensemble (both drivers on the machines with router_delay x (1 + k 1e-9), k < N).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "sim/analysis/bench_verdict.hpp"
#include "sim/analysis/peer_output.hpp"
#include "sim/analysis/traffic_report.hpp"
#include "sim/analysis/transfer_comparison.hpp"
#include "sim/child/child_run.hpp"
#include "sim/child/external_command.hpp"
#include "sim/cli/commands.hpp"
#include "sim/core/routing/routing.hpp"
#include "sim/core/support/units.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/output/results_writer.hpp"
#include "sim/io/study/bench_suite.hpp"
#include "sim/protocol/run_request.hpp"
#include "sim/protocol/run_summary.hpp"

namespace t3sim::cli {
namespace {

const std::string kFastDriver = core::enum_name(engine::Driver::Fast);
const std::string kReferenceDriver = core::enum_name(engine::Driver::Reference);

struct DriverRuns {
  std::string driver;
  std::vector<double> walls;
  std::vector<double> rss;
  double makespan = 0;
  std::optional<double> pe_bandwidth;  // median per-PE bandwidth (B/s) when the run reports one measurement
  size_t messages = 0;
  size_t operations = 0;
  std::optional<uint64_t> flits;  // flits delivered (packet driver)
  std::string transfers_path;
};

// A case's runs under one driver, started empty: the run's arguments, and its record.
// `tag` names a variant of the driver's runs (its transfers file and its rows).
struct DriverRunner {
  std::vector<std::string> args;
  DriverRuns runs;
};

DriverRunner driver_runner(const io::BenchCase& c, const std::string& driver, const std::string& out_dir,
                           const std::string& tag = "", int threads = 1) {
  DriverRunner runner;
  DriverRuns& r = runner.runs;
  r.driver = driver + tag;
  r.transfers_path = out_dir + "/" + c.name + "." + r.driver + ".transfers.csv";
  protocol::RunRequest request;
  request.machine = c.machine;
  request.summary = true;
  request.driver = driver;
  request.threads = threads;
  request.transfers_file = r.transfers_path;
  if (!c.trace.empty()) {
    request.trace = c.trace;
  } else {
    request.workload = c.workload;
    request.pes = c.pes;
    request.size = c.bytes;
  }
  request.variables = c.variables;
  request.routing = c.routing;
  runner.args = request.to_argv();
  return runner;
}

// One more run of the runner's (the i-th of `repeat`, as the progress line says). The median per-PE
// bandwidth is kept when the run's traffic report holds exactly one measurement (one message size)
// with PEs in it; otherwise none (the verdict then judges the makespan only).
void run_once(const io::BenchCase& c, DriverRunner& runner, int i, int repeat) {
  DriverRuns& r = runner.runs;
  const child::ChildOutcome o = child::run_child(runner.args);
  if (o.exit_status != 0)
    throw std::runtime_error("bench case " + c.name + " (" + r.driver + ") failed with status " +
                             std::to_string(o.exit_status));
  r.walls.push_back(o.wall_s);
  r.rss.push_back(o.peak_rss_bytes);
  const protocol::RunSummary summary = protocol::run_summary_from_json(o.out, "bench case " + c.name);
  r.makespan = summary.makespan_s;
  r.pe_bandwidth = summary.only_size_pe_median_Bps();
  r.messages = summary.transfers;
  r.operations = summary.operations;
  if (summary.packet) r.flits = summary.packet->flits;
  std::cerr << fmt::format("  {} {} run {}/{}: {:.2f} s, {:.0f} MiB\n", c.name, r.driver, i + 1, repeat, o.wall_s,
                           o.peak_rss_bytes / 1048576.0);
}

DriverRuns run_driver(const io::BenchCase& c, const std::string& driver, int repeat, const std::string& out_dir,
                      const std::string& tag = "", int threads = 1) {
  DriverRunner runner = driver_runner(c, driver, out_dir, tag, threads);
  for (int i = 0; i < repeat; ++i) run_once(c, runner, i, repeat);
  return runner.runs;
}

// The peer timed on this machine (`bench --peer-binary`): its walls, and the figures it printed.
struct PeerRuns {
  std::string binary;
  std::vector<double> walls;
  analysis::PeerFigures figures;
  int exit_status = 0;
};

// The last lines of what a program printed, for an error message.
std::string tail_of(const std::string& text, size_t lines = 5) {
  size_t start = text.size();
  for (size_t n = 0; start > 0 && n <= lines; --start)
    if (text[start - 1] == '\n') ++n;
  return text.substr(start);
}

// One run of `PEER config`, timed from fork to exit. Its exit status is kept, not judged (BookSim2
// 28f4329 exits with 255 after a complete run); what it printed must hold its figures.
void run_peer_once(const io::BenchCase& c, PeerRuns& peer, int i, int repeat) {
  const auto start = std::chrono::steady_clock::now();
  const child::CommandOutcome o = child::run_command({peer.binary, c.peer_config});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.exit_status == 127 && o.out.empty())
    throw std::runtime_error("bench case " + c.name + ": the peer '" + peer.binary +
                             "' could not be run (exit status 127: not on PATH, or not a program) " + tail_of(o.err));
  const std::optional<analysis::PeerFigures> figures = analysis::booksim_figures(o.out);
  if (!figures)
    throw std::runtime_error(fmt::format(
        "bench case {}: the peer '{} {}' (exit status {}) printed no \"Time taken is N cycles\" or no overall "
        "\"Accepted flit rate average = X\"; its last lines:\n{}{}",
        c.name, peer.binary, c.peer_config, o.exit_status, tail_of(o.out), tail_of(o.err)));
  if (i > 0 && (figures->cycles != peer.figures.cycles ||
                figures->accepted_flits_per_cycle != peer.figures.accepted_flits_per_cycle))
    std::cerr << fmt::format("  {} peer run {}: {} cycles at {} flits a cycle, not {} at {} as before\n", c.name, i + 1,
                             figures->cycles, figures->accepted_flits_per_cycle, peer.figures.cycles,
                             peer.figures.accepted_flits_per_cycle);
  if (i == 0) peer.figures = *figures;
  peer.walls.push_back(wall);
  peer.exit_status = o.exit_status;
  std::cerr << fmt::format("  {} peer run {}/{}: {:.2f} s\n", c.name, i + 1, repeat, wall);
}

// A packet case on one thread and on `threads` (and its peer, when timed here), their repeats alternated
// (one, then the other, and again), so that a drift in the machine's speed over the minutes of the
// bench weighs on all alike.
std::pair<DriverRuns, DriverRuns> run_packet_alternated(const io::BenchCase& c, int repeat, const std::string& out_dir,
                                                        int threads, PeerRuns* peer) {
  DriverRunner one = driver_runner(c, c.driver, out_dir);
  DriverRunner many = driver_runner(c, c.driver, out_dir, fmt::format("-{}t", threads), threads);
  for (int i = 0; i < repeat; ++i) {
    run_once(c, one, i, repeat);
    if (threads > 1) run_once(c, many, i, repeat);
    if (peer != nullptr) run_peer_once(c, *peer, i, repeat);
  }
  return {std::move(one.runs), std::move(many.runs)};
}

std::vector<core::Transfer> read_transfers(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return io::parse_transfers_csv(text.str(), path);
}

// The case's machine with router_delay scaled by 1 + k 1e-9, as a derived machine file in out_dir.
io::BenchCase perturbed(const io::BenchCase& c, const std::string& out_dir, int k) {
  const core::MachineSpec m = io::load_machine(c.machine);
  io::BenchCase p = c;
  p.machine = fmt::format("{}/{}.router_delay+{}e-9.yaml", out_dir, c.name, k);
  const double delay = m.network.router_delay * (1 + k * 1e-9);
  io::write_file_atomically(
      p.machine,
      fmt::format("# {}'s machine with router_delay x (1 + {}e-9): a twin for `t3sim bench` (--noise-floor, the "
                  "reference ensemble of chaotic cases).\n"
                  "schema_version: 1\nbase: {}\nname: {}-perturbed\ndoc: router_delay twin of {}\n"
                  "network:\n  router_delay: {}\nprovenance:\n  network.router_delay: the base value x (1 + "
                  "{}e-9)\n",
                  c.name, k, std::filesystem::absolute(c.machine).string(), m.name, m.name,
                  core::format_quantity_exact(delay, core::Quantity::Time), k));
  return p;
}

// One line comparing two runs of a case.
std::string comparison_line(const std::string& name, const std::string& what, const DriverRuns& a, const DriverRuns& b,
                            const analysis::TransferComparison& cmp) {
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

// One member of a chaotic case's ensemble: one driver with router_delay x (1 + k 1e-9).
struct Member {
  int k = 0;
  double makespan = 0;
  std::optional<double> pe_bandwidth;
  double wall = 0;  // median over its runs
};

std::vector<double> makespans_of(const std::vector<Member>& members) {
  std::vector<double> out;
  for (const Member& m : members) out.push_back(m.makespan);
  return out;
}

std::vector<std::optional<double>> bandwidths_of(const std::vector<Member>& members) {
  std::vector<std::optional<double>> out;
  for (const Member& m : members) out.push_back(m.pe_bandwidth);
  return out;
}

// The median bandwidth of members that all report one.
std::optional<double> median_bandwidth(const std::vector<Member>& members) {
  std::vector<double> values;
  for (const Member& m : members) {
    if (!m.pe_bandwidth) return std::nullopt;
    values.push_back(*m.pe_bandwidth);
  }
  return values.empty() ? std::nullopt : std::optional<double>(analysis::median_of(values));
}

// A case's verdict and the figures behind it.
struct CaseVerdict {
  std::string judged_as;  // "makespan 1e-9", "ensemble of N", "not judged"
  bool judged = false;
  analysis::BenchVerdict verdict;
  analysis::ValueRange makespan;                  // the reference's (its one value for exact cases)
  std::optional<analysis::ValueRange> bandwidth;  // the reference's median per-PE bandwidth, B/s
  // chaotic cases judged as ensembles only:
  double fast_makespan = 0;              // the fast members' median (the one fast run otherwise)
  std::optional<double> fast_bandwidth;  // likewise
  analysis::ValueRange fast_range;       // the fast members' makespans
  analysis::BenchVerdict one_run;        // fast k = 0 alone against the reference ensemble
  int reference_self_outside = 0;        // reference members outside the others' range
  double false_alarm = 0;                // analysis::false_alarm_probability(N, N)
};

CaseVerdict judge(const io::BenchCase& c, const DriverRuns& fast, const std::vector<Member>& members,
                  const std::vector<Member>& fast_members, int ensemble) {
  CaseVerdict v;
  v.fast_makespan = fast.makespan;
  v.fast_bandwidth = fast.pe_bandwidth;
  if (members.empty()) {
    v.judged_as = "not judged";
    v.verdict.text = c.driver == kFastDriver ? "no reference" : c.driver + " driver: timed only";
    return v;
  }
  std::vector<double> makespans;
  std::vector<std::optional<double>> bandwidths;
  for (const Member& m : members) {
    makespans.push_back(m.makespan);
    bandwidths.push_back(m.pe_bandwidth);
  }
  v.makespan = analysis::range_of(makespans);
  if (std::all_of(bandwidths.begin(), bandwidths.end(), [](const auto& b) { return b.has_value(); })) {
    std::vector<double> values;
    for (const auto& b : bandwidths) values.push_back(*b);
    v.bandwidth = analysis::range_of(values);
  }
  if (!c.chaotic) {
    v.judged_as = "makespan 1e-9";
    v.judged = true;
    v.verdict = analysis::exact_verdict(fast.makespan, members[0].makespan);
  } else if (ensemble == 0) {
    v.judged_as = "not judged";
    v.verdict.text = "chaotic, --ensemble 0";
  } else {
    v.judged_as = fmt::format("ensemble of {}", members.size());
    v.judged = true;
    v.verdict = analysis::ensemble_against_ensemble(makespans_of(fast_members), makespans, bandwidths_of(fast_members),
                                                    bandwidths);
    v.fast_makespan = analysis::median_of(makespans_of(fast_members));
    v.fast_bandwidth = median_bandwidth(fast_members);
    v.fast_range = analysis::range_of(makespans_of(fast_members));
    v.one_run = analysis::ensemble_verdict(fast.makespan, makespans, fast.pe_bandwidth, bandwidths);
    v.reference_self_outside = analysis::leave_one_out_outside(makespans, bandwidths);
    v.false_alarm =
        analysis::false_alarm_probability(static_cast<int>(fast_members.size()), static_cast<int>(members.size()));
  }
  return v;
}

// "MIN..MAX" for an ensemble, the one value of a single reference run.
std::string range_text(const analysis::ValueRange& r, bool ensemble, const std::string& format, double scale = 1) {
  const std::string lo = fmt::format(format, r.min * scale);
  return ensemble ? lo + ".." + fmt::format(format, r.max * scale) : lo;
}

std::string optional_text(const std::optional<double>& v, const std::string& format, double scale = 1) {
  return v ? fmt::format(format, *v * scale) : "-";
}

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

std::string optional_csv(const std::optional<double>& v) { return v ? fmt::format("{:.6e}", *v) : ""; }

// One row of the packet table (its header, a packet case's rate, a peer's), the columns laid out once.
std::string speed_row(const std::string& name, const std::string& label, const std::string& flits,
                      const std::string& rate, const std::string& peer_rate, const std::string& ratio,
                      const std::string& target, const std::string& peer) {
  return fmt::format("{:<16} {:<10} {:>12} {:>12} {:>14} {:>9} {:>12}  {}\n", name, label, flits, rate, peer_rate,
                     ratio, target, peer);
}

// A packet case's speed: flits delivered per wall-second (median wall), against its peer's on the same
// configuration when the suite gives one (`peer_rate`: the suite's fixed rate, or the peer's timed here,
// which `peer_name` then says). One line of the packet table; its JSON in `json`.
std::string packet_speed(const io::BenchCase& c, const DriverRuns& r, nlohmann::ordered_json& json,
                         const std::string& label, double peer_rate, const std::string& peer_name) {
  const double wall = analysis::distribution_of(r.walls).median;
  const double flits = r.flits ? static_cast<double>(*r.flits) : 0;
  const double rate = wall > 0 ? flits / wall : 0;
  const double ratio = peer_rate > 0 ? rate / peer_rate : 0;
  json = {{"flits", flits}, {"wall_median_s", wall}, {"flits_per_s", rate}};
  std::string target = "-";
  if (peer_rate > 0) {
    json["peer"] = peer_name;
    json["peer_flits_per_s"] = peer_rate;
    json["times_peer"] = ratio;
    if (c.speed_target > 0) {
      json["target_times_peer"] = c.speed_target;
      json["target_met"] = ratio >= c.speed_target;
      target = fmt::format("{:.0f}x {}", c.speed_target, ratio >= c.speed_target ? "met" : "NOT met");
    }
  }
  return speed_row(c.name, label, fmt::format("{:.0f}", flits), fmt::format("{:.0f}", rate),
                   peer_rate > 0 ? fmt::format("{:.0f}", peer_rate) : "-",
                   peer_rate > 0 ? fmt::format("{:.1f}x", ratio) : "-", target, peer_name.empty() ? "-" : peer_name);
}

// The peer timed here: its line of the packet table (its flits, its rate), its JSON in `json`, and its
// rate (flits over its median wall; the case's nodes are the peer's).
double peer_speed(const io::BenchCase& c, const PeerRuns& peer, nlohmann::ordered_json& json, std::string& line) {
  const double wall = analysis::distribution_of(peer.walls).median;
  const double flits = peer.figures.flits(c.pes);
  const double rate = wall > 0 ? flits / wall : 0;
  json = {{"name", c.peer},
          {"binary", peer.binary},
          {"config", c.peer_config},
          {"wall_s", peer.walls},
          {"wall_median_s", wall},
          {"cycles", peer.figures.cycles},
          {"accepted_flits_per_cycle", peer.figures.accepted_flits_per_cycle},
          {"flits", flits},
          {"flits_per_s", rate},
          {"exit_status", peer.exit_status},
          {"suite_flits_per_s", c.peer_flits_per_s}};
  line = speed_row(c.name, "peer", fmt::format("{:.0f}", flits), fmt::format("{:.0f}", rate), "-", "-", "-",
                   fmt::format("{}, {:.0f} cycles, {:.2f} s median", c.peer, peer.figures.cycles, wall));
  return rate;
}

std::string list_cases(const io::BenchSuite& suite) {
  std::string out;
  for (const auto& c : suite.cases) {
    const std::string size = c.trace.empty() ? fmt::format("{} PEs", c.pes) : "trace";
    const std::string kind = c.driver != kFastDriver ? c.driver : c.chaotic ? "chaotic" : "exact";
    out += fmt::format("{:<16} {:<7} {:<4} {:<9} {}\n", c.name, kind, c.long_running ? "long" : "", size, c.doc);
  }
  return out;
}

}  // namespace

int cmd_bench(const BenchArgs& a) {
  const io::BenchSuite suite = io::load_bench_suite(a.suite);
  for (const auto& name : a.cases)
    if (std::none_of(suite.cases.begin(), suite.cases.end(), [&](const io::BenchCase& c) { return c.name == name; }))
      throw io::InputError({"--cases", 0, 0}, "", "the suite " + a.suite + " has no case named '" + name + "'");
  if (a.list) {
    std::cout << list_cases(suite);
    return 0;
  }
  // (A name without a slash is looked up on PATH when first run.)
  if (a.peer_binary.find('/') != std::string::npos && ::access(a.peer_binary.c_str(), X_OK) != 0)
    throw io::InputError({"--peer-binary", 0, 0}, "", "no program to run at " + a.peer_binary);
  std::vector<io::BenchCase> cases;
  std::vector<std::string> skipped_long;
  for (const auto& c : suite.cases) {
    if (!a.cases.empty()) {
      if (std::find(a.cases.begin(), a.cases.end(), c.name) != a.cases.end()) cases.push_back(c);
    } else if (c.long_running && !a.long_cases) {
      skipped_long.push_back(c.name);
    } else {
      cases.push_back(c);
    }
  }
  if (!skipped_long.empty())
    std::cerr << fmt::format("not running the long cases {} (name them in --cases or add --long)\n",
                             fmt::join(skipped_long, ", "));
  std::filesystem::create_directories(a.out_dir);

  nlohmann::ordered_json report;
  report["suite"] = suite.name;
  report["cpu"] = cpu_model();
  report["cores"] = std::thread::hardware_concurrency();
  report["repeat"] = a.repeat;
  report["reference_repeat"] = a.reference_repeat;
  report["ensemble"] = a.ensemble;
  report["skipped_long"] = skipped_long;
  report["cases"] = nlohmann::ordered_json::array();
  std::string csv =
      "case,driver,runs,wall_median_s,wall_min_s,wall_max_s,peak_rss_mib,messages,messages_per_s,makespan_s,"
      "speedup,makespan_rel_diff,end_max_rel_diff,duration_max_rel_diff,duration_median_rel_diff,"
      "duration_within_1pct,operations,operations_per_s,pe_bw_median_Bps,judged_as,ref_makespan_min_s,"
      "ref_makespan_max_s,ref_pe_bw_median_min_Bps,ref_pe_bw_median_max_Bps,verdict,verdict_ok,"
      "fast_ensemble_makespan_median_s,fast_ensemble_pe_bw_median_Bps,one_run_verdict\n";
  std::string table = fmt::format("{:<16} {:<9} {:>4} {:>10} {:>9} {:>9} {:>12} {:>12} {:>12}\n", "case", "driver",
                                  "runs", "wall s", "peak MiB", "messages", "msgs/wall-s", "ops/wall-s", "makespan s");
  std::string verdicts =
      fmt::format("{:<16} {:<14} {:>15} {:<26} {:>12} {:<17} {}\n", "case", "judged as", "fast makespan s",
                  "reference makespan s", "fast PE MB/s", "reference PE MB/s", "verdict");
  std::string comparisons, ensembles;
  std::string speeds;  // packet cases: flits per wall-second against the peer's
  std::vector<std::string> failed;
  int judged = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const io::BenchCase& c = cases[i];
    std::cerr << fmt::format("[{}/{}] {}: {}\n", i + 1, cases.size(), c.name, c.doc);
    nlohmann::ordered_json jc_packet;
    const bool packet = c.driver != kFastDriver;    // a packet case: its driver alone, timed against its peer
    const bool threaded = packet && a.threads > 1;  // (the same runs sharing each busy cycle over threads)
    // (The peer timed here only where the suite gives its configuration for this case.)
    std::optional<PeerRuns> peer;
    if (packet && !a.peer_binary.empty() && !c.peer_config.empty()) peer = PeerRuns{a.peer_binary, {}, {}, 0};
    std::vector<DriverRuns> runs;
    if (threaded || peer) {
      auto [one, many] =
          run_packet_alternated(c, a.repeat, a.out_dir, threaded ? a.threads : 1, peer ? &*peer : nullptr);
      runs.push_back(std::move(one));
      if (threaded) runs.push_back(std::move(many));
    } else {
      runs.push_back(run_driver(c, c.driver, a.repeat, a.out_dir));
    }
    std::vector<Member> members, fast_members;
    // A SimGrid comm follows one route: a multipath routing has no reference run (not judged).
    core::MachineSpec machine = io::load_machine(c.machine);
    if (!c.routing.empty()) machine.routing = *core::enum_value<core::RoutingKind>(c.routing);
    const bool multipath = engine::driver_refusal(machine, engine::Driver::Reference).has_value();
    if (multipath) std::cerr << "  no reference run: routing " << core::enum_name(machine.routing) << " is multipath\n";
    nlohmann::ordered_json jc_packet_threads, jc_peer;
    if (packet) {
      double peer_rate = c.peer_flits_per_s;
      std::string peer_name = c.peer, peer_line;
      if (peer) {
        peer_rate = peer_speed(c, *peer, jc_peer, peer_line);
        peer_name = c.peer + ", timed here";
      } else if (!a.peer_binary.empty() && c.peer_flits_per_s > 0) {
        std::cerr << "  " << c.name << ": the suite gives no peer config for it: its fixed peer rate is used\n";
      }
      speeds += packet_speed(c, runs[0], jc_packet, "1 thread", peer_rate, peer_name);
      if (threaded) {  // (identical results, timed on more threads)
        speeds +=
            packet_speed(c, runs.back(), jc_packet_threads, fmt::format("{} threads", a.threads), peer_rate, peer_name);
        jc_packet_threads["threads"] = a.threads;
      }
      speeds += peer_line;
    }
    if (a.reference_repeat > 0 && !multipath && !packet) {
      runs.push_back(run_driver(c, kReferenceDriver, a.reference_repeat, a.out_dir));
      const DriverRuns& ref = runs[1];
      members.push_back({0, ref.makespan, ref.pe_bandwidth, analysis::distribution_of(ref.walls).median});
      if (c.chaotic && a.ensemble > 0) {
        fast_members.push_back(
            {0, runs[0].makespan, runs[0].pe_bandwidth, analysis::distribution_of(runs[0].walls).median});
        for (int k = 1; k < a.ensemble; ++k) {
          const io::BenchCase twin_case = perturbed(c, a.out_dir, k);
          const std::string tag = fmt::format("-rd+{}e-9", k);
          const DriverRuns twin = run_driver(twin_case, kReferenceDriver, 1, a.out_dir, tag);
          members.push_back({k, twin.makespan, twin.pe_bandwidth, twin.walls[0]});
          const DriverRuns fast_twin = run_driver(twin_case, kFastDriver, 1, a.out_dir, tag);
          fast_members.push_back({k, fast_twin.makespan, fast_twin.pe_bandwidth, fast_twin.walls[0]});
        }
      }
    }
    const CaseVerdict v = judge(c, runs[0], members, fast_members, a.ensemble);
    if (v.judged) ++judged;
    if (v.judged && !v.verdict.ok) failed.push_back(c.name);

    nlohmann::ordered_json jc;
    if (!jc_packet.is_null()) jc["packet_speed"] = jc_packet;
    if (!jc_packet_threads.is_null()) jc["packet_speed_threads"] = jc_packet_threads;
    if (!jc_peer.is_null()) jc["peer_timed"] = jc_peer;
    jc["name"] = c.name;
    jc["doc"] = c.doc;
    jc["chaotic"] = c.chaotic;
    jc["long"] = c.long_running;
    for (const DriverRuns& r : runs) {
      const analysis::Distribution walls = analysis::distribution_of(r.walls);
      const double wall = walls.median;
      const double rss = analysis::distribution_of(r.rss).median / 1048576.0;
      const double rate = wall > 0 ? static_cast<double>(r.messages) / wall : 0;
      const double op_rate = wall > 0 ? static_cast<double>(r.operations) / wall : 0;
      table += fmt::format("{:<16} {:<9} {:>4} {:>10.2f} {:>9.0f} {:>9} {:>12.0f} {:>12.0f} {:>12.6e}\n", c.name,
                           r.driver, r.walls.size(), wall, rss, r.messages, rate, op_rate, r.makespan);
      jc[r.driver] = {{"runs", r.walls.size()},     {"wall_s", r.walls},
                      {"wall_median_s", wall},      {"peak_rss_mib", rss},
                      {"messages", r.messages},     {"messages_per_s", rate},
                      {"makespan_s", r.makespan},   {"pe_bandwidth_median_Bps", optional_json(r.pe_bandwidth)},
                      {"operations", r.operations}, {"operations_per_s", op_rate}};
      csv += fmt::format("{},{},{},{:.3f},{:.3f},{:.3f},{:.1f},{},{:.1f},{:.9e}", c.name, r.driver, r.walls.size(),
                         wall, walls.min, walls.max, rss, r.messages, rate, r.makespan);
      if (r.driver == kFastDriver && runs.size() == 2) {
        const DriverRuns& ref = runs[1];
        const auto cmp =
            analysis::compare_transfers(read_transfers(ref.transfers_path), read_transfers(r.transfers_path));
        if (!cmp.mismatch.empty()) throw std::runtime_error("bench case " + c.name + ": " + cmp.mismatch);
        const double speedup = analysis::distribution_of(ref.walls).median / wall;
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
      csv += fmt::format(",{},{:.1f},{}", r.operations, op_rate, optional_csv(r.pe_bandwidth));
      if (r.driver == kFastDriver) {
        const bool ref = !members.empty();
        csv += fmt::format(",{},{},{},{},{},{},{}\n", v.judged_as, ref ? fmt::format("{:.9e}", v.makespan.min) : "",
                           ref ? fmt::format("{:.9e}", v.makespan.max) : "",
                           v.bandwidth ? fmt::format("{:.6e}", v.bandwidth->min) : "",
                           v.bandwidth ? fmt::format("{:.6e}", v.bandwidth->max) : "", v.verdict.text,
                           v.judged ? (v.verdict.ok ? "1" : "0") : "");
        csv.pop_back();  // the newline: the ensemble columns follow
        const bool fast_ensemble = !fast_members.empty();
        csv += fmt::format(",{},{},{}\n", fast_ensemble ? fmt::format("{:.9e}", v.fast_makespan) : "",
                           fast_ensemble ? optional_csv(v.fast_bandwidth) : "", fast_ensemble ? v.one_run.text : "");
      } else {
        csv += ",,,,,,,,,,\n";
      }
    }
    const auto members_json = [](const std::vector<Member>& ms) {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (const Member& m : ms)
        out.push_back({{"k", m.k},
                       {"router_delay_factor", 1 + m.k * 1e-9},
                       {"makespan_s", m.makespan},
                       {"pe_bandwidth_median_Bps", optional_json(m.pe_bandwidth)},
                       {"wall_median_s", m.wall}});
      return out;
    };
    if (c.chaotic && !members.empty()) jc["ensemble"] = members_json(members);
    if (!fast_members.empty()) jc["fast_ensemble"] = members_json(fast_members);
    nlohmann::ordered_json jv = {{"judged_as", v.judged_as},
                                 {"text", v.verdict.text},
                                 {"ok", v.judged ? nlohmann::ordered_json(v.verdict.ok) : nlohmann::ordered_json()},
                                 {"makespan_s", runs[0].makespan},
                                 {"pe_bandwidth_median_Bps", optional_json(runs[0].pe_bandwidth)}};
    if (!members.empty()) {
      jv["reference_makespan_s"] = {v.makespan.min, v.makespan.max};
      jv["reference_pe_bandwidth_median_Bps"] =
          v.bandwidth ? nlohmann::ordered_json({v.bandwidth->min, v.bandwidth->max}) : nlohmann::ordered_json();
    }
    if (v.judged && c.chaotic) {
      jv["widening"] = analysis::kEnsembleWidening;
      jv["fast_median_makespan_s"] = v.fast_makespan;
      jv["fast_median_pe_bandwidth_median_Bps"] = optional_json(v.fast_bandwidth);
      jv["fast_makespan_s"] = {v.fast_range.min, v.fast_range.max};
      jv["one_run"] = {{"text", v.one_run.text}, {"ok", v.one_run.ok}};
      jv["reference_members_outside_the_others"] = v.reference_self_outside;
      jv["false_alarm_probability"] = v.false_alarm;
      ensembles += fmt::format(
          "{:<16} fast members {:.6e}..{:.6e}, median {:.6e}: {} the reference's {:.6e}..{:.6e}\n{:<16} one fast run "
          "(k = 0): {}; reference members outside the others' range: {} of {}; false alarm {:.1f}%\n",
          c.name, v.fast_range.min, v.fast_range.max, v.fast_makespan, v.verdict.ok ? "inside" : "OUTSIDE",
          v.makespan.min, v.makespan.max, "", v.one_run.text, v.reference_self_outside, members.size(),
          100 * v.false_alarm);
    }
    if (v.judged && !c.chaotic) jv["tolerance"] = analysis::kExactTolerance;
    jc["verdict"] = jv;
    const bool ensemble = c.chaotic && a.ensemble > 0;
    verdicts += fmt::format("{:<16} {:<14} {:>15.6e} {:<26} {:>12} {:<17} {}\n", c.name, v.judged_as, v.fast_makespan,
                            members.empty() ? "-" : range_text(v.makespan, ensemble, "{:.6e}"),
                            optional_text(v.fast_bandwidth, "{:.2f}", 1e-6),
                            v.bandwidth ? range_text(*v.bandwidth, ensemble, "{:.2f}", 1e-6) : "-", v.verdict.text);

    if (a.noise_floor && !packet) {
      const DriverRuns twin = run_driver(perturbed(c, a.out_dir, 1), kFastDriver, 1, a.out_dir, "-perturbed");
      const auto cmp =
          analysis::compare_transfers(read_transfers(runs[0].transfers_path), read_transfers(twin.transfers_path));
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
  const std::string summary = failed.empty()
                                  ? fmt::format("verdicts: {} of {} cases judged, all pass\n", judged, cases.size())
                                  : fmt::format("verdicts: {} of {} cases judged, {} fail: {}\n", judged, cases.size(),
                                                failed.size(), fmt::join(failed, ", "));
  report["failed"] = failed;
  io::write_file_atomically(a.out_dir + "/bench.csv", csv);
  io::write_file_atomically(a.out_dir + "/bench.json", report.dump(1) + "\n");
  std::cout << table << "\n"
            << verdicts << summary
            << (speeds.empty() ? ""
                               : "\n" +
                                     speed_row("packet case", "threads", "flits", "flits/wall-s", "peer flits/s",
                                               "x peer", "target", "peer") +
                                     speeds)
            << (ensembles.empty() ? "" : "\n" + ensembles) << (comparisons.empty() ? "" : "\n" + comparisons)
            << "\nwritten: " << a.out_dir << "/bench.csv, bench.json\n";
  return failed.empty() ? 0 : 1;
}

}  // namespace t3sim::cli
