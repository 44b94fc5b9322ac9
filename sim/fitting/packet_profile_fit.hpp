// `t3sim calibrate --driver packet`: a profile's fit made again with every run under the packet driver,
// for the suites whose cases.yaml entry names packet_fit_params. The packet network's latency has
// another composition than the flow model's (a pipeline of router cycles at every hop, header flits,
// terminal cycles, each a whole cycle at least), which the per-call and per-message costs fitted under
// flows absorbed; the parameters named are fitted again to the same cases, the profile's other values
// kept. Written to the profile's packet_driver (machine file), which runs under the packet driver use.
//
// Every evaluation runs the cases' simulations in child processes (two at a time) under the packet
// driver, the trial values as --param overrides: seconds each, not the microseconds of the flow fit's
// uncontended replay, so the search is short. Each parameter is searched as a factor of its start value
// (the profile's value under flows) in [kLowestFactor, kHighestFactor]: the network's share of a
// message's latency is a few hundred ns of several us. DIRECT-L over that box, then a local polish
// (calib/bounded_minimiser.hpp), on the sum of squared log-ratios as the flow fit minimises.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/calib/profile_fitter.hpp"
#include "sim/calib/validation_run.hpp"
#include "sim/calib/validation_spec.hpp"

namespace t3sim::fitting {

constexpr double kLowestFactor = 0.7;
constexpr double kHighestFactor = 1.3;

struct PacketProfileFit {
  calib::FitResult fit;                    // params in packet_fit_params' order, residuals under packets
  std::vector<calib::CaseResult> results;  // every fitted case at those values, under packets
};

// Fits `suite.packet_fit_params` of `profile` to `cases` (all of that profile) under the packet driver,
// each parameter's search centred on `start` (key -> SI value: the profile's values under flows).
PacketProfileFit fit_profile_under_packets(const calib::SuiteSpec& suite, const std::vector<calib::MeasuredCase>& cases,
                                           const std::string& profile, const std::map<std::string, double>& start);

// The cases under the packet driver with the profile's parameters at `values` (key -> SI value).
std::vector<calib::CaseResult> evaluate_under_packets(const calib::SuiteSpec& suite,
                                                      std::vector<calib::MeasuredCase> cases,
                                                      const std::string& profile,
                                                      const std::vector<std::pair<std::string, double>>& values);

}  // namespace t3sim::fitting
