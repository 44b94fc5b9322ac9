// Replays a workload with every transfer at its uncontended rate: the one PE interpreter
// (pe_interpreter.hpp) over the closed-form transport (closed_form_transport.hpp), with no SimGrid.
// Signals, waits, quiets, barriers and background puts are the engine's own code, but no two
// transfers slow each other down. When no link or interface is shared at the same time, it gives the
// engine's times (engine tests pin this to 1e-9), in microseconds instead of a SimGrid run: `t3sim
// calibrate` evaluates its objective with it.
#pragma once
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/results.hpp"

namespace t3sim::core {

// Throws ModelError naming the stuck PEs when the workload cannot finish.
RunResult replay_uncontended(const CostModel& cost, const Workload& workload);

}  // namespace t3sim::core
