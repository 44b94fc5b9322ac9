#include "sim/io/output/results_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "sim/analysis/swap_statistics.hpp"

namespace t3sim::io {
namespace {
// The calls a run's records stand for (a summed run's, or a repeated block's: OpRecord::repeats).
double calls_of(const core::RunResult& r) {
  double calls = 0;
  for (const core::OpRecord& rec : r.records) calls += rec.repeats;
  return calls;
}

// The data movements a run's transfers stand for (a repeated block's: Transfer::repeats).
size_t data_movements(const core::RunResult& r) {
  size_t n = 0;
  for (const core::Transfer& t : r.transfers) n += static_cast<size_t>(t.repeats);
  return n;
}

// The transfer's own rate: bytes over its data's flow time (0 when the call moved no data).
double flow_mbps(const core::OpRecord& r) { return (r.bytes > 0 && r.flow > 0) ? r.bytes / r.flow / 1e6 : 0.0; }
// What the caller saw: bytes over the call's time, for a call that waited for its data; empty for a
// non-blocking put (its call returns before the data lands: the ratio would mean nothing).
std::string call_mbps(const core::OpRecord& r, const char* format) {
  const double d = r.duration();
  if (r.background || !(r.bytes > 0 && d > 0)) return "";
  return fmt::format(fmt::runtime(format), r.bytes / d / 1e6);
}

core::OpKind kind_from(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(core::OpKind::Close); ++k)  // Close is the last kind
    if (name == core::op_kind_name(static_cast<core::OpKind>(k))) return static_cast<core::OpKind>(k);
  throw std::runtime_error("results JSON: unknown op '" + name + "'");
}

// What every JSON output says first: which run it is.
nlohmann::ordered_json run_identity(const core::RunResult& r) {
  nlohmann::ordered_json j;
  j["machine"] = r.machine;
  j["profile"] = r.profile;
  j["workload"] = r.workload;
  j["pes"] = r.pes;
  j["placement"] = r.placement;
  return j;
}

}  // namespace

std::string results_table(const core::RunResult& r) {
  std::string out = fmt::format("machine {}  profile {}  workload {}  pes {} ({})  makespan {:.3f} us\n", r.machine,
                                r.profile, r.workload, r.pes, r.placement, r.makespan * 1e6);
  out += io_summary(r);
  out += fmt::format("{:>5} {:<12} {:<8} {:>5} {:>10} {:>14} {:>14} {:>10} {:>14} {:>10}\n", "pe", "label", "op",
                     "peer", "bytes", "start_us", "time_us", "call MB/s", "flow_us", "flow MB/s");
  for (const auto& rec : r.records)
    out += fmt::format("{:>5} {:<12} {:<8} {:>5} {:>10.0f} {:>14.3f} {:>14.3f} {:>10} {:>14.3f} {:>10.2f}\n", rec.pe,
                       r.labels.name(rec.label), core::op_kind_name(rec.kind), rec.peer, rec.bytes, rec.start * 1e6,
                       rec.duration() * 1e6, call_mbps(rec, "{:.2f}"), rec.flow * 1e6, flow_mbps(rec));
  return out + swap_summary(r);
}

std::string io_summary(const core::RunResult& r) {
  std::string out;
  if (r.main_job_end != r.makespan)
    out += fmt::format("main job ends {:.3f} us (the background job's last calls after it)\n", r.main_job_end * 1e6);
  if (r.io.calls == 0) return out;
  const core::IoStats& s = r.io;
  out += fmt::format(
      "file I/O: {} forwarded calls ({} disk requests), {:.0f} B written, {:.0f} B read; queued for a disk's server "
      "{:.3f} us in all, {:.3f} us at most\n",
      s.calls, s.requests, s.bytes_written, s.bytes_read, s.queue_wait * 1e6, s.max_queue_wait * 1e6);
  if (s.main_calls > 0)
    out += fmt::format("main job: {:.0f} forwarded calls, {:.3f} us each on average from request to reply\n",
                       s.main_calls, s.main_call_time / s.main_calls * 1e6);
  return out;
}

