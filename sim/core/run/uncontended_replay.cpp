#include "sim/core/run/uncontended_replay.hpp"

#include "sim/core/run/closed_form_transport.hpp"
#include "sim/core/run/pe_interpreter.hpp"

namespace t3sim::core {

RunResult replay_uncontended(const CostModel& cost, const Workload& workload) {
  ClosedFormTransport transport(cost);
  PeInterpreter interpreter(cost, workload, transport);
  interpreter.start();
  transport.run();
  return interpreter.take_result();
}

}  // namespace t3sim::core
