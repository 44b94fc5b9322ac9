// `t3sim report DIR`: the HTML page of the results in DIR, a sweep's --out folder
// (sweep-manifest.json + sweep.csv) or validate --report's (validation.json).
#include <filesystem>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/report/sweep_report.hpp"
#include "sim/report/validation_report.hpp"

namespace t3sim::cli {

int cmd_report(const std::string& dir) {
  const bool sweep = std::filesystem::exists(dir + "/sweep-manifest.json");
  const bool validation = std::filesystem::exists(dir + "/validation.json");
  if (sweep && validation)
    throw io::InputError({dir, 0, 0}, "",
                         "holds both a sweep (sweep-manifest.json) and a validation (validation.json): report one "
                         "folder each");
  if (!sweep && !validation)
    throw io::InputError({dir, 0, 0}, "",
                         "holds no results to report: neither sweep-manifest.json (t3sim sweep --out) nor "
                         "validation.json (t3sim validate --report)");
  std::cout << (sweep ? report::write_sweep_report(dir) : report::write_validation_report(dir)) << "\n";
  return 0;
}

}  // namespace t3sim::cli
