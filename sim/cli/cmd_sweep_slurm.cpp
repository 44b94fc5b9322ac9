// `t3sim sweep SPEC --slurm | --collect | --resubmit | --wait`: a study run as Slurm job arrays. --slurm
// writes DIR/sweep.sbatch (one array task per --points-per-task points not yet done) and submits it;
// --collect merges what the tasks wrote into sweep.csv and names the missing and failed points with
// their tasks' Slurm states; --resubmit submits an array of only those; --wait shows progress until the
// study's tasks have left the queue, then collects.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "sim/cli/commands.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/report/sweep_plot.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/study/point_selection.hpp"
#include "sim/study/sweep_parts.hpp"
#include "sim/study/sweep_slurm.hpp"

namespace t3sim::cli {
namespace {

std::vector<std::string> job_ids_of(const std::vector<study::SlurmSubmission>& subs) {
  std::vector<std::string> ids;
  for (const auto& s : subs)
    if (!s.job_id.empty()) ids.push_back(s.job_id);
  return ids;
}

// Which array task (of the latest submission covering it) runs each point: "JOB_TASK".
std::map<int, std::string> task_of_points(const std::vector<study::SlurmSubmission>& subs, int point_count) {
  std::map<int, std::string> task_of;
  for (const auto& s : subs) {
    if (s.job_id.empty()) continue;
    for (size_t t = 0; t < s.tasks.size(); ++t)
      for (int i : study::parse_point_selection(s.tasks[t], point_count))
        task_of[i] = s.job_id + "_" + std::to_string(t);
  }
  return task_of;
}

// The recorded submissions must fit the study: a spec that shrank since would name points it has not.
void check_submissions(const std::vector<study::SlurmSubmission>& subs, const std::string& dir, int point_count) {
  for (const auto& s : subs)
    for (const auto& t : s.tasks) try {
        study::parse_point_selection(t, point_count);
      } catch (const io::InputError&) {
        throw io::InputError({dir + "/slurm-jobs.json", 0, 0}, "submissions",
                             fmt::format("job {} ran points {}, but the study has {} points now: its sweep file "
                                         "changed since; use a new --out folder",
                                         s.job_id, t, point_count));
      }
}

// Tasks of the study still queued or running, or an error naming squeue's own message.
int count_queued(const std::string& dir) {
  int n = 0;
  for (const auto& [state, count] : study::queued_tasks(job_ids_of(study::read_submissions(dir)))) n += count;
  return n;
}

// Collects and says what is missing: exit 0 when every point is in sweep.csv, 1 otherwise.
int collect_and_report(const io::SweepSpec& spec, const std::vector<io::SweepPoint>& points, const std::string& dir,
                       bool report, study::CollectOutcome* outcome = nullptr) {
  const study::CollectOutcome c = study::collect_parts(points, dir, io::sweep_header(spec));
  if (outcome) *outcome = c;
  std::cerr << fmt::format("sweep {}: {} of {} points collected into {}/sweep.csv", spec.name, c.collected, c.total,
                           dir);
  if (c.foreign > 0) std::cerr << fmt::format(" (and {} rows of points this study no longer lists, kept)", c.foreign);
  if (c.missing.empty()) {
    std::cerr << ", none missing\n";
  } else {
    std::cerr << fmt::format("; {} missing ({}), {} of them failed\n", c.missing.size(),
                             study::format_point_selection(c.missing), c.failed.size());
    const auto subs = study::read_submissions(dir);
    const auto task_of = task_of_points(subs, static_cast<int>(points.size()));
    const study::TaskStates states = study::query_task_states(job_ids_of(subs));
    for (int i : c.missing) {
      std::string task = "no task";
      if (task_of.count(i)) {
        task = "task " + task_of.at(i);
        const auto st = states.state.find(task_of.at(i));
        if (st != states.state.end())
          task += ": " + st->second + " (" + states.source + ")";
        else if (states.source.empty())
          task += ": Slurm has no record of it (no sacct, no scontrol answer)";
        else
          task += ": not in " + states.source + "'s records (cancelled while pending, or forgotten)";
      }
      const std::string why = c.failed.count(i) ? "failed, " + c.failed.at(i) : "missing";
      std::cerr << fmt::format("  point {} {} [{}]: {}\n", i, why, task, points[static_cast<size_t>(i)].id());
    }
  }
  const std::string plot_note = report::plot_sweep(dir + "/sweep.csv", dir, spec);
  if (!plot_note.empty()) std::cerr << plot_note << "\n";
  if (report && c.missing.empty()) std::cerr << "report: " << report::write_sweep_report(dir) << "\n";
  return c.missing.empty() ? 0 : 1;
}

// Progress until no task of the study's jobs is queued or running: one line, updated in place on a
// terminal, a plain line at each change otherwise.
void wait_for_tasks(const io::SweepSpec& spec, const std::vector<io::SweepPoint>& points, const std::string& dir) {
  const std::vector<std::string> ids = job_ids_of(study::read_submissions(dir));
  const bool terminal = isatty(STDERR_FILENO) != 0;
  std::string last;
  const auto started = std::chrono::steady_clock::now();
  int squeue_failures = 0;
  while (true) {
    std::map<std::string, int> queued;
    try {
      queued = study::queued_tasks(ids);
      squeue_failures = 0;
    } catch (const std::runtime_error& e) {  // the controller busy or restarting: try again for a minute
      if (++squeue_failures > 30) throw;
      std::this_thread::sleep_for(std::chrono::seconds(2));
      continue;
    }
    int running = 0, waiting = 0;
    for (const auto& [state, n] : queued) (state == "RUNNING" || state == "COMPLETING" ? running : waiting) += n;
    const auto rows = study::rows_in_folder(dir);
    const auto failures = study::failures_in_folder(dir);
    size_t done = 0, failed = 0;
    for (const auto& p : points) {
      if (rows.count(p.id()))
        ++done;
      else if (failures.count(p.index))
        ++failed;
    }
    const std::string line = fmt::format("sweep {}: {}/{} points done, {} failed, {} tasks running, {} queued",
                                         spec.name, done, points.size(), failed, running, waiting);
    if (terminal) {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << "\r" << line << fmt::format(" ({:.0f} s)", secs) << "\033[K" << std::flush;
    } else if (line != last) {
      std::cerr << line << "\n";
    }
    last = line;
    if (queued.empty()) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (terminal) std::cerr << "\n";
}

// Writes an array of `todo` and, unless --dry-run, submits it and records the submission.
void submit(const SweepArgs& a, const io::SweepSpec& spec, const std::string& dir, const std::vector<int>& todo,
            const std::string& script_name) {
  // Options not given again are those of the study's last submission (a resubmit keeps its shape).
  const auto earlier = study::read_submissions(dir);
  study::SlurmOptions options = earlier.empty() ? study::SlurmOptions{} : earlier.back().options;
  if (!a.partition.empty()) options.partition = a.partition;
  if (!a.time_limit.empty()) options.time_limit = a.time_limit;
  if (a.array_limit >= 0) options.array_limit = a.array_limit;
  if (a.points_per_task > 0) options.points_per_task = a.points_per_task;
  options.uncertainty = a.uncertainty;
  options.driver = a.driver;
  study::SlurmSubmission s = write_array_script(
      a.spec, dir, spec.name, study::group_points(todo, options.points_per_task), options, script_name);
  if (a.dry_run) {
    std::cerr << fmt::format("sweep {}: wrote {} ({} tasks, {} points); not submitted (--dry-run): sbatch {}\n",
                             spec.name, s.script, s.tasks.size(), todo.size(), s.script);
    return;
  }
  s.job_id = study::submit_array(s.script);
  record_submission(dir, s);
  std::cerr << fmt::format(
      "sweep {}: submitted job array {} ({} tasks, {} points, {}); `t3sim sweep {} --out {} "
      "--collect` merges the results\n",
      spec.name, s.job_id, s.tasks.size(), todo.size(), s.script, a.spec, dir);
  std::cout << s.job_id << "\n";
}

}  // namespace

int cmd_sweep_slurm(const SweepArgs& a, const io::SweepSpec& spec, const std::vector<io::SweepPoint>& points,
                    const std::string& dir) {
  const bool has_results = std::filesystem::exists(dir + "/sweep.csv") || std::filesystem::exists(dir + "/parts") ||
                           std::filesystem::exists(dir + "/slurm-jobs.json");
  if (!a.slurm && !has_results)
    throw io::InputError({dir, 0, 0}, "--out",
                         "has no sweep.csv, parts/ or slurm-jobs.json to collect (wrong --out, or not submitted yet?)");
  check_submissions(study::read_submissions(dir), dir, static_cast<int>(points.size()));
  if (a.slurm || a.resubmit) study::check_slurm_safe(dir, spec.name, a.partition, a.time_limit);
  std::filesystem::create_directories(dir + "/parts");
  report::write_sweep_manifest(dir, a.spec, a.uncertainty);
  if (a.slurm) {
    if (const int queued = count_queued(dir); queued > 0 && !a.dry_run) {
      std::cerr << fmt::format(
          "sweep {}: not submitting: {} tasks of this study are still queued or running (wait with --collect --wait, "
          "or scancel them)\n",
          spec.name, queued);
      return 1;
    }
    const auto done = study::rows_in_folder(dir);
    std::vector<int> todo;
    for (const auto& p : points)
      if (!done.count(p.id())) todo.push_back(p.index);
    if (todo.empty()) {
      std::cerr << fmt::format("sweep {}: all {} points already done in {}; nothing submitted\n", spec.name,
                               points.size(), dir);
      return collect_and_report(spec, points, dir, a.report);
    }
    submit(a, spec, dir, todo, "sweep.sbatch");
    if (a.dry_run || !a.wait) return 0;
    wait_for_tasks(spec, points, dir);
    return collect_and_report(spec, points, dir, a.report);
  }
  if (a.wait) wait_for_tasks(spec, points, dir);
  study::CollectOutcome c;
  const int status = collect_and_report(spec, points, dir, a.report, &c);
  if (!a.resubmit || c.missing.empty()) return status;
  if (const int n = count_queued(dir); n > 0) {
    std::cerr << fmt::format(
        "sweep {}: not resubmitting: {} tasks of this study are still queued or running (wait with --wait, or "
        "scancel them)\n",
        spec.name, n);
    return 1;
  }
  const std::string name = fmt::format("sweep-resubmit-{}.sbatch", study::read_submissions(dir).size());
  submit(a, spec, dir, c.missing, name);
  if (a.dry_run || !a.wait) return 0;
  wait_for_tasks(spec, points, dir);
  return collect_and_report(spec, points, dir, a.report);
}

}  // namespace t3sim::cli
