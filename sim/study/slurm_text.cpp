#include "sim/study/slurm_text.hpp"

#include <sstream>

namespace t3sim::study {
namespace {

std::string first_word(const std::string& s) {
  const size_t start = s.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return "";
  return s.substr(start, s.find_first_of(" \t\r\n", start) - start);
}

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

}  // namespace

std::vector<int> expand_task_ids(const std::string& list_in) {
  const std::string list = list_in.substr(0, list_in.find('%'));
  std::vector<int> out;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t dash = item.find('-');
    const std::string a = item.substr(0, dash), b = dash == std::string::npos ? a : item.substr(dash + 1);
    if (!all_digits(a) || !all_digits(b) || a.size() > 9 || b.size() > 9) continue;
    for (int t = std::stoi(a); t <= std::stoi(b); ++t) out.push_back(t);
  }
  return out;
}

std::map<std::string, std::string> parse_sacct_states(const std::string& text) {
  std::map<std::string, std::string> state;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t bar = line.find('|');
    if (bar == std::string::npos) continue;
    const std::string id = line.substr(0, bar), st = first_word(line.substr(bar + 1));
    const size_t us = id.find('_');
    if (us == std::string::npos || st.empty()) continue;
    std::string tasks = id.substr(us + 1);
    if (tasks.size() >= 2 && tasks.front() == '[' && tasks.back() == ']') tasks = tasks.substr(1, tasks.size() - 2);
    for (int t : expand_task_ids(tasks)) state[id.substr(0, us) + "_" + std::to_string(t)] = st;
  }
  return state;
}

std::map<std::string, std::string> parse_scontrol_states(const std::string& text) {
  std::map<std::string, std::string> state;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::map<std::string, std::string> fields;
    std::istringstream in(line);
    std::string word;
    while (in >> word) {
      const size_t eq = word.find('=');
      if (eq != std::string::npos) fields.emplace(word.substr(0, eq), word.substr(eq + 1));
    }
    if (!fields.count("ArrayJobId") || !fields.count("ArrayTaskId") || !fields.count("JobState")) continue;
    for (int t : expand_task_ids(fields["ArrayTaskId"]))
      state[fields["ArrayJobId"] + "_" + std::to_string(t)] = fields["JobState"];
  }
  return state;
}

std::string parse_sbatch_job_id(const std::string& text) {
  const std::string id = first_word(text.substr(0, text.find(';')));
  return all_digits(id) ? id : "";
}

}  // namespace t3sim::study
