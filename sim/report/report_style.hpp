// The colours of t3sim's reports: one per pattern (workload), the same in every plot of a page.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

namespace t3sim::report {

// A colour-blind-safe palette (Okabe and Ito, 2008), then darker tones for long lists.
inline const std::vector<std::string>& report_palette() {
  static const std::vector<std::string> p = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9",
                                             "#000000", "#F0E442", "#8C564B", "#7F7F7F", "#17BECF", "#BCBD22"};
  return p;
}

// The colour of `name` among `all` (by its position: stable for a page).
inline std::string pattern_colour(const std::string& name, const std::vector<std::string>& all) {
  const auto it = std::find(all.begin(), all.end(), name);
  const size_t i = it == all.end() ? 0 : static_cast<size_t>(it - all.begin());
  return report_palette()[i % report_palette().size()];
}

}  // namespace t3sim::report
