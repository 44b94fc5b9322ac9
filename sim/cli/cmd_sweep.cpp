// `t3sim sweep SPEC.yaml`: every point of a what-if study as its own `t3sim run --summary` process,
// `jobs` at a time. Each finished point is appended to OUT/sweep.csv at once (one whole line, then
// fsync), so a killed sweep loses at most the points still running; run again, it skips the points
// already in the file and drops a half-written last line. At the end the file is rewritten in point
// order (deterministic: no wall times; those go to sweep-timing.csv) and plotted if gnuplot is there.
// Points die with the sweep (even on kill -9); SIGINT or SIGTERM stops it and prints the resuming command.
// With --points LIST it runs only those points and appends to a part file of its own (a Slurm array
// task: sweep_parts.hpp); --slurm, --collect, --resubmit and --wait hand the study to Slurm
// (cmd_sweep_slurm.cpp).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "sim/child/child_run.hpp"
#include "sim/cli/commands.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/study/sweep_spec.hpp"
#include "sim/report/sweep_plot.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/study/driver_check.hpp"
#include "sim/study/point_selection.hpp"
#include "sim/study/sweep_parts.hpp"
#include "sim/study/sweep_rows.hpp"
#include "sim/study/sweep_slurm.hpp"

namespace t3sim::cli {
namespace {

struct Running {
  io::SweepPoint point;
  std::string out_file, err_file;
  std::chrono::steady_clock::time_point started;
};

// `mask`: the signal mask to run the point's process under (the sweep's own before it blocked SIGINT,
// SIGTERM and SIGCHLD to wait for them).
// `traffic_dir`: the study's folder, where the point's traffic report goes; "": none (a check's rerun of a
// point must not take the place of the study's report of it).
pid_t start_point(const io::SweepPoint& p, const std::string& traffic_dir, const std::string& out_file,
                  const std::string& err_file, int uncertainty, const sigset_t& mask) {
  protocol::RunRequest request = p.request();
  request.uncertainty = uncertainty;
  if (!traffic_dir.empty()) request.traffic_file = study::point_traffic_file(traffic_dir, p.index);
  std::vector<std::string> args = {"t3sim"};
  const auto run = request.to_argv();
  args.insert(args.end(), run.begin(), run.end());
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a sweep point");
  if (pid == 0) {
    child::die_with_parent(parent);  // a sweep killed, even by kill -9, leaves no point running
    sigprocmask(SIG_SETMASK, &mask, nullptr);
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

// Runs `todo` (`jobs` at a time), appending each finished point's row to `rows_file` and, when
// `failed_file` is set, each failure to it, and when `timing_file` is set each wall time; progress counts
// from `already` of `total`. Traffic reports go under `traffic_dir` ("": none).
struct PointsRun {
  int failures = 0;
  std::map<std::string, double> wall;  // by point id
  int interrupted = 0;                 // SIGINT or SIGTERM when the sweep was stopped by one; 0: it ran to the end
};

// True when SIGINT or SIGTERM is pending for this process (blocked: taken by sigwaitinfo).
int pending_interrupt() {
  sigset_t pending;
  sigpending(&pending);
  for (int sig : {SIGINT, SIGTERM})
    if (sigismember(&pending, sig)) return sig;
  return 0;
}
PointsRun run_points(const std::vector<io::SweepPoint>& todo, const std::string& traffic_dir, size_t already,
                     size_t total, int jobs, int uncertainty, const std::string& rows_file,
                     const std::string& failed_file, const std::string& scratch, const std::string& timing_file = "") {
  std::filesystem::create_directories(scratch);
  PointsRun run;
  std::map<pid_t, Running> running;
  size_t next = 0, finished = already;
  // SIGINT and SIGTERM are blocked and waited for beside SIGCHLD (sigwaitinfo): no handler, no global
  // flag. Either stops the sweep: its points still running are killed and the resuming command printed.
  sigset_t watched, mask;
  sigemptyset(&watched);
  for (int sig : {SIGINT, SIGTERM, SIGCHLD}) sigaddset(&watched, sig);
  sigprocmask(SIG_BLOCK, &watched, &mask);
  while ((next < todo.size() || !running.empty()) && run.interrupted == 0) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
      const auto& p = todo[next++];
      const std::string base = scratch + "/" + std::to_string(p.index);
      running[start_point(p, traffic_dir, base + ".json", base + ".err", uncertainty, mask)] = {
          p, base + ".json", base + ".err", std::chrono::steady_clock::now()};
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0) break;
    if (pid == 0) {  // none finished yet: sleep until one does or the sweep is told to stop
      siginfo_t info;
      const int sig = sigwaitinfo(&watched, &info);
      if (sig == SIGINT || sig == SIGTERM) run.interrupted = sig;
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running r = it->second;
    running.erase(it);
    // Ctrl-C reaches the whole process group: a point killed with the sweep did not fail, it was stopped.
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM) && pending_interrupt()) {
      run.interrupted = WTERMSIG(status);
      break;
    }
    ++finished;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.started).count();
    run.wall[r.point.id()] = secs;
    if (!timing_file.empty()) study::append_line_durably(timing_file, fmt::format("{},{:.3f}", r.point.id(), secs));
    std::string outcome = "ok";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::ifstream in(r.out_file);
      std::string line;
      std::getline(in, line);
      study::append_line_durably(rows_file, study::sweep_row(r.point, line));
    } else {
      ++run.failures;
      std::ifstream err(r.err_file);
      std::stringstream msg;
      msg << err.rdbuf();
      outcome = "FAILED: " + msg.str();
      if (!failed_file.empty()) {
        std::string first = msg.str().substr(0, msg.str().find('\n'));
        std::replace(first.begin(), first.end(), ',', ';');
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        study::append_line_durably(failed_file, fmt::format("{},exit {}: {}", r.point.index, code, first));
      }
    }
    std::cerr << fmt::format("[{}/{}] {} {:.1f}s {}\n", finished, total, r.point.id(), secs, outcome);
  }
  for (const auto& [pid, r] : running) kill(pid, SIGKILL);  // interrupted: what is left would be redone anyway
  for (const auto& [pid, r] : running) waitpid(pid, nullptr, 0);
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  return run;
}