std::string swap_summary(const core::RunResult& r) {
  if (r.swap_iterations <= 0) return "";
  const analysis::SwapStatistics st = analysis::swap_statistics(r, r.swap_iterations);
  std::string out = fmt::format("\nswap curve ({} swap(s) per measurement, slowest PE)\n{:>10} {:>14} {:>12}\n",
                                r.swap_iterations, "bytes", "time_us", "MB/s");
  for (const auto& p : st.curve)
    out += fmt::format("{:>10.0f} {:>14.3f} {:>12.2f}\n", p.bytes, p.seconds * 1e6, p.bytes / p.seconds / 1e6);
  out += fmt::format(
      "peak unidirectional bandwidth {:.2f} MB/s  estimated latency {:.2f} us  model max rel error {:.1f}%\n",
      st.peak_bandwidth / 1e6, st.estimated_latency * 1e6, st.model_max_rel_error * 100);
  return out;
}

std::string traffic_summary(const analysis::TrafficReport& t) {
  static const char* kDim = "xyz";
  std::string out =
      fmt::format("\ntraffic (makespan {:.3f} us)\n{:>10} {:>12} {:>34} {:>34}\n", t.makespan * 1e6, "bytes", "span_us",
                  "per-PE MB/s min/median/mean/max", "per-pair MB/s min/median/mean/max");
  for (const auto& s : t.sizes)
    out += fmt::format("{:>10.0f} {:>12.3f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f}\n",
                       s.bytes, s.span * 1e6, s.pe_bandwidth.min / 1e6, s.pe_bandwidth.median / 1e6,
                       s.pe_bandwidth.mean / 1e6, s.pe_bandwidth.max / 1e6, s.pair_bandwidth.min / 1e6,
                       s.pair_bandwidth.median / 1e6, s.pair_bandwidth.mean / 1e6, s.pair_bandwidth.max / 1e6);
  out += "link utilisation by dimension and direction (mean / max over the run):\n";
  for (const auto& d : t.dimensions)
    out += fmt::format("  {}{} {:>6.1f}% / {:>6.1f}%\n", kDim[d.dim], d.plus ? "+" : "-", d.mean_utilisation * 100,
                       d.max_utilisation * 100);
  out += "busiest links:\n";
  for (size_t i = 0; i < t.links.size() && i < 5; ++i)
    out += fmt::format("  {:<12} {:>14.0f} B {:>6.1f}%\n", t.links[i].name, t.links[i].bytes,
                       t.links[i].utilisation * 100);
  if (t.bisection_dim >= 0)
    out += fmt::format("bisection across {}: {:.0f} B over {:.1f} MB/s, utilisation {:.1f}%\n", kDim[t.bisection_dim],
                       t.bisection_bytes, t.bisection_bandwidth / 1e6, t.bisection_utilisation * 100);
  return out;
}

std::string traffic_json(const analysis::TrafficReport& t) {
  nlohmann::ordered_json j;
  j["makespan_s"] = t.makespan;
  j["sizes"] = nlohmann::ordered_json::array();
  auto dist = [](const analysis::Distribution& d) {
    return nlohmann::ordered_json{{"n", d.n}, {"min", d.min}, {"median", d.median}, {"mean", d.mean}, {"max", d.max}};
  };
  for (const auto& s : t.sizes)
    j["sizes"].push_back({{"bytes", s.bytes},
                          {"span_s", s.span},
                          {"pe_bandwidth_Bps", dist(s.pe_bandwidth)},
                          {"pair_bandwidth_Bps", dist(s.pair_bandwidth)}});
  j["dimensions"] = nlohmann::ordered_json::array();
  for (const auto& d : t.dimensions)
    j["dimensions"].push_back({{"dim", std::string(1, "xyz"[d.dim])},
                               {"direction", d.plus ? "+" : "-"},
                               {"mean_utilisation", d.mean_utilisation},
                               {"max_utilisation", d.max_utilisation}});
  j["links"] = nlohmann::ordered_json::array();
  for (const auto& l : t.links)
    j["links"].push_back({{"link", l.name}, {"bytes", l.bytes}, {"utilisation", l.utilisation}});
  j["bisection"] = {{"dim", t.bisection_dim >= 0 ? std::string(1, "xyz"[t.bisection_dim]) : ""},
                    {"bytes", t.bisection_bytes},
                    {"bandwidth_Bps", t.bisection_bandwidth},
                    {"utilisation", t.bisection_utilisation}};
  return j.dump(1);
}

