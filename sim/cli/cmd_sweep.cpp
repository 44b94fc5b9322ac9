// `t3sim sweep SPEC.yaml`: every point of a what-if study as its own `t3sim run --summary` process,
// `jobs` at a time. Each finished point is appended to OUT/sweep.csv at once (one whole line, then
// fsync), so a killed sweep loses at most the points still running; run again, it skips the points
// already in the file and drops a half-written last line. At the end the file is rewritten in point
// order (deterministic: no wall times; those go to sweep-timing.csv) and plotted if gnuplot is there.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/cli/sweep_plot.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/sweep_spec.hpp"

namespace t3sim::cli {
namespace {

const char* kHeader =
    "index,machine,workload,pes,placement,bytes,makespan_us,pe_MBps_min,pe_MBps_median,pe_MBps_mean,pe_MBps_max,"
    "pair_MBps_median,max_link_utilisation,busiest_link,bisection_utilisation,transfers,makespan_us_p05,"
    "makespan_us_p95,pe_MBps_median_p05,pe_MBps_median_p95,id";
constexpr size_t kColumns = 21;  // the four band columns are empty without --uncertainty

size_t count_fields(const std::string& line) {
  return static_cast<size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

// Rows already in the file, by point id; a line without its newline or with the wrong field count is dropped.
std::map<std::string, std::string> read_done(const std::string& csv) {
  std::map<std::string, std::string> done;
  std::ifstream in(csv, std::ios::binary);
  if (!in) return done;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string::npos) break;  // a half-written last line
    const std::string line = text.substr(start, nl - start);
    start = nl + 1;
    if (line == kHeader || count_fields(line) != kColumns) continue;
    done[line.substr(line.rfind(',') + 1)] = line;
  }
  return done;
}

std::string row_of(const io::SweepPoint& p, const std::string& summary_json) {
  const auto j = nlohmann::json::parse(summary_json);
  const auto& t = j.at("traffic");
  const auto& size = t.at("sizes").at(0);
  const auto& pe = size.at("pe_bandwidth_Bps");
  std::string bands = ",,,";
  if (j.contains("uncertainty")) {  // 5-95% over the samples (run --uncertainty)
    const auto& u = j.at("uncertainty");
    const auto& m = u.at("makespan_s");
    const auto& b = u.at("sizes").at(0).at("pe_bandwidth_median_Bps");
    bands = fmt::format("{:.3f},{:.3f},{:.3f},{:.3f}", m.at("p05").get<double>() * 1e6, m.at("p95").get<double>() * 1e6,
                        b.at("p05").get<double>() / 1e6, b.at("p95").get<double>() / 1e6);
  }
  return fmt::format("{},{},{},{},{},{:.0f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.4f},{},{:.4f},{},{},{}",
                     p.index, j.at("machine").get<std::string>(), j.at("workload").get<std::string>(), p.pes,
                     p.placement, p.bytes, t.at("makespan_s").get<double>() * 1e6, pe.at("min").get<double>() / 1e6,
                     pe.at("median").get<double>() / 1e6, pe.at("mean").get<double>() / 1e6,
                     pe.at("max").get<double>() / 1e6, size.at("pair_bandwidth_Bps").at("median").get<double>() / 1e6,
                     t.at("max_link_utilisation").get<double>(), t.at("busiest_link").get<std::string>(),
                     t.at("bisection").at("utilisation").get<double>(), t.at("transfers").get<size_t>(), bands, p.id());
}

void append_line(const std::string& csv, const std::string& line) {
  const int fd = ::open(csv.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) throw std::runtime_error(csv + ": cannot append");
  const std::string text = line + "\n";
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error(csv + ": write failed");
}

struct Running {
  io::SweepPoint point;
  std::string out_file, err_file;
  std::chrono::steady_clock::time_point started;
};

pid_t start_point(const io::SweepPoint& p, const std::string& out_file, const std::string& err_file, int uncertainty) {
  std::vector<std::string> args = {"t3sim",
                                   "run",
                                   "--machine",
                                   p.machine,
                                   p.trace ? "--trace" : "--workload",
                                   p.workload,
                                   "--pes",
                                   std::to_string(p.pes),
                                   "--placement",
                                   p.placement,
                                   "--size",
                                   fmt::format("{:.0f}B", p.bytes),
                                   "--summary"};
  if (uncertainty > 0) args.insert(args.end(), {"--uncertainty", std::to_string(uncertainty)});
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a sweep point");
  if (pid == 0) {
    const int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(126);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

int cmd_sweep(const SweepArgs& a) {
  const io::SweepSpec spec = io::load_sweep(a.spec);
  const auto points = io::sweep_points(spec);
  if (a.list) {
    for (const auto& p : points) std::cout << p.index << " " << p.id() << "\n";
    std::cout << "sweep " << spec.name << ": " << points.size() << " points\n";
    return 0;
  }
  const std::string dir = a.out_dir.empty() ? "sweep-" + spec.name : a.out_dir;
  std::filesystem::create_directories(dir + "/.points");
  const std::string csv = dir + "/sweep.csv";
  auto done = read_done(csv);
  // Rewrite what survived (drops a half-written line), then append from there.
  {
    std::string text = std::string(kHeader) + "\n";
    for (const auto& [id, line] : done) text += line + "\n";
    io::write_file_atomically(csv, text);
  }
  std::vector<io::SweepPoint> todo;
  for (const auto& p : points)
    if (!done.count(p.id())) todo.push_back(p);
  const int jobs = spec.jobs > 0 ? spec.jobs : std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  std::cerr << fmt::format("sweep {}: {} points, {} already in {}, {} to run on {} processes\n", spec.name,
                           points.size(), points.size() - todo.size(), csv, todo.size(), jobs);

  std::map<pid_t, Running> running;
  std::map<std::string, double> wall;
  int failures = 0;
  size_t next = 0, finished = points.size() - todo.size();
  const auto sweep_start = std::chrono::steady_clock::now();
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
      const auto& p = todo[next++];
      const std::string base = dir + "/.points/" + std::to_string(p.index);
      running[start_point(p, base + ".json", base + ".err", a.uncertainty)] = {p, base + ".json", base + ".err",
                                                                               std::chrono::steady_clock::now()};
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running r = it->second;
    running.erase(it);
    ++finished;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.started).count();
    wall[r.point.id()] = secs;
    std::string outcome = "ok";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::ifstream in(r.out_file);
      std::string line;
      std::getline(in, line);
      append_line(csv, row_of(r.point, line));
    } else {
      ++failures;
      std::ifstream err(r.err_file);
      std::stringstream msg;
      msg << err.rdbuf();
      outcome = "FAILED: " + msg.str();
    }
    std::cerr << fmt::format("[{}/{}] {} {:.1f}s {}\n", finished, points.size(), r.point.id(), secs, outcome);
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - sweep_start).count();

  // Point order, so that the same study gives the same file.
  done = read_done(csv);
  std::map<int, std::string> ordered;
  for (const auto& [id, line] : done) ordered[std::stoi(line.substr(0, line.find(',')))] = line;
  std::string text = std::string(kHeader) + "\n";
  for (const auto& [index, line] : ordered) text += line + "\n";
  io::write_file_atomically(csv, text);
  std::string timing = "id,wall_s\n";
  for (const auto& [id, s] : wall) timing += fmt::format("{},{:.3f}\n", id, s);
  io::write_file_atomically(dir + "/sweep-timing.csv", timing);
  std::filesystem::remove_all(dir + "/.points");
  std::cerr << fmt::format("sweep {}: {} points in {}, {:.1f} s wall for this run, {} failed\n", spec.name,
                           ordered.size(), csv, total, failures);
  const std::string plot_note = plot_sweep(csv, dir);
  if (!plot_note.empty()) std::cerr << plot_note << "\n";
  return failures > 0 ? 1 : 0;
}

}  // namespace t3sim::cli
