#include "sim/io/output/vc_report_csv.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace t3sim::io {

std::string vc_report_csv(const core::RunResult& r) {
  static const char* kPorts[7] = {"x+", "x-", "y+", "y-", "z+", "z-", "node"};
  const core::PacketRunStats& p = r.packet;
  // The window as run: recording stops with the run.
  const uint64_t to = std::min(p.vc_to, p.cycles);
  const double window = to > p.vc_from ? static_cast<double>(to - p.vc_from) : 0;
  std::string out = fmt::format("# window_cycles,{},{}\n# cycle_s,{:.9g}\n", p.vc_from, to, p.cycle_s);
  out += "node,vc_of,vc,packets,mean_wait_cycles,held,mean_hold_cycles,hold_cv2,busy";
  for (const char* port : kPorts) out += fmt::format(",from_{0}_packets,from_{0}_mean_wait_cycles", port);
  out += "\n";
  const auto mean = [](double sum, uint64_t n) { return n > 0 ? sum / static_cast<double>(n) : 0.0; };
  for (const core::VcActivity& a : r.packet.vcs) {
    // vc_of: the link's direction it leaves by, "eject" into its node, or "inject" from it.
    const std::string of = a.injection ? "inject" : a.port == 6 ? "eject" : kPorts[a.port];
    const double hold = mean(a.hold_sum, a.held);
    const double cv2 = a.held > 0 && hold > 0
                           ? std::max(0.0, a.hold_squares / static_cast<double>(a.held) - hold * hold) / (hold * hold)
                           : 0.0;
    out += fmt::format("{},{},{},{},{:.6g},{},{:.6g},{:.6g},{:.6g}", a.node, of, a.vc, a.packets,
                       mean(a.wait_sum, a.packets), a.held, hold, cv2, window > 0 ? a.hold_sum / window : 0.0);
    for (size_t i = 0; i < 7; ++i)
      out += fmt::format(",{},{:.6g}", a.packets_from[i], mean(a.wait_from[i], a.packets_from[i]));
    out += "\n";
  }
  return out;
}

}  // namespace t3sim::io