std::vector<analysis::LinkLoad> links_of_traffic_json(const std::string& text, const std::string& name) {
  std::vector<analysis::LinkLoad> links;
  try {
    const nlohmann::json report = nlohmann::json::parse(text);  // kept: the loop reads into it
    for (const auto& l : report.at("links")) {
      analysis::LinkLoad load;
      load.name = l.at("link").get<std::string>();
      load.bytes = l.at("bytes").get<double>();
      load.utilisation = l.at("utilisation").get<double>();
      const size_t dot = load.name.find('.');
      if (load.name[0] == 'n' && dot != std::string::npos && dot + 1 < load.name.size() &&
          std::string("xyz").find(load.name[dot + 1]) != std::string::npos) {
        load.dim = static_cast<int>(std::string("xyz").find(load.name[dot + 1]));
        load.plus = load.name.back() == '+';
      }
      links.push_back(load);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(name + ": not a traffic report (" + e.what() + ")");
  }
  return links;
}

protocol::RunSummary run_summary(const core::RunResult& r, const analysis::TrafficReport& t) {
  protocol::RunSummary s;
  s.machine = r.machine;
  s.profile = r.profile;
  s.workload = r.workload;
  s.pes = r.pes;
  s.placement = r.placement;
  if (r.main_job_end != r.makespan) s.main_job_end_s = r.main_job_end;  // a background job ran on
  s.makespan_s = t.makespan;
  const auto distribution = [](const analysis::Distribution& d) {
    return protocol::SummaryDistribution{d.n, d.min, d.median, d.mean, d.max};
  };
  for (const auto& size : t.sizes)
    s.sizes.push_back({size.bytes, size.span, distribution(size.pe_bandwidth), distribution(size.pair_bandwidth)});
  for (const auto& d : t.dimensions)
    s.dimensions.push_back({std::string(1, "xyz"[d.dim]), d.plus ? "+" : "-", d.mean_utilisation, d.max_utilisation});
  s.bisection = {t.bisection_dim >= 0 ? std::string(1, "xyz"[t.bisection_dim]) : "", t.bisection_bytes,
                 t.bisection_bandwidth, t.bisection_utilisation};
  s.max_link_utilisation = t.links.empty() ? 0.0 : t.links.front().utilisation;
  s.busiest_link = t.links.empty() ? "" : t.links.front().name;
  s.transfers = data_movements(r);
  s.operations = static_cast<size_t>(calls_of(r));
  if (r.summed) s.summed_records = r.records.size();  // RunResult::summed: records are sums
  if (r.packet.present) {
    const core::PacketRunStats& p = r.packet;
    protocol::SummaryPacket sp{
        p.cycle_s, p.cycles, p.window_begin, p.window_end, std::nullopt, std::nullopt, p.mean_packet_latency_cycles,
        p.packets, p.flits};
    if (p.window_end > p.window_begin) {
      sp.accepted_flits_per_cycle = p.accepted_flits_per_cycle;
      sp.accepted_flits_per_cycle_min = p.accepted_flits_per_cycle_min;
    }
    s.packet = sp;
  }
  return s;
}

std::string transfers_csv(const core::RunResult& r) {
  // repeats: the data movements a row stands for (core::Transfer::repeats), its bytes each.
  std::string out = "src,dst,bytes,start_s,end_s,iteration,repeats\n";
  for (const auto& t : r.transfers)
    out += fmt::format("{},{},{:.0f},{:.12e},{:.12e},{},{}\n", t.src, t.dst, t.bytes, t.start, t.end, t.iteration,
                       t.repeats);
  return out;
}

std::vector<core::Transfer> parse_transfers_csv(const std::string& text, const std::string& name) {
  std::vector<core::Transfer> out;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    if (++line_no == 1 || line.empty()) continue;  // the header
    core::Transfer t;
    char c[5] = {};
    std::istringstream row(line);
    if (!(row >> t.src >> c[0] >> t.dst >> c[1] >> t.bytes >> c[2] >> t.start >> c[3] >> t.end >> c[4] >>
          t.iteration) ||
        std::string(c, 5) != ",,,,,")
      throw std::runtime_error(name + ":" + std::to_string(line_no) + ": not a transfers row: " + line);
    char comma = 0;  // the repeats column (files written before it had none: 1)
    if (row >> comma && (comma != ',' || !(row >> t.repeats) || t.repeats < 1))
      throw std::runtime_error(name + ":" + std::to_string(line_no) + ": not a transfers row: " + line);
    out.push_back(t);
  }
  return out;
}

std::string results_csv(const core::RunResult& r) {
  // call_MBps: bytes / time_s, empty for a non-blocking put; rate_MBps: bytes / flow_s, the transfer's
  // own rate (at most its path's slowest link, or the copy rate of a local copy).
  std::string out = "pe,step,iteration,label,op,peer,bytes,start_s,end_s,time_s,call_MBps,flow_s,rate_MBps\n";
  for (const auto& rec : r.records)
    out += fmt::format("{},{},{},{},{},{},{:.0f},{:.12e},{:.12e},{:.12e},{},{:.12e},{:.6f}\n", rec.pe, rec.step,
                       rec.iteration, r.labels.name(rec.label), core::op_kind_name(rec.kind), rec.peer, rec.bytes,
                       rec.start, rec.end, rec.duration(), call_mbps(rec, "{:.6f}"), rec.flow, flow_mbps(rec));
  return out;
}

