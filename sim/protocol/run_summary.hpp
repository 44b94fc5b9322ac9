// What a `t3sim run --summary` answers: one JSON line per run, written by one writer (to_json) and read by
// one reader (run_summary_from_json) wherever a child run is read back (sweeps, uncertainty bands, bench).
// Rates in bytes per second, times in seconds, as the JSON's key names say.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace t3sim::protocol {

struct SummaryDistribution {  // over PEs (or pairs) of one message size
  int n = 0;
  double min = 0, median = 0, mean = 0, max = 0;
  bool operator==(const SummaryDistribution& o) const;
};

struct SummarySize {
  double bytes = 0;
  double span_s = 0;  // first start to last end of this size's operations
  SummaryDistribution pe_bandwidth_Bps, pair_bandwidth_Bps;
  bool operator==(const SummarySize& o) const;
};

struct SummaryDimension {
  std::string dim;        // "x", "y", "z"
  std::string direction;  // "+" or "-"
  double mean_utilisation = 0, max_utilisation = 0;
  bool operator==(const SummaryDimension& o) const;
};

struct SummaryBisection {
  std::string dim;  // the cut's dimension; "" for a torus too small to cut
  double bytes = 0, bandwidth_Bps = 0, utilisation = 0;
  bool operator==(const SummaryBisection& o) const;
};

struct Band {  // 5%, median and 95% over the uncertainty samples
  double p05 = 0, p50 = 0, p95 = 0;
  bool operator==(const Band& o) const;
};

struct SummaryUncertainty {  // run --uncertainty N --summary
  struct Parameter {
    std::string path;
    double low = 0, high = 0;
    std::string why;
    std::vector<std::string> choices;  // a named parameter's values (low, high: indices); JSON only when given
    bool operator==(const Parameter& o) const;
  };
  struct Size {
    double bytes = 0;
    Band pe_bandwidth_median_Bps;
    bool operator==(const Size& o) const;
  };
  int samples = 0;
  uint64_t seed = 0;
  std::string design;
  std::vector<Parameter> parameters;
  Band makespan_s;
  std::vector<Size> sizes;
  bool operator==(const SummaryUncertainty& o) const;
};

// The packet driver's measures (core::PacketRunStats): BookSim's accepted throughput over the window
// of sample periods after the warm-up in which every source was backlogged (absent when none was).
struct SummaryPacket {
  double cycle_s = 0;
  uint64_t cycles = 0;
  uint64_t window_begin = 0, window_end = 0;
  std::optional<double> accepted_flits_per_cycle;      // mean over source nodes
  std::optional<double> accepted_flits_per_cycle_min;  // the slowest source node's
  double mean_packet_latency_cycles = 0;
  uint64_t packets = 0, flits = 0;
  bool operator==(const SummaryPacket& o) const;
};

struct RunSummary {
  // Which run.
  std::string machine, profile, workload;
  int pes = 0;
  std::string placement;
  std::optional<double> main_job_end_s;  // when a background job ran on after the main job
  // The traffic report (analysis/traffic_report.hpp), its link list reduced to the busiest link.
  double makespan_s = 0;
  std::vector<SummarySize> sizes;
  std::vector<SummaryDimension> dimensions;
  SummaryBisection bisection;
  double max_link_utilisation = 0;
  std::string busiest_link;
  size_t transfers = 0;
  size_t operations = 0;
  std::optional<size_t> summed_records;  // a streamed replay's records are sums (core::RunResult::summed)
  std::optional<SummaryUncertainty> uncertainty;
  std::optional<SummaryPacket> packet;  // --driver packet

  // The one JSON line (no newline), keys in a fixed order: byte-identical for the same summary.
  std::string to_json() const;
  // The median per-PE bandwidth of the run's only message size, or nullopt (several sizes, or none moved).
  std::optional<double> only_size_pe_median_Bps() const;
  bool operator==(const RunSummary& o) const;
};

// Reads what to_json wrote; throws std::runtime_error naming `what` (e.g. "the run of point 3") and the
// missing or mistyped key.
RunSummary run_summary_from_json(const std::string& text, const std::string& what);

}  // namespace t3sim::protocol
