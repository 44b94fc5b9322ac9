#include "sim/cli/child_run.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <vector>

#include "sim/io/results_writer.hpp"

namespace t3sim::cli {

core::RunResult run_in_child(const std::string& machine, const std::string& workload, const std::string& profile,
                             const std::map<std::string, std::string>& variables) {
  std::vector<std::string> args = {"t3sim",  "run",       "--machine", machine, "--workload",
                                   workload, "--profile", profile,     "--json"};
  for (const auto& [name, value] : variables) {
    args.push_back("--set");
    args.push_back(name + "=" + value);
  }
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);

  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for a child run");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a child run");
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[65536];
  ssize_t n = 0;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("child run of " + workload + " on " + machine + " (profile " + profile +
                             ") failed with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  return io::parse_results_json(out);
}

}  // namespace t3sim::cli