std::string results_json(const core::RunResult& r) {
  nlohmann::ordered_json j = run_identity(r);
  j["makespan_s"] = r.makespan;
  if (r.main_job_end != r.makespan) j["main_job_end_s"] = r.main_job_end;
  if (r.io.calls > 0)
    j["io"] = {{"calls", r.io.calls},
               {"requests", r.io.requests},
               {"bytes_written", r.io.bytes_written},
               {"bytes_read", r.io.bytes_read},
               {"queue_wait_s", r.io.queue_wait},
               {"max_queue_wait_s", r.io.max_queue_wait},
               {"main_calls", r.io.main_calls},
               {"main_call_time_s", r.io.main_call_time}};
  j["swap_iterations"] = r.swap_iterations;
  if (r.swap_iterations > 0) {
    const analysis::SwapStatistics st = analysis::swap_statistics(r, r.swap_iterations);
    j["swap"] = {{"peak_bandwidth_MBps", st.peak_bandwidth / 1e6},
                 {"estimated_latency_us", std::isfinite(st.estimated_latency) ? st.estimated_latency * 1e6 : -1.0},
                 {"model_max_rel_error", st.model_max_rel_error}};
  }
  if (r.packet.present) {
    const core::PacketRunStats& p = r.packet;
    j["packet"] = {{"cycle_s", p.cycle_s},
                   {"cycles", p.cycles},
                   {"window", {p.window_begin, p.window_end}},
                   {"accepted_flits_per_cycle", p.accepted_flits_per_cycle},
                   {"accepted_flits_per_cycle_min", p.accepted_flits_per_cycle_min},
                   {"mean_packet_latency_cycles", p.mean_packet_latency_cycles},
                   {"packets", p.packets},
                   {"flits", p.flits}};
  }
  if (r.summed) j["summed"] = true;  // RunResult::summed: a record per PE, label and kind, its calls in "repeats"
  j["records"] = nlohmann::ordered_json::array();
  for (const auto& rec : r.records) {
    nlohmann::ordered_json o;
    o["pe"] = rec.pe;
    o["step"] = rec.step;
    o["iteration"] = rec.iteration;
    o["label"] = r.labels.name(rec.label);
    o["op"] = core::op_kind_name(rec.kind);
    o["peer"] = rec.peer;
    o["bytes"] = rec.bytes;
    o["start_s"] = rec.start;
    o["end_s"] = rec.end;
    o["flow_s"] = rec.flow;
    if (rec.background) o["background"] = true;
    if (rec.repeats != 1) o["repeats"] = rec.repeats;
    j["records"].push_back(std::move(o));
  }
  return j.dump(1) + "\n";
}

core::RunResult parse_results_json(const std::string& text) {
  core::RunResult r;
  try {
    const auto j = nlohmann::json::parse(text);
    r.machine = j.at("machine").get<std::string>();
    r.profile = j.at("profile").get<std::string>();
    r.workload = j.at("workload").get<std::string>();
    r.pes = j.at("pes").get<int>();
    r.placement = j.value("placement", "");
    r.makespan = j.at("makespan_s").get<double>();
    r.main_job_end = j.value("main_job_end_s", r.makespan);
    if (j.contains("io")) {
      const auto& io = j.at("io");
      r.io.calls = io.at("calls").get<long>();
      r.io.requests = io.at("requests").get<long>();
      r.io.bytes_written = io.at("bytes_written").get<double>();
      r.io.bytes_read = io.at("bytes_read").get<double>();
      r.io.queue_wait = io.at("queue_wait_s").get<double>();
      r.io.max_queue_wait = io.at("max_queue_wait_s").get<double>();
      r.io.main_calls = io.at("main_calls").get<double>();
      r.io.main_call_time = io.at("main_call_time_s").get<double>();
    }
    r.swap_iterations = j.value("swap_iterations", 0);
    if (j.contains("packet")) {
      const auto& p = j.at("packet");
      core::PacketRunStats& s = r.packet;
      s.present = true;
      s.cycle_s = p.at("cycle_s").get<double>();
      s.cycles = p.at("cycles").get<uint64_t>();
      s.window_begin = p.at("window").at(0).get<uint64_t>();
      s.window_end = p.at("window").at(1).get<uint64_t>();
      s.accepted_flits_per_cycle = p.at("accepted_flits_per_cycle").get<double>();
      s.accepted_flits_per_cycle_min = p.at("accepted_flits_per_cycle_min").get<double>();
      s.mean_packet_latency_cycles = p.at("mean_packet_latency_cycles").get<double>();
      s.packets = p.at("packets").get<uint64_t>();
      s.flits = p.at("flits").get<uint64_t>();
    }
    for (const auto& o : j.at("records")) {
      core::OpRecord rec;
      rec.pe = o.at("pe").get<int>();
      rec.step = o.at("step").get<int>();
      rec.iteration = o.at("iteration").get<int>();
      rec.label = r.labels.intern(o.at("label").get<std::string>());
      rec.kind = kind_from(o.at("op").get<std::string>());
      rec.peer = o.at("peer").get<int>();
      rec.bytes = o.at("bytes").get<double>();
      rec.start = o.at("start_s").get<double>();
      rec.end = o.at("end_s").get<double>();
      rec.flow = o.value("flow_s", 0.0);
      rec.background = o.value("background", false);
      rec.repeats = o.value("repeats", 1);
      r.records.push_back(std::move(rec));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("results JSON: ") + e.what());
  }
  return r;
}

