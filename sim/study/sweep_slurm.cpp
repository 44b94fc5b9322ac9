#include "sim/study/sweep_slurm.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "sim/child/external_command.hpp"
#include "sim/io/files/atomic_file.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/study/point_selection.hpp"
#include "sim/study/slurm_text.hpp"

namespace t3sim::study {
namespace {

// A word for a bash script in single quotes (a quote inside becomes '\'').
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("cannot find t3sim's own path (/proc/self/exe)");
  return std::string(buf, static_cast<size_t>(n));
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace

void check_slurm_safe(const std::string& dir, const std::string& study, const std::string& partition,
                      const std::string& time_limit) {
  const auto check = [](const std::string& value, const std::string& key) {
    const std::string bad = " \t\n\r#%\"'\\";
    const size_t at = value.find_first_of(bad);
    if (at != std::string::npos)
      throw io::InputError({key, 0, 0}, "",
                           fmt::format("'{}' holds '{}', which sbatch directives cannot carry (white space, #, %, "
                                       "quotes, backslash): choose another",
                                       value, value[at] == '\n' ? std::string("newline") : std::string(1, value[at])));
  };
  check(std::filesystem::absolute(dir).lexically_normal().string(), "--out");
  check(std::filesystem::current_path().string(), "the working folder");
  check(study, "the study's name");
  check(partition, "--partition");
  check(time_limit, "--time");
}

SlurmSubmission write_array_script(const std::string& spec, const std::string& dir_in, const std::string& study,
                                   const std::vector<std::vector<int>>& groups, const SlurmOptions& o,
                                   const std::string& name) {
  if (groups.empty()) throw std::invalid_argument("write_array_script: no points");
  const std::string dir = std::filesystem::absolute(dir_in).lexically_normal().string();
  const std::string spec_path = std::filesystem::absolute(spec).lexically_normal().string();
  std::filesystem::create_directories(dir + "/slurm");
  SlurmSubmission s;
  s.options = o;
  s.script = dir + "/" + name;
  for (const auto& g : groups) s.tasks.push_back(study::format_point_selection(g));
  std::string array = fmt::format("0-{}", groups.size() - 1);
  if (o.array_limit > 0) array += fmt::format("%{}", o.array_limit);
  std::string text = fmt::format(
      "#!/bin/bash\n"
      "# The study {} as a Slurm job array, written by `t3sim sweep --slurm`. Task i runs the points\n"
      "# POINTS[i] (indices as `t3sim sweep SPEC --list` prints them) and appends each finished one to\n"
      "# {}/parts/JOB_TASK.csv; `t3sim sweep SPEC --out DIR --collect` merges the parts into sweep.csv.\n"
      "#SBATCH --job-name=t3sim-{}\n"
      "#SBATCH --array={}\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --output={}/slurm/%A_%a.out\n"
      "#SBATCH --chdir={}\n",
      study, dir, study, array, dir, std::filesystem::current_path().string());
  if (!o.partition.empty()) text += "#SBATCH --partition=" + o.partition + "\n";
  if (!o.time_limit.empty()) text += "#SBATCH --time=" + o.time_limit + "\n";
  text += "set -euo pipefail\nPOINTS=(\n";
  for (const auto& t : s.tasks) text += "  " + t + "\n";
  text += ")\nexec " + quoted(self_path()) + " sweep " + quoted(spec_path) + " --out " + quoted(dir) +
          (o.uncertainty > 0 ? " --uncertainty " + std::to_string(o.uncertainty) : std::string()) +
          (o.driver.empty() ? std::string() : " --driver " + o.driver) +
          " --points \"${POINTS[$SLURM_ARRAY_TASK_ID]}\"\n";
  io::write_file_atomically(s.script, text);
  std::filesystem::permissions(s.script, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  return s;
}

std::string submit_array(const std::string& script) {
  const child::CommandOutcome o = child::run_command({"sbatch", "--parsable", script});
  if (o.exit_status == 127) throw std::runtime_error("sbatch not found: is Slurm installed (slurm-client)?");
  if (o.exit_status != 0)
    throw std::runtime_error(fmt::format("sbatch {} failed (exit {}): {}", script, o.exit_status, o.err));
  const std::string id = study::parse_sbatch_job_id(o.out);
  if (id.empty()) throw std::runtime_error("sbatch printed no job id: '" + o.out + "'");
  return id;
}

std::vector<SlurmSubmission> read_submissions(const std::string& dir) {
  std::vector<SlurmSubmission> out;
  const std::string path = dir + "/slurm-jobs.json";
  if (!std::filesystem::exists(path)) return out;
  const auto j = nlohmann::json::parse(io::read_whole_file(path));
  for (const auto& e : j.at("submissions")) {
    const auto& o = e.at("options");
    out.push_back(
        {e.at("job_id").get<std::string>(),
         e.at("script").get<std::string>(),
         e.at("tasks").get<std::vector<std::string>>(),
         {o.at("partition").get<std::string>(), o.at("time").get<std::string>(), o.at("array_limit").get<int>(),
          o.at("points_per_task").get<int>(), o.value("uncertainty", 0), o.value("driver", std::string())}});
  }
  return out;
}

void record_submission(const std::string& dir, const SlurmSubmission& s) {
  std::vector<SlurmSubmission> all = read_submissions(dir);
  all.push_back(s);
  nlohmann::ordered_json j;
  j["submissions"] = nlohmann::ordered_json::array();
  for (const auto& e : all)
    j["submissions"].push_back({{"job_id", e.job_id},
                                {"script", e.script},
                                {"options",
                                 {{"partition", e.options.partition},
                                  {"time", e.options.time_limit},
                                  {"array_limit", e.options.array_limit},
                                  {"points_per_task", e.options.points_per_task},
                                  {"uncertainty", e.options.uncertainty},
                                  {"driver", e.options.driver}}},
                                {"tasks", e.tasks}});
  io::write_file_atomically(dir + "/slurm-jobs.json", j.dump(1) + "\n");
}

TaskStates query_task_states(const std::vector<std::string>& job_ids) {
  TaskStates ts;
  if (job_ids.empty()) return ts;
  const child::CommandOutcome acct =
      child::run_command({"sacct", "-n", "-P", "-X", "-j", join(job_ids, ","), "-o", "JobID,State"});
  if (acct.exit_status == 0) {
    ts.source = "sacct";
    ts.state = study::parse_sacct_states(acct.out);
    return ts;
  }
  // No accounting database: the controller still knows finished jobs for MinJobAge seconds.
  bool any = false;
  for (const auto& id : job_ids) {
    const child::CommandOutcome o = child::run_command({"scontrol", "show", "job", "-o", id});
    if (o.exit_status != 0) continue;
    any = true;
    for (const auto& [task, state] : study::parse_scontrol_states(o.out)) ts.state[task] = state;
  }
  if (any) ts.source = "scontrol";
  return ts;
}

std::map<std::string, int> queued_tasks(const std::vector<std::string>& job_ids) {
  std::map<std::string, int> by_state;
  for (const auto& id : job_ids) {  // one at a time: squeue fails on the whole list if one id is gone
    const child::CommandOutcome o = child::run_command({"squeue", "-h", "-r", "-j", id, "-o", "%i %T"});
    if (o.exit_status == 127) return by_state;  // no Slurm here
    if (o.exit_status != 0) {
      if (o.err.find("Invalid job id") != std::string::npos) continue;  // finished and forgotten
      throw std::runtime_error(fmt::format("squeue -j {} failed (exit {}): {}", id, o.exit_status, o.err));
    }
    std::istringstream in(o.out);
    std::string task, st;
    while (in >> task >> st) ++by_state[st];
  }
  return by_state;
}

}  // namespace t3sim::study
