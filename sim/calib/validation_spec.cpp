#include "sim/calib/validation_spec.hpp"

namespace t3sim::calib {

const char* statistic_unit(Statistic s) {
  switch (s) {
    case Statistic::RecordDuration:
    case Statistic::EstimatedLatency:
    case Statistic::LabelSpan:
      return "us";
    case Statistic::PeakBandwidth:
    case Statistic::PeBandwidthMedian:
    case Statistic::PeBandwidthMin:
      return "MB/s";
    case Statistic::ModelMaxRelErrorPct:
      return "%";
    case Statistic::MainJobEnd:
      return "s";
    case Statistic::AcceptedFlits:
    case Statistic::AcceptedFlitsMin:
      return "fl/cyc";
  }
  return "";
}

bool row_matches(const RowFilter& filter, const std::map<std::string, std::string>& row) {
  for (const auto& [column, value] : filter) {
    auto it = row.find(column);
    if (it == row.end() || it->second != value) return false;
  }
  return true;
}

}  // namespace t3sim::calib