namespace {
// Calls and data movements, repetitions included; a summed run (RunResult::summed) also says into how
// many records they were summed.
std::string operations_line(const core::RunResult& r) {
  if (!r.summed) return fmt::format("operations {:.0f}  data movements {}\n", calls_of(r), data_movements(r));
  const double calls = calls_of(r);
  return fmt::format(
      "operations {:.0f}, summed into {} records (per PE, label and kind)  data movements summed "
      "into {} (per pair and direction)\n",
      calls, r.records.size(), r.transfers.size());
}
}  // namespace

std::string trace_summary(const core::RunResult& r, const std::vector<analysis::PeTime>& split,
                          const std::string& source) {
  std::string out = fmt::format("machine {}  profile {}  {} {}  pes {} ({})  makespan {:.3f} us\n", r.machine,
                                r.profile, source, r.workload, r.pes, r.placement, r.makespan * 1e6);
  out += io_summary(r);
  out += operations_line(r);
  const analysis::TimeSplitSummary s = analysis::summarise(split);
  out += fmt::format("{:<15} {:>12} {:>12} {:>12} {:>12}\n", "time per PE, us", "min", "median", "mean", "max");
  auto row = [&](const char* name, const analysis::Distribution& d) {
    out += fmt::format("{:<15} {:>12.3f} {:>12.3f} {:>12.3f} {:>12.3f}\n", name, d.min * 1e6, d.median * 1e6,
                       d.mean * 1e6, d.max * 1e6);
  };
  row("compute", s.compute);
  row("communication", s.communication);
  row("waiting", s.waiting);
  row("end", s.end);
  std::vector<analysis::PeTime> most = split;
  std::stable_sort(most.begin(), most.end(),
                   [](const analysis::PeTime& a, const analysis::PeTime& b) { return a.waiting > b.waiting; });
  out += "most waiting:";
  for (size_t i = 0; i < most.size() && i < 5; ++i)
    out += fmt::format("  PE {} {:.3f} us", most[i].pe, most[i].waiting * 1e6);
  out += fmt::format("\n{:<15} {:>12} {:>14} {:>14} {:>8}\n", "time by label", "operations", "mean/PE us", "max PE us",
                     "share");
  const double pes = static_cast<double>(std::max<size_t>(split.size(), 1));
  const double mean_end = s.end.mean > 0 ? s.end.mean : 1;
  for (const analysis::LabelTime& t : analysis::time_by_label(r, static_cast<int>(split.size())))
    out += fmt::format("{:<15} {:>12} {:>14.3f} {:>14.3f} {:>7.1f}%\n", t.label, t.operations, t.total / pes * 1e6,
                       t.max_pe * 1e6, 100 * t.total / pes / mean_end);
  return out;
}

std::string time_split_csv(const std::vector<analysis::PeTime>& split) {
  std::string out = "pe,compute_s,communication_s,waiting_s,end_s\n";
  for (const auto& t : split)
    out += fmt::format("{},{:.9e},{:.9e},{:.9e},{:.9e}\n", t.pe, t.compute, t.communication, t.waiting, t.end);
  return out;
}

}  // namespace t3sim::io
