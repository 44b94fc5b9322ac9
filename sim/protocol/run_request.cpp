#include "sim/protocol/run_request.hpp"

#include <tuple>

#include <fmt/format.h>

namespace t3sim::protocol {
namespace {

auto fields(const RunRequest& r) {
  return std::tie(r.machine, r.workload, r.trace, r.strict, r.expand_whole, r.profile, r.out_dir, r.json, r.variables,
                  r.pes, r.size, r.summary, r.paje, r.background, r.background_pes, r.background_placement,
                  r.background_variables, r.placement, r.driver, r.transfers_file, r.traffic_file, r.vc_report_file,
                  r.vc_window, r.threads, r.params, r.routing, r.fail, r.uncertainty, r.seed, r.ops);
}

}  // namespace

bool RunRequest::operator==(const RunRequest& o) const { return fields(*this) == fields(o); }

std::vector<std::string> RunRequest::to_argv() const {
  const RunRequest d;  // the defaults
  std::vector<std::string> v = {"run", "--machine", machine};
  const auto option = [&v](const char* name, const std::string& value) { v.insert(v.end(), {name, value}); };
  if (!workload.empty()) option("--workload", workload);
  if (!trace.empty()) option("--trace", trace);
  if (strict) v.push_back("--strict");
  if (expand_whole) v.push_back("--expand-whole");
  if (!profile.empty()) option("--profile", profile);
  if (pes != d.pes) option("--pes", std::to_string(pes));
  // Whole bytes, as every size a run is given is (the command line refuses less than 1B).
  if (size != d.size) option("--size", fmt::format("{:.0f}B", size));
  if (placement != d.placement) option("--placement", placement);
  for (const auto& [name, value] : variables) option("--set", name + "=" + value);
  if (!background.empty()) option("--background", background);
  if (background_pes != d.background_pes) option("--background-pes", std::to_string(background_pes));
  if (background_placement != d.background_placement) option("--background-placement", background_placement);
  for (const auto& [name, value] : background_variables) option("--background-set", name + "=" + value);
  for (const auto& [path, value] : params) option("--param", path + "=" + value);
  if (!routing.empty()) option("--routing", routing);
  for (const auto& link : fail) option("--fail", link);
  if (driver != d.driver) option("--driver", driver);
  if (json) v.push_back("--json");
  if (summary) v.push_back("--summary");
  if (ops) v.push_back("--ops");
  if (!out_dir.empty()) option("--out", out_dir);
  if (!transfers_file.empty()) option("--transfers", transfers_file);
  if (!traffic_file.empty()) option("--traffic", traffic_file);
  if (!vc_report_file.empty()) option("--vc-report", vc_report_file);
  if (!vc_window.empty()) option("--vc-window", vc_window);
  if (threads != d.threads) option("--threads", std::to_string(threads));
  if (!paje.empty()) option("--paje", paje);
  if (uncertainty != d.uncertainty) option("--uncertainty", std::to_string(uncertainty));
  if (seed != d.seed) option("--seed", std::to_string(seed));
  return v;
}

std::string argv_text(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& word : argv) text += (text.empty() ? "" : " ") + word;
  return text;
}

}  // namespace t3sim::protocol