// The command that resumes this sweep where it stopped: this binary, the same study, folder and options.
std::string resume_command(const SweepArgs& a, const std::string& dir) {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::vector<std::string> words = {n > 0 ? std::string(self, static_cast<size_t>(n)) : "t3sim", "sweep", a.spec,
                                    "--out", dir};
  if (!a.points.empty()) words.insert(words.end(), {"--points", a.points});
  if (!a.driver.empty()) words.insert(words.end(), {"--driver", a.driver});
  if (a.uncertainty > 0) words.insert(words.end(), {"--uncertainty", std::to_string(a.uncertainty)});
  if (a.check > 0) words.insert(words.end(), {"--check", fmt::format("{}", a.check), "--check-driver", a.check_driver});
  if (a.report) words.push_back("--report");
  if (a.force) words.push_back("--force");
  std::string text;
  for (const auto& w : words) {
    const bool plain = !w.empty() && w.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                         "_-+=.,/:@%") == std::string::npos;
    std::string quoted = "'";
    for (char c : w) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += (text.empty() ? "" : " ") + (plain ? w : quoted + "'");
  }
  return text;
}

// What an interrupted sweep says, and its exit status (128 + the signal, as a shell reports it).
int interrupted(const std::string& name, int sig, size_t done, size_t total, const SweepArgs& a,
                const std::string& dir) {
  std::cerr << fmt::format("sweep {}: interrupted by {} with {} of {} points done; resume with:\n  {}\n", name,
                           sig == SIGINT ? "SIGINT" : "SIGTERM", done, total, resume_command(a, dir));
  return 128 + sig;
}

std::string timing_text(const std::map<std::string, double>& wall) {
  std::string timing = "id,wall_s\n";
  for (const auto& [id, s] : wall) timing += fmt::format("{},{:.3f}\n", id, s);
  return timing;
}

