// t3sim: command line. The only place that catches exceptions and chooses exit codes.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/uncertainty_run.hpp"
#include "sim/core/routing/routing.hpp"
#include "sim/core/support/units.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/io/files/data_dir.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/workload/workload_loader.hpp"

namespace {

// A count from the command line: a whole number of at least 1, said in those words (CLI::PositiveNumber
// on an int printed the range 0 .. 1.8e308 in full).
const CLI::Validator kWholeNumberAtLeast1(
    [](std::string& text) -> std::string {
      size_t used = 0;
      long long value = 0;
      try {
        value = std::stoll(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || text.empty()) return "must be a whole number (got '" + text + "')";
      if (value < 1) return "must be at least 1 (got " + text + ")";
      if (value > 1000000000) return "must be at most 1000000000 (got " + text + ")";
      return "";
    },
    "INT>=1");

// "PATH: Not a directory (cannot create directories)" for a filesystem error on a path the user named.
std::string filesystem_message(const std::filesystem::filesystem_error& e) {
  std::string operation = e.what();
  const std::string prefix = "filesystem error: ";
  if (operation.rfind(prefix, 0) == 0) operation = operation.substr(prefix.size());
  if (const size_t colon = operation.find(": "); colon != std::string::npos) operation = operation.substr(0, colon);
  return (e.path1().empty() ? "" : e.path1().string() + ": ") + e.code().message() + " (" + operation + ")";
}

// The subcommands users call (the hidden ones, like `man`, left out).
std::vector<const CLI::App*> visible_commands(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    out.push_back(sub);
  return out;
}

// A subcommand's long options, in declaration order.
std::vector<std::string> long_options(const CLI::App& cmd) {
  std::vector<std::string> out;
  for (const CLI::Option* o : cmd.get_options())
    if (!o->get_group().empty())  // a hidden option (--echo-request) is not offered
      for (const std::string& name : o->get_lnames()) out.push_back("--" + name);
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// `t3sim completion bash`: a bash completion script made from the declared subcommands and options, so it
// cannot drift from them. `choices` are the values offered after an option (--routing, --driver, ...).
std::string bash_completion(const CLI::App& app, const std::map<std::string, std::vector<std::string>>& choices) {
  std::vector<std::string> names;
  for (const CLI::App* sub : visible_commands(app)) names.push_back(sub->get_name());
  std::string s =
      "# bash completion for t3sim, written by `t3sim completion bash` from the command's own options.\n"
      "_t3sim() {\n"
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" opts=\"\"\n"
      "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
      "    COMPREPLY=($(compgen -W \"" +
      joined(names) +
      " --help --version\" -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  case \"$prev\" in\n";
  for (const auto& [option, values] : choices)
    s += "    " + option + ") COMPREPLY=($(compgen -W \"" + joined(values) + "\" -- \"$cur\")); return ;;\n";
  s += "  esac\n  case \"${COMP_WORDS[1]}\" in\n";
  for (const CLI::App* sub : visible_commands(app))
    s += "    " + sub->get_name() + ") opts=\"" + joined(long_options(*sub)) + "\" ;;\n";
  s += "  esac\n"
       "  case \"${COMP_WORDS[1]}\" in\n"
       "    help) [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"" +
       joined(names) +
       "\" -- \"$cur\")) && return ;;\n"
       "    completion) COMPREPLY=($(compgen -W \"bash\" -- \"$cur\")); return ;;\n"
       "    describe) [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"machine workload trace\" -- \"$cur\")) && "
       "return ;;\n"
       "  esac\n"
       "  if [[ \"$cur\" == -* ]]; then\n"
       "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
       "  else\n"
       "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
       "  fi\n"
       "}\n"
       "complete -o filenames -F _t3sim t3sim\n";
  return s;
}

// roff text: a backslash doubled, a leading dot or quote escaped.
std::string roff_line(const std::string& line) {
  std::string out;
  for (char c : line) out += c == '\\' ? std::string("\\e") : std::string(1, c);
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

// `t3sim man`: the manual page (roff), made from the same help texts `COMMAND --help` prints.
std::string man_page(const CLI::App& app, const std::string& version) {
  std::string s = ".TH T3SIM 1 \"\" \"" + version +
                  "\" \"User Commands\"\n"
                  ".SH NAME\n"
                  "t3sim \\- a simulator of Cray T3D/T3E-class 3D-torus machines and their SHMEM network\n"
                  ".SH SYNOPSIS\n"
                  ".B t3sim\n"
                  "\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n"
                  ".br\n"
                  ".B t3sim help\n"
                  "[\\fICOMMAND\\fR]\n"
                  ".SH DESCRIPTION\n"
                  "t3sim predicts how long a parallel program takes on a Cray T3D, T3E or XT3 and why. Machines "
                  "and workloads are YAML files; predictions are checked against recorded measurements "
                  "(\\fBt3sim validate\\fR).\n"
                  ".SH COMMANDS\n";
  for (const CLI::App* sub : visible_commands(app)) {
    s += ".SS " + sub->get_name() + "\n.nf\n";  // the help's first line is the command's description
    std::string help = sub->help("t3sim");
    size_t start = 0;
    for (size_t end; (end = help.find('\n', start)) != std::string::npos; start = end + 1)
      s += roff_line(help.substr(start, end - start)) + "\n";
    s += ".fi\n";
  }
  s += ".SH ENVIRONMENT\n"
       ".TP\n.B T3SIM_DATA\n"
       "The folder holding t3sim's data (platforms/, workloads/, validation/, bench/), used for the defaults of "
       "\\fBvalidate\\fR, \\fBcalibrate\\fR and \\fBbench\\fR. When unset: ../share/t3sim beside the binary, or the "
       "source tree of the build tree the binary runs from.\n"
       ".SH FILES\n"
       ".TP\n.I PREFIX/share/t3sim\n"
       "machine files (platforms/), workloads and studies (workloads/), validation data (validation/), the speed "
       "suite (bench/)\n"
       ".SH EXIT STATUS\n"
       "0 success; 1 a failed check (a validation case out of tolerance) or a run error; 2 bad usage or bad input.\n"
       ".SH SEE ALSO\n"
       "\\fBt3sim help\\fR \\fICOMMAND\\fR; docs/commands.md and docs/user-guide.md of the source.\n";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace t3sim::cli;
  CLI::App app{"t3sim: a simulator of Cray T3D/T3E-class 3D-torus machines and their SHMEM network", "t3sim"};
  app.set_version_flag("--version", std::string("t3sim ") + T3SIM_VERSION);
  app.require_subcommand(1);

  // The options that say which point to run: shared by `run` and `sensitivity`.
  struct PointText {
    std::vector<std::string> sets, params, background_sets;
    std::string size;
  };
  auto add_point_options = [](CLI::App* cmd, t3sim::protocol::RunRequest& run, PointText& text) {
    cmd->add_option("--machine", run.machine, "machine YAML file")->required();
    // Exactly one of --workload and --trace: checked before running, with one message for both mistakes.
    cmd->add_option("--workload", run.workload, "workload YAML file");
    cmd->add_option("--trace", run.trace, "a trace instead: t3sim SHMEM trace or SimGrid time-independent MPI trace");
    cmd->add_flag("--strict", run.strict,
                  "a time-independent trace's warnings (guesses the trace forced, e.g. a derived datatype's size) are "
                  "errors");
    cmd->add_flag("--expand-whole", run.expand_whole,
                  "expand a time-independent trace whole before the run (one record per operation, about 225 bytes "
                  "per operation) instead of streaming it (records summed per PE, label and kind)");
    cmd->add_option("--profile", run.profile, "software profile (default: the machine's default_profile)");
    cmd->add_option("--set", text.sets, "override a workload variable: NAME=VALUE (repeatable)");
    cmd->add_option("--param", text.params,
                    "override a machine parameter: PATH=VALUE with its unit, e.g. network.router_delay=30ns or "
                    "software.profiles.shmem.put_bandwidth=300MB/s, or one of a named value's names, e.g. "
                    "network.switch_hold=packet (repeatable)");
    cmd->add_option("--routing", run.routing,
                    "route by this instead of the machine's torus.routing: " +
                        t3sim::core::enum_names_text<t3sim::core::RoutingKind>(" | "));
    cmd->add_option("--fail", run.fail,
                    "links out of service, added to the machine's torus.failed_links: nN.D+ / nN.D- (one way), nN.D "
                    "(the cable), nN (the router); comma-separated or repeated")
        ->delimiter(',');
    cmd->add_option("--pes", run.pes, "job size in PEs (default: the workload's pes)")->check(kWholeNumberAtLeast1);
    cmd->add_option("--placement", run.placement, "contiguous | block | random:SEED | list:P0,P1,...")
        ->capture_default_str();
    cmd->add_option("--size", text.size, "one message size (e.g. 64KiB) instead of the workload's sizes");
    cmd->add_option("--driver", run.driver,
                    "the transport: " + t3sim::core::enum_names_text<t3sim::engine::Driver>(" | ") +
                        " (fast and reference: the flow model; packet: packets through routers)")
        ->check(CLI::IsMember(t3sim::core::enum_names<t3sim::engine::Driver>()))
        ->capture_default_str();
    cmd->add_option("--background", run.background, "a background job (workload file) on the PEs left free");
    cmd->add_option("--background-pes", run.background_pes, "its size (default: its file's pes)")
        ->check(kWholeNumberAtLeast1);
    cmd->add_option("--background-placement", run.background_placement, "contiguous | random:SEED")
        ->capture_default_str();
    cmd->add_option("--background-set", text.background_sets,
                    "override a variable of the background job's workload: NAME=VALUE (repeatable)");
  };
  // Checks and converts the point's text options; 0 when fine, else the exit code (message printed).
  auto finish_point = [](t3sim::protocol::RunRequest& run, const PointText& text, const char* command) {
    if (run.workload.empty() == run.trace.empty()) {
      std::cerr << "t3sim " << command << ": give one of --workload FILE or --trace FILE\n";
      return 2;
    }
    if (!run.trace.empty() && (!text.sets.empty() || !run.background.empty())) {
      std::cerr << "t3sim " << command << ": --set and --background apply to --workload files, not to traces\n";
      return 2;
    }
    if (!text.background_sets.empty() && run.background.empty()) {
      std::cerr << "t3sim " << command << ": --background-set needs --background\n";
      return 2;
    }
    for (const auto& [list, what] : {std::pair{&text.sets, "--set"}, std::pair{&text.params, "--param"},
                                     std::pair{&text.background_sets, "--background-set"}})
      for (const auto& s : *list) {
        const auto eq = s.find('=');
        if (eq == std::string::npos || eq == 0) {
          std::cerr << "t3sim " << command << ": " << what << " takes NAME=VALUE (got '" << s << "')\n";
          return 2;
        }
        if (list == &text.sets)
          run.variables[s.substr(0, eq)] = s.substr(eq + 1);
        else if (list == &text.background_sets)
          run.background_variables[s.substr(0, eq)] = s.substr(eq + 1);
        else
          run.params.emplace_back(s.substr(0, eq), s.substr(eq + 1));
      }
    if (!text.size.empty()) {
      std::string why;
      const auto v = t3sim::core::parse_quantity(text.size, t3sim::core::Quantity::Size, &why);
      const std::string problem = v ? t3sim::io::message_size_problem(*v) : why;
      if (!problem.empty()) {
        std::cerr << "t3sim " << command << ": --size: " << problem << " (got '" << text.size << "')\n";
        return 2;
      }
      run.size = *v;
    }
    return 0;
  };

  t3sim::protocol::RunRequest run;
  PointText run_text;
  auto* run_cmd = app.add_subcommand("run", "Simulate a workload on a machine and print its timings");
  add_point_options(run_cmd, run, run_text);
  run_cmd->add_option("--out", run.out_dir,
                      "also write WORKLOAD.PROFILE.csv and .json into this folder (a streamed TI trace: records "
                      "summed per PE, label and kind)");
  auto* json_flag = run_cmd->add_flag("--json", run.json, "print JSON instead of a table");
  auto* summary_flag = run_cmd->add_flag("--summary", run.summary, "print only the traffic report as one JSON line")
                           ->excludes(json_flag);
  run_cmd
      ->add_flag("--ops", run.ops,
                 "print the table of every operation (pe, label, op, peer, bytes, times, rates) before the traffic "
                 "report, instead of the short summary")
      ->excludes(json_flag)
      ->excludes(summary_flag);
  run_cmd->add_option("--paje", run.paje, "also write a SimGrid Paje trace of the run (view it in ViTE)");
  run_cmd->add_option("--traffic", run.traffic_file,
                      "also write the traffic report (JSON: per-size bandwidths, every link's load) to this file; "
                      "with --uncertainty, the nominal run's");
  run_cmd->add_option("--transfers", run.transfers_file,
                      "also write every data movement (CSV) to this file (a streamed TI trace: one row per pair, "
                      "direction and mover, bytes summed; --expand-whole for every one)");
  run_cmd->add_option("--vc-report", run.vc_report_file,
                      "packet driver: also write what each virtual channel did (CSV: packets granted it, their waits "
                      "by input port, its holding times) to this file");
  run_cmd
      ->add_option("--threads", run.threads,
                   "packet driver: share each busy cycle's routers over this many threads (the results are the same "
                   "for any number; a sweep's points already run in parallel)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  run_cmd->add_option("--vc-window", run.vc_window,
                      "the --vc-report's window of simulated time, FROM:TO with units (e.g. 0.4ms:2.4ms); "
                      "default: the whole run");
  run_cmd
      ->add_option("--uncertainty", run.uncertainty,
                   "run the point N times over a Latin hypercube of the machine's parameter ranges and report each "
                   "headline figure's median and 5-95% band")
      ->check(CLI::Range(2, 10000));
  run_cmd->add_option("--seed", run.seed, "seed of the Latin hypercube")->capture_default_str();
  // Hidden: print the request this command line makes (RunRequest::to_argv) and run nothing; the test
  // that to_argv and this parser agree (tests/protocol/run_request_test.cpp).
  bool echo_request = false;
  run_cmd->add_flag("--echo-request", echo_request, "print the run's request as a command line and exit")->group("");

  SensitivityArgs sens;
  PointText sens_text;
  auto* sens_cmd = app.add_subcommand(
      "sensitivity", "Rank the machine's uncertain parameters by how much each moves a figure of one point");
  add_point_options(sens_cmd, sens.run, sens_text);
  sens_cmd->add_option("--figure", sens.figure, "makespan | pe_bandwidth (median per PE)")
      ->check(CLI::IsMember({"makespan", "pe_bandwidth"}))
      ->capture_default_str();

  RouteArgs route;
  auto* route_cmd = app.add_subcommand(
      "route",
      "Print the links from one PE to another under the machine's routing and every other, with each link's share");
  route_cmd->add_option("--machine", route.machine, "machine YAML file")->required();
  auto* route_src = route_cmd->add_option("SRC_PE", route.src, "required unless --all");
  auto* route_dst = route_cmd->add_option("DST_PE", route.dst, "required unless --all");
  bool route_all = false;
  route_cmd
      ->add_flag("--all", route_all,
                 "every ordered pair of torus nodes under one routing, one line each: SRC_NODE DST_NODE LINK:SHARE...")
      ->excludes(route_src)
      ->excludes(route_dst);
  route_cmd->add_option("--routing", route.run.routing, "only this routing");
  route_cmd->add_option("--fail", route.run.fail, "links out of service, as for run (comma-separated or repeated)")
      ->delimiter(',');

  std::string describe_what;
  auto* describe_cmd = app.add_subcommand("describe", "Print the schema of a machine, workload or trace file");
  describe_cmd->add_option("WHAT", describe_what, "machine | workload | trace")->required();
  std::string describe_file;
  describe_cmd->add_option("FILE", describe_file, "with 'machine': a machine file, to list its values and ranges");
  std::vector<std::string> describe_params;
  describe_cmd->add_option("--param", describe_params,
                           "with 'machine FILE': override a parameter as run does (PATH=VALUE, repeatable); its "
                           "range is dropped");

  ValidateArgs val;
  auto* val_cmd = app.add_subcommand("validate", "Run every validation case; exit 1 if any is out of tolerance");
  val_cmd->add_option("--cases", val.cases, "validation cases file (default: validation/cases.yaml of t3sim's data)");
  val_cmd->add_option("--suite", val.suites, "only these suites (comma-separated or repeated)")->delimiter(',');
  val_cmd->add_flag("--json", val.json, "print JSON instead of a table");
  val_cmd->add_option("--plot", val.plot_dir, "also plot predicted against measured (SVG, gnuplot) into this folder");
  val_cmd
      ->add_option("--driver", val.driver,
                   "run every suite under this driver instead of its own (e.g. packet: the packet model against "
                   "the same records)")
      ->check(CLI::IsMember(t3sim::core::enum_names<t3sim::engine::Driver>()));
  val_cmd->add_option("--report", val.report_dir,
                      "also write DIR/report.html (one self-contained page: verdicts, parity and rate plots, every "
                      "case) and DIR/validation.json");

  std::string report_dir;
  auto* report_cmd = app.add_subcommand(
      "report", "Write DIR/report.html for the results in DIR (a sweep's --out folder or validate --report's)");
  report_cmd->add_option("DIR", report_dir, "results folder")->required();

  CalibrateArgs cal;
  auto* cal_cmd =
      app.add_subcommand("calibrate", "Fit a suite's parameters to its measurements (or figures) and write them back");
  cal_cmd->add_option("--cases", cal.cases,
                      "validation cases file (default: validation/cases.yaml of t3sim's data; written back only "
                      "when that is the source tree of the build tree t3sim runs from)");
  cal_cmd->add_option("--suite", cal.suite, "only this suite");
  cal_cmd->add_option("--profile", cal.profile, "only this profile");
  cal_cmd->add_flag("--dry-run", cal.dry_run, "print the fit, write nothing");
  auto* cal_check = cal_cmd->add_flag("--check", cal.check, "refit and exit 1 if the machine file's values differ");
  auto* cal_record =
      cal_cmd
          ->add_flag("--record", cal.record,
                     "a suite of another model's figures (record_driver): run its rows under that driver and write the "
                     "figures into its CSV instead of fitting")
          ->excludes(cal_check);
  cal_cmd->add_flag("--model-error", cal.model_error,
                    "a suite that fits network parameters: also fit each row alone and write the spread of their "
                    "values as the parameter's range (uncertainty), the model-form error --uncertainty carries");
  auto* cal_bootstrap =
      cal_cmd
          ->add_option("--bootstrap", cal.bootstrap,
                       "also refit on N residual-bootstrap data sets and write each value's 5-95% range (fit.range)")
          ->check(CLI::Range(2, 100000));
  cal_cmd
      ->add_option("--driver", cal.driver,
                   "packet: fit the suites' packet_fit_params again with every run under the packet driver and "
                   "write them to the profile's packet_driver (minutes: each evaluation is the suite's runs)")
      ->check(CLI::IsMember({"packet"}))
      ->excludes(cal_bootstrap)
      ->excludes(cal_record);

  SweepArgs sweep;
  auto* sweep_cmd = app.add_subcommand("sweep", "Run a what-if study: machines x PEs x placements x workloads x sizes");
  sweep_cmd->add_option("SPEC", sweep.spec, "sweep file (YAML)")->required();
  sweep_cmd->add_option("--out", sweep.out_dir, "results folder (default: sweep-NAME); rerun to resume");
  sweep_cmd->add_flag("--list", sweep.list, "print the study's points and exit without running them");
  sweep_cmd->add_flag("--force", sweep.force,
                      "write into an --out folder that holds another study's results (refused otherwise: the two "
                      "studies' rows would mix in one sweep.csv)");
  auto* report_opt = sweep_cmd->add_flag(
      "--report", sweep.report, "when the study is complete, also write OUT/report.html (`t3sim report OUT` later)");
  auto* points_opt = sweep_cmd->add_option(
      "--points", sweep.points,
      "run only these points (indices as --list prints them: 0..3,7) into a part file of their own under "
      "OUT/parts (what each Slurm array task runs); --collect merges");
  auto* slurm_opt = sweep_cmd->add_flag(
      "--slurm", sweep.slurm, "write OUT/sweep.sbatch, a Slurm job array of the points not yet done, and submit it");
  auto* collect_opt = sweep_cmd->add_flag(
      "--collect", sweep.collect, "merge what the tasks wrote into OUT/sweep.csv; name missing and failed points");
  auto* resubmit_opt =
      sweep_cmd->add_flag("--resubmit", sweep.resubmit, "collect, then submit a job array of only the missing points");
  auto* wait_opt = sweep_cmd->add_flag("--wait", sweep.wait,
                                       "show progress until the study's tasks leave Slurm's queue, then collect");
  auto* dry_opt = sweep_cmd->add_flag("--dry-run", sweep.dry_run, "with --slurm or --resubmit: write the script only");
  auto* partition_opt = sweep_cmd->add_option("--partition", sweep.partition, "Slurm partition (sbatch --partition)");
  auto* time_opt = sweep_cmd->add_option("--time", sweep.time_limit, "time limit per array task (sbatch --time)");
  auto* limit_opt = sweep_cmd
                        ->add_option("--array-limit", sweep.array_limit,
                                     "at most N array tasks at once (--array=0-M%N); 0: Slurm's own limit (default, or "
                                     "the study's last submission's)")
                        ->check(CLI::Range(0, 1000000));
  auto* per_task_opt = sweep_cmd
                           ->add_option("--points-per-task", sweep.points_per_task,
                                        "points per array task (default 1, or the study's last submission's)")
                           ->check(CLI::Range(1, 1000000));
  points_opt->excludes(slurm_opt)
      ->excludes(collect_opt)
      ->excludes(resubmit_opt)
      ->excludes(wait_opt)
      ->excludes(report_opt);
  slurm_opt->excludes(collect_opt)->excludes(resubmit_opt);
  for (auto* o : {partition_opt, time_opt, limit_opt, per_task_opt, dry_opt}) o->excludes(points_opt);
  sweep_cmd
      ->add_option("--driver", sweep.driver,
                   "every point's transport (fast | reference | packet) instead of the study's; an axis over "
                   "drivers keeps its own; a point's id names a driver other than fast")
      ->check(CLI::IsMember(t3sim::core::enum_names<t3sim::engine::Driver>()));
  sweep_cmd
      ->add_option("--uncertainty", sweep.uncertainty,
                   "run every point N times over the machines' parameter ranges: sweep.csv gains 5-95% bands")
      ->check(CLI::Range(2, 10000));
  auto* check_opt =
      sweep_cmd
          ->add_option("--check", sweep.check,
                       "then run this fraction of the points (0 < F <= 1, drawn with a fixed seed) again under "
                       "--check-driver into OUT/check-DRIVER.csv, and print each figure's largest difference")
          ->check(CLI::Range(1e-9, 1.0));
  sweep_cmd->add_option("--check-driver", sweep.check_driver, "the driver --check runs its points under")
      ->check(CLI::IsMember(t3sim::core::enum_names<t3sim::engine::Driver>()))
      ->capture_default_str()
      ->needs(check_opt);
  // A check runs on this machine once the study's points are done: after --collect, run the sweep again
  // with --check (it finds every point done and runs only the check).
  for (auto* o : {points_opt, slurm_opt, collect_opt, resubmit_opt, wait_opt}) check_opt->excludes(o);

  BenchArgs bench;
  auto* bench_cmd =
      app.add_subcommand("bench", "Measure speed: the fixed benchmark suite, fast driver against the reference driver");
  bench_cmd->add_option("SUITE", bench.suite, "suite file (YAML; default: bench/suite.yaml of t3sim's data)");
  bench_cmd->add_option("--cases", bench.cases, "only these cases (by name)");
  bench_cmd->add_option("--repeat", bench.repeat, "runs per case with the fast driver (the median is reported)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  bench_cmd
      ->add_option("--reference-repeat", bench.reference_repeat,
                   "runs with the reference driver; 0: skip it (and the verdicts)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  bench_cmd->add_flag("--noise-floor", bench.noise_floor,
                      "also run each case (fast driver) with router_delay perturbed by 1e-9 and compare: how much a "
                      "change far below any measurement moves the answers");
  bench_cmd
      ->add_option("--ensemble", bench.ensemble,
                   "chaotic cases: run both drivers with router_delay x (1 + k 1e-9), k = 0..N-1, and judge the fast "
                   "members' median against the reference members' range; 0: plain runs, chaotic cases not judged")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  bench_cmd->add_flag("--long", bench.long_cases, "also run the cases marked long (tens of minutes each)");
  bench_cmd->add_flag("--list", bench.list, "print the suite's cases and exit without running them");
  bench_cmd
      ->add_option("--threads", bench.threads,
                   "packet cases: run once on one thread and again sharing each cycle over this many (1: once)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  bench_cmd->add_option("--peer-binary", bench.peer_binary,
                        "packet cases whose peer names its config: run PEER CONFIG (BookSim2) beside each case, "
                        "alternated with its runs, and set t3sim's rate against the peer's timed here instead of the "
                        "suite's fixed rate");
  bench_cmd->add_option("--out", bench.out_dir, "folder for bench.csv, bench.json and the runs' transfers")
      ->capture_default_str();

  std::string help_topic;
  auto* help_cmd = app.add_subcommand("help", "Print the help of t3sim or of one command (the same as COMMAND --help)");
  help_cmd->add_option("COMMAND", help_topic, "a command");
  std::string completion_shell;
  auto* completion_cmd =
      app.add_subcommand("completion", "Print a shell completion script made from the commands' options");
  completion_cmd->add_option("SHELL", completion_shell, "bash")->required()->check(CLI::IsMember({"bash"}));
  auto* man_cmd = app.add_subcommand("man", "Print the manual page (roff), made from the commands' help");
  man_cmd->group("");  // the build writes it (t3sim.1); not a command users need

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (*help_cmd) {
    if (help_topic.empty()) {  // app.help() would give the selected `help` command's own
      std::cout << app.get_formatter()->make_help(&app, "t3sim", CLI::AppFormatMode::Normal);
      return 0;
    }
    const auto commands = visible_commands(app);
    for (const CLI::App* sub : commands)
      if (sub->get_name() == help_topic) {
        std::cout << sub->help("t3sim");
        return 0;
      }
    std::vector<std::string> names;
    for (const CLI::App* sub : commands) names.push_back(sub->get_name());
    std::cerr << "t3sim help: no command '" << help_topic << "'" << t3sim::core::did_you_mean(help_topic, names)
              << " (commands: " << joined(names) << ")\n";
    return 2;
  }
  if (*completion_cmd) {
    std::cout << bash_completion(app, {{"--routing", t3sim::core::enum_names<t3sim::core::RoutingKind>()},
                                       {"--driver", t3sim::core::enum_names<t3sim::engine::Driver>()},
                                       {"--figure", {"makespan", "pe_bandwidth"}}});
    return 0;
  }
  if (*man_cmd) {
    std::cout << man_page(app, std::string("t3sim ") + T3SIM_VERSION);
    return 0;
  }

  try {
    if (*run_cmd) {
      if (const int code = finish_point(run, run_text, "run")) return code;
      if (echo_request) {
        std::cout << t3sim::protocol::argv_text(run.to_argv()) << "\n";
        return 0;
      }
      if (run.uncertainty > 0 && (run.json || !run.out_dir.empty() || !run.paje.empty() ||
                                  !run.transfers_file.empty() || !run.vc_report_file.empty())) {
        std::cerr << "t3sim run: --uncertainty reports bands (table, or --summary JSON); it writes no --out, --json, "
                     "--paje, --transfers or --vc-report\n";
        return 2;
      }
      return cmd_run(run);
    }
    if (*sens_cmd) {
      if (const int code = finish_point(sens.run, sens_text, "sensitivity")) return code;
      return cmd_sensitivity(sens);
    }
    if (*route_cmd) {
      if (route_all) return cmd_route_all(route);
      if (route_src->count() == 0 || route_dst->count() == 0) {
        std::cerr << "t3sim route: SRC_PE and DST_PE are required (or --all)\n";
        return 2;
      }
      return cmd_route(route);
    }
    if (*describe_cmd) {
      std::vector<std::pair<std::string, std::string>> params;
      for (const auto& s : describe_params) {
        const auto eq = s.find('=');
        if (eq == std::string::npos || eq == 0) {
          std::cerr << "t3sim describe: --param takes PATH=VALUE (got '" << s << "')\n";
          return 2;
        }
        params.emplace_back(s.substr(0, eq), s.substr(eq + 1));
      }
      return cmd_describe(describe_what, describe_file, params);
    }
    if (*val_cmd) {
      if (val.cases.empty()) val.cases = t3sim::io::data_file("validation/cases.yaml", "--cases");
      return cmd_validate(val);
    }
    if (*report_cmd) return cmd_report(report_dir);
    if (*cal_cmd) {
      if (cal.cases.empty()) {
        // calibrate writes the fitted values back into the cases' machine files: by default only into the
        // source tree this build tree was made from, never silently into installed data or another tree.
        cal.cases = t3sim::io::data_file("validation/cases.yaml", "--cases");
        const auto data = t3sim::io::find_data_dir();
        if (!cal.dry_run && !cal.check && !data->source_tree) {
          std::cerr << "t3sim calibrate: would write into " << data->path << " (" << data->how
                    << "), not a source tree of this build: give --cases FILE to write into that tree, or --dry-run\n";
          return 2;
        }
        std::cout << "cases: " << cal.cases << " (" << data->how << ")\n";
      }
      return cmd_calibrate(cal);
    }
    if (*sweep_cmd) {
      const bool slurm_options = sweep.dry_run || !sweep.partition.empty() || !sweep.time_limit.empty() ||
                                 sweep.array_limit >= 0 || sweep.points_per_task > 0;
      if (slurm_options && !sweep.slurm && !sweep.resubmit) {
        std::cerr << "t3sim sweep: --dry-run, --partition, --time, --array-limit and --points-per-task go with "
                     "--slurm or --resubmit\n";
        return 2;
      }
      return cmd_sweep(sweep);
    }
    if (*bench_cmd) {
      if (bench.suite.empty()) bench.suite = t3sim::io::data_file("bench/suite.yaml", "SUITE");
      return cmd_bench(bench);
    }
  } catch (const t3sim::io::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const t3sim::core::UnroutablePair& e) {  // the machine's routing and failed links, not a fault
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {  // a path the user named cannot be made or used
    std::cerr << "error: " << filesystem_message(e) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 2;
}
