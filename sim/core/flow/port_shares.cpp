#include "sim/core/flow/port_shares.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace t3sim::core {

PortShares::PortShares(int resources, double fairness)
    : fairness_(fairness), flows_(static_cast<size_t>(resources)), ports_(static_cast<size_t>(resources), 0) {
  if (!(fairness >= 0 && fairness <= 1))
    throw std::invalid_argument("PortShares: fairness must be in [0, 1] (got " + std::to_string(fairness) + ")");
  for (auto& f : flows_) f.fill(0);
  for (int k = 0; k <= kPorts; ++k) factor_.push_back(k == 0 ? 1.0 : std::pow(static_cast<double>(k), -fairness));
}

void PortShares::add(const std::vector<Hop>& hops, std::vector<ResourceId>& changed) {
  for (const auto& [r, port] : hops) {
    if (port < 0 || port >= kPorts) throw std::out_of_range("PortShares: no input port " + std::to_string(port));
    if (flows_[static_cast<size_t>(r)][static_cast<size_t>(port)]++ == 0) {
      ++ports_[static_cast<size_t>(r)];
      changed.push_back(r);
    }
  }
}

void PortShares::remove(const std::vector<Hop>& hops, std::vector<ResourceId>& changed) {
  for (const auto& [r, port] : hops) {
    if (port < 0 || port >= kPorts) throw std::out_of_range("PortShares: no input port " + std::to_string(port));
    int32_t& n = flows_[static_cast<size_t>(r)][static_cast<size_t>(port)];
    if (n <= 0) throw std::logic_error("PortShares: a flow removed from resource " + std::to_string(r) + " twice");
    if (--n == 0) {
      --ports_[static_cast<size_t>(r)];
      changed.push_back(r);
    }
  }
}

double PortShares::share(const std::vector<Hop>& hops) const {
  double s = 1;
  for (const Hop& h : hops) s *= factor_[ports_[static_cast<size_t>(h.first)]];
  return s;
}

}  // namespace t3sim::core
