#include "sim/core/validation_spec.hpp"

namespace t3sim::core {

const char* statistic_unit(Statistic s) {
  switch (s) {
    case Statistic::RecordDuration:
    case Statistic::EstimatedLatency:
      return "us";
    case Statistic::PeakBandwidth:
      return "MB/s";
    case Statistic::ModelMaxRelErrorPct:
      return "%";
  }
  return "";
}

}  // namespace t3sim::core