// One array task (--points LIST): the listed points not yet done anywhere under DIR, appended to the
// task's own part files. sweep.csv is not touched: `--collect` merges.
int run_task(const io::SweepSpec& spec, const std::vector<io::SweepPoint>& points, const std::string& dir,
             const SweepArgs& a) {
  const std::string& list = a.points;
  const int uncertainty = a.uncertainty;
  const std::vector<int> selected = study::parse_point_selection(list, static_cast<int>(points.size()));
  const study::PartFiles files = study::part_files(dir, study::format_point_selection(selected));
  std::filesystem::create_directories(dir + "/parts");
  const auto done = study::rows_in_folder(dir);
  std::vector<io::SweepPoint> todo;
  for (int i : selected)
    if (!done.count(points[static_cast<size_t>(i)].id())) todo.push_back(points[static_cast<size_t>(i)]);
  const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
  const int jobs = cpus && std::atoi(cpus) > 0 ? std::atoi(cpus)
                   : spec.jobs > 0             ? spec.jobs
                                               : std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  std::cerr << fmt::format("sweep {} task: points {} ({}), {} already done, {} to run on {} processes into {}\n",
                           spec.name, study::format_point_selection(selected), selected.size(),
                           selected.size() - todo.size(), todo.size(), jobs, files.rows);
  const std::string scratch = files.rows.substr(0, files.rows.size() - 4) + ".running";
  // A task killed mid-write (a requeue, a node lost) leaves a torn last line: cut it before appending.
  for (const auto& f : {files.rows, files.failed, files.timing}) study::drop_torn_last_line(f);
  const PointsRun run = run_points(todo, dir, selected.size() - todo.size(), selected.size(), jobs, uncertainty,
                                   files.rows, files.failed, scratch, files.timing);
  if (run.interrupted)
    return interrupted(spec.name, run.interrupted, selected.size() - todo.size() + run.wall.size(), selected.size(), a,
                       dir);
  std::filesystem::remove_all(scratch);
  std::cerr << fmt::format("sweep {} task: {} points run, {} failed\n", spec.name, todo.size(), run.failures);
  return run.failures > 0 ? 1 : 0;
}

// The points --check runs (study/driver_check.hpp); refused before anything runs when there are none.
std::vector<study::PointToCheck> points_to_check(const std::vector<io::SweepPoint>& points, const SweepArgs& a) {
  const std::vector<study::PointToCheck> chosen = study::check_points(points, a.check, a.check_driver);
  if (chosen.empty())
    throw io::InputError({"--check-driver", 0, 0}, "",
                         "every point of " + a.spec + " already runs under --driver " + a.check_driver +
                             ": there is nothing to check against it (give another --check-driver)");
  return chosen;
}

// `--check FRACTION`: the chosen points again under the check's driver, into DIR/check-DRIVER.csv (kept
// and resumed as sweep.csv is), then each figure's difference written and its largest printed. Returns
// the number of check runs that failed, or -signal when the check was interrupted.
int run_check(const io::SweepSpec& spec, const std::vector<io::SweepPoint>& points,
              const std::vector<study::PointToCheck>& chosen, const std::string& dir, const SweepArgs& a, int jobs) {
  const std::string rows_file = study::check_rows_file(dir, a.check_driver);
  const std::string header = io::sweep_header(spec);
  auto done = study::read_sweep_rows(rows_file);
  io::write_file_atomically(rows_file, study::sweep_csv_text(done, header));
  std::vector<io::SweepPoint> todo;
  for (const auto& c : chosen)
    if (!done.count(c.point.id())) todo.push_back(c.point);
  std::cerr << fmt::format("sweep {}: checking {} of {} points under --driver {}, {} already in {}\n", spec.name,
                           chosen.size(), points.size(), a.check_driver, chosen.size() - todo.size(), rows_file);
  // No uncertainty samples and no traffic reports: the check asks for one figure per point.
  const PointsRun run =
      run_points(todo, "", chosen.size() - todo.size(), chosen.size(), jobs, 0, rows_file, "", dir + "/.check-points");
  if (run.interrupted) return -run.interrupted;
  std::filesystem::remove_all(dir + "/.check-points");
  done = study::read_sweep_rows(rows_file);
  io::write_file_atomically(rows_file, study::sweep_csv_text(done, header));
  const study::DriverCheck check =
      study::compare_rows(chosen, study::read_sweep_rows(dir + "/sweep.csv"), done, header, a.check_driver);
  io::write_file_atomically(study::check_differences_file(dir, a.check_driver), study::check_differences_csv(check));
  std::cerr << "sweep " << spec.name << ": " << study::check_summary_text(check, study::driver_name(spec.common.driver))
            << fmt::format("  every checked point: {}\n", study::check_differences_file(dir, a.check_driver));
  return run.failures;
}

}  // namespace

