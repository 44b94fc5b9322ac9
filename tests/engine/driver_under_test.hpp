// Every engine test runs once per driver (tests/CMakeLists.txt registers each test twice, prefixed
// "fast." and "reference.", with T3SIM_TEST_DRIVER set): both drivers must meet the same closed forms.
#pragma once
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "sim/engine/simulation.hpp"

inline t3sim::engine::SimulationOptions driver_under_test() {
  t3sim::engine::SimulationOptions options;
  const char* name = std::getenv("T3SIM_TEST_DRIVER");
  if (name == nullptr) return options;
  const auto driver = t3sim::core::enum_value<t3sim::engine::Driver>(name);
  if (!driver) throw std::invalid_argument(std::string("T3SIM_TEST_DRIVER: no driver named ") + name);
  options.driver = *driver;
  return options;
}
