#include "sim/protocol/run_summary.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include <nlohmann/json.hpp>

namespace t3sim::protocol {
namespace {

using Json = nlohmann::ordered_json;

// A key's number; null (what the writer makes of NaN) reads as NaN.
double number(const Json& j, const char* key) {
  const Json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

Json distribution_json(const SummaryDistribution& d) {
  return Json{{"n", d.n}, {"min", d.min}, {"median", d.median}, {"mean", d.mean}, {"max", d.max}};
}
SummaryDistribution distribution_from(const Json& j) {
  return {j.at("n").get<int>(), number(j, "min"), number(j, "median"), number(j, "mean"), number(j, "max")};
}

Json band_json(const Band& b) { return Json{{"p05", b.p05}, {"p50", b.p50}, {"p95", b.p95}}; }
Band band_from(const Json& j) { return {number(j, "p05"), number(j, "p50"), number(j, "p95")}; }

Json uncertainty_json(const SummaryUncertainty& u) {
  Json j;
  j["samples"] = u.samples;
  j["seed"] = u.seed;
  j["design"] = u.design;
  j["parameters"] = Json::array();
  for (const auto& p : u.parameters) {
    Json e = {{"path", p.path}, {"low", p.low}, {"high", p.high}, {"why", p.why}};
    if (!p.choices.empty()) e["choices"] = p.choices;
    j["parameters"].push_back(e);
  }
  j["makespan_s"] = band_json(u.makespan_s);
  j["sizes"] = Json::array();
  for (const auto& s : u.sizes)
    j["sizes"].push_back({{"bytes", s.bytes}, {"pe_bandwidth_median_Bps", band_json(s.pe_bandwidth_median_Bps)}});
  return j;
}

SummaryUncertainty uncertainty_from(const Json& j) {
  SummaryUncertainty u;
  u.samples = j.at("samples").get<int>();
  u.seed = j.at("seed").get<uint64_t>();
  u.design = j.at("design").get<std::string>();
  for (const auto& p : j.at("parameters"))
    u.parameters.push_back(
        {p.at("path").get<std::string>(), number(p, "low"), number(p, "high"), p.at("why").get<std::string>(),
         p.contains("choices") ? p.at("choices").get<std::vector<std::string>>() : std::vector<std::string>{}});
  u.makespan_s = band_from(j.at("makespan_s"));
  for (const auto& s : j.at("sizes"))
    u.sizes.push_back({number(s, "bytes"), band_from(s.at("pe_bandwidth_median_Bps"))});
  return u;
}

// NaN equals NaN here: a summary read back equals the one written.
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

bool SummaryDistribution::operator==(const SummaryDistribution& o) const {
  return n == o.n && same(min, o.min) && same(median, o.median) && same(mean, o.mean) && same(max, o.max);
}
bool SummarySize::operator==(const SummarySize& o) const {
  return same(bytes, o.bytes) && same(span_s, o.span_s) && pe_bandwidth_Bps == o.pe_bandwidth_Bps &&
         pair_bandwidth_Bps == o.pair_bandwidth_Bps;
}
bool SummaryDimension::operator==(const SummaryDimension& o) const {
  return dim == o.dim && direction == o.direction && same(mean_utilisation, o.mean_utilisation) &&
         same(max_utilisation, o.max_utilisation);
}
bool SummaryBisection::operator==(const SummaryBisection& o) const {
  return dim == o.dim && same(bytes, o.bytes) && same(bandwidth_Bps, o.bandwidth_Bps) &&
         same(utilisation, o.utilisation);
}
bool Band::operator==(const Band& o) const { return same(p05, o.p05) && same(p50, o.p50) && same(p95, o.p95); }
bool SummaryUncertainty::Parameter::operator==(const Parameter& o) const {
  return path == o.path && same(low, o.low) && same(high, o.high) && why == o.why && choices == o.choices;
}
bool SummaryUncertainty::Size::operator==(const Size& o) const {
  return same(bytes, o.bytes) && pe_bandwidth_median_Bps == o.pe_bandwidth_median_Bps;
}
bool SummaryUncertainty::operator==(const SummaryUncertainty& o) const {
  return samples == o.samples && seed == o.seed && design == o.design && parameters == o.parameters &&
         makespan_s == o.makespan_s && sizes == o.sizes;
}
bool SummaryPacket::operator==(const SummaryPacket& o) const {
  const auto same_opt = [](const std::optional<double>& a, const std::optional<double>& b) {
    return a.has_value() == b.has_value() && (!a || same(*a, *b));
  };
  return std::tie(cycles, window_begin, window_end, packets, flits) ==
             std::tie(o.cycles, o.window_begin, o.window_end, o.packets, o.flits) &&
         same(cycle_s, o.cycle_s) && same_opt(accepted_flits_per_cycle, o.accepted_flits_per_cycle) &&
         same_opt(accepted_flits_per_cycle_min, o.accepted_flits_per_cycle_min) &&
         same(mean_packet_latency_cycles, o.mean_packet_latency_cycles);
}
bool RunSummary::operator==(const RunSummary& o) const {
  const bool end_same = main_job_end_s.has_value() == o.main_job_end_s.has_value() &&
                        (!main_job_end_s || same(*main_job_end_s, *o.main_job_end_s));
  return std::tie(machine, profile, workload, pes, placement, sizes, dimensions, bisection, busiest_link, transfers,
                  operations, summed_records, uncertainty, packet) ==
             std::tie(o.machine, o.profile, o.workload, o.pes, o.placement, o.sizes, o.dimensions, o.bisection,
                      o.busiest_link, o.transfers, o.operations, o.summed_records, o.uncertainty, o.packet) &&
         end_same && same(makespan_s, o.makespan_s) && same(max_link_utilisation, o.max_link_utilisation);
}

std::string RunSummary::to_json() const {
  Json t;
  t["makespan_s"] = makespan_s;
  t["sizes"] = Json::array();
  for (const auto& s : sizes)
    t["sizes"].push_back({{"bytes", s.bytes},
                          {"span_s", s.span_s},
                          {"pe_bandwidth_Bps", distribution_json(s.pe_bandwidth_Bps)},
                          {"pair_bandwidth_Bps", distribution_json(s.pair_bandwidth_Bps)}});
  t["dimensions"] = Json::array();
  for (const auto& d : dimensions)
    t["dimensions"].push_back({{"dim", d.dim},
                               {"direction", d.direction},
                               {"mean_utilisation", d.mean_utilisation},
                               {"max_utilisation", d.max_utilisation}});
  t["bisection"] = {{"dim", bisection.dim},
                    {"bytes", bisection.bytes},
                    {"bandwidth_Bps", bisection.bandwidth_Bps},
                    {"utilisation", bisection.utilisation}};
  t["max_link_utilisation"] = max_link_utilisation;
  t["busiest_link"] = busiest_link;
  t["transfers"] = transfers;
  t["operations"] = operations;
  if (summed_records) t["summed_records"] = *summed_records;
  Json j;
  j["machine"] = machine;
  j["profile"] = profile;
  j["workload"] = workload;
  j["pes"] = pes;
  j["placement"] = placement;
  if (main_job_end_s) j["main_job_end_s"] = *main_job_end_s;
  j["traffic"] = t;
  if (uncertainty) j["uncertainty"] = uncertainty_json(*uncertainty);
  if (packet) {
    Json p;
    p["cycle_s"] = packet->cycle_s;
    p["cycles"] = packet->cycles;
    p["window"] = {packet->window_begin, packet->window_end};
    if (packet->accepted_flits_per_cycle) p["accepted_flits_per_cycle"] = *packet->accepted_flits_per_cycle;
    if (packet->accepted_flits_per_cycle_min) p["accepted_flits_per_cycle_min"] = *packet->accepted_flits_per_cycle_min;
    p["mean_packet_latency_cycles"] = packet->mean_packet_latency_cycles;
    p["packets"] = packet->packets;
    p["flits"] = packet->flits;
    j["packet"] = p;
  }
  return j.dump();
}

std::optional<double> RunSummary::only_size_pe_median_Bps() const {
  if (sizes.size() != 1 || sizes[0].pe_bandwidth_Bps.n == 0) return std::nullopt;
  return sizes[0].pe_bandwidth_Bps.median;
}

RunSummary run_summary_from_json(const std::string& text, const std::string& what) {
  try {
    const Json j = Json::parse(text);
    RunSummary r;
    r.machine = j.at("machine").get<std::string>();
    r.profile = j.at("profile").get<std::string>();
    r.workload = j.at("workload").get<std::string>();
    r.pes = j.at("pes").get<int>();
    r.placement = j.at("placement").get<std::string>();
    if (j.contains("main_job_end_s")) r.main_job_end_s = number(j, "main_job_end_s");
    const Json& t = j.at("traffic");
    r.makespan_s = number(t, "makespan_s");
    for (const auto& s : t.at("sizes"))
      r.sizes.push_back({number(s, "bytes"), number(s, "span_s"), distribution_from(s.at("pe_bandwidth_Bps")),
                         distribution_from(s.at("pair_bandwidth_Bps"))});
    for (const auto& d : t.at("dimensions"))
      r.dimensions.push_back({d.at("dim").get<std::string>(), d.at("direction").get<std::string>(),
                              number(d, "mean_utilisation"), number(d, "max_utilisation")});
    const Json& b = t.at("bisection");
    r.bisection = {b.at("dim").get<std::string>(), number(b, "bytes"), number(b, "bandwidth_Bps"),
                   number(b, "utilisation")};
    r.max_link_utilisation = number(t, "max_link_utilisation");
    r.busiest_link = t.at("busiest_link").get<std::string>();
    r.transfers = t.at("transfers").get<size_t>();
    r.operations = t.at("operations").get<size_t>();
    if (t.contains("summed_records")) r.summed_records = t.at("summed_records").get<size_t>();
    if (j.contains("uncertainty")) r.uncertainty = uncertainty_from(j.at("uncertainty"));
    if (j.contains("packet")) {
      const Json& p = j.at("packet");
      SummaryPacket s;
      s.cycle_s = number(p, "cycle_s");
      s.cycles = p.at("cycles").get<uint64_t>();
      s.window_begin = p.at("window").at(0).get<uint64_t>();
      s.window_end = p.at("window").at(1).get<uint64_t>();
      if (p.contains("accepted_flits_per_cycle")) s.accepted_flits_per_cycle = number(p, "accepted_flits_per_cycle");
      if (p.contains("accepted_flits_per_cycle_min"))
        s.accepted_flits_per_cycle_min = number(p, "accepted_flits_per_cycle_min");
      s.mean_packet_latency_cycles = number(p, "mean_packet_latency_cycles");
      s.packets = p.at("packets").get<uint64_t>();
      s.flits = p.at("flits").get<uint64_t>();
      r.packet = s;
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(what + ": not a run summary (" + e.what() + ")");
  }
}

}  // namespace t3sim::protocol