int cmd_sweep(const SweepArgs& a) {
  io::SweepSpec spec = io::load_sweep(a.spec);
  if (!a.driver.empty()) spec.common.driver = a.driver;  // an axis's own driver still wins for its points
  const auto points = io::sweep_points(spec);
  if (a.list) {
    for (const auto& p : points) std::cout << p.index << " " << p.id() << "\n";
    std::cout << "sweep " << spec.name << ": " << points.size() << " points\n";
    return 0;
  }
  const std::string dir = a.out_dir.empty() ? "sweep-" + spec.name : a.out_dir;
  if (!a.force) {
    std::set<std::string> ids;
    for (const auto& p : points) ids.insert(p.id());
    if (const std::string other = study::other_study_in(dir, a.spec, ids); !other.empty())
      throw io::InputError(
          {"--out", 0, 0}, "",
          dir + " holds " + other + ", not " + a.spec + ": give another --out, or --force to write into it anyway");
  }
  if (!a.points.empty()) return run_task(spec, points, dir, a);
  if (a.slurm || a.collect || a.resubmit || a.wait) return cmd_sweep_slurm(a, spec, points, dir);
  const std::vector<study::PointToCheck> chosen =
      a.check > 0 ? points_to_check(points, a) : std::vector<study::PointToCheck>{};
  std::filesystem::create_directories(dir);
  report::write_sweep_manifest(dir, a.spec, a.uncertainty, a.check, a.check_driver);
  const std::string csv = dir + "/sweep.csv";
  // Rewrite what survived (drops a half-written line), then append from there.
  const auto done = study::read_sweep_rows(csv);
  io::write_file_atomically(
      csv, io::sweep_header(spec) + "\n" + [&] {
        std::string text;
        for (const auto& [id, line] : done) text += line + "\n";
        return text;
      }());
  std::vector<io::SweepPoint> todo;
  for (const auto& p : points)
    if (!done.count(p.id())) todo.push_back(p);
  const int jobs = spec.jobs > 0 ? spec.jobs : std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  std::cerr << fmt::format("sweep {}: {} points, {} already in {}, {} to run on {} processes\n", spec.name,
                           points.size(), points.size() - todo.size(), csv, todo.size(), jobs);
  const auto sweep_start = std::chrono::steady_clock::now();
  const PointsRun run =
      run_points(todo, dir, points.size() - todo.size(), points.size(), jobs, a.uncertainty, csv, "", dir + "/.points");
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - sweep_start).count();
  if (run.interrupted)  // sweep.csv holds every point finished (durably): the rerun skips them
    return interrupted(spec.name, run.interrupted, study::read_sweep_rows(csv).size(), points.size(), a, dir);

  // Point order, so that the same study gives the same file (rows found by id take the current index).
  auto rows = study::read_sweep_rows(csv);
  for (const auto& p : points)
    if (rows.count(p.id())) rows[p.id()] = study::reindexed(rows[p.id()], p.index);
  io::write_file_atomically(csv, study::sweep_csv_text(rows, io::sweep_header(spec)));
  io::write_file_atomically(dir + "/sweep-timing.csv", timing_text(run.wall));
  std::filesystem::remove_all(dir + "/.points");
  std::cerr << fmt::format("sweep {}: {} points in {}, {:.1f} s wall for this run, {} failed\n", spec.name, rows.size(),
                           csv, total, run.failures);
  int failures = run.failures;
  if (a.check > 0) {
    const int check = run_check(spec, points, chosen, dir, a, jobs);
    if (check < 0) return interrupted(spec.name, -check, rows.size(), points.size(), a, dir);
    failures += check;
  }
  const std::string plot_note = report::plot_sweep(csv, dir, spec);
  if (!plot_note.empty()) std::cerr << plot_note << "\n";
  if (a.report &&
      std::all_of(points.begin(), points.end(), [&](const io::SweepPoint& p) { return rows.count(p.id()); }))
    std::cerr << "report: " << report::write_sweep_report(dir) << "\n";
  return failures > 0 ? 1 : 0;
}

}  // namespace t3sim::cli
