// Where the PEs of a job sit on a machine: job PE p runs on machine PE machine_pe(p), which is slot
// machine_pe % pes_per_node of node machine_pe / pes_per_node. Policies:
//   contiguous : job PEs fill machine PEs 0, 1, 2, ... (node-id order; the T3D/T3E default)
//   block      : the most compact sub-torus of nodes that holds the job (smallest a+b+c, then volume),
//                anchored at the origin, filled in node-id order within the box
//   random     : a seeded uniform choice of machine PEs (own Fisher-Yates on std::mt19937_64, so the same
//                seed gives the same placement on every platform)
//   list       : explicit machine PEs, one per job PE
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

class JobPlacement {
 public:
  // Throws ModelError (naming the policy) when the job does not fit.
  static JobPlacement contiguous(const MachineSpec& m, int job_pes);
  static JobPlacement block(const MachineSpec& m, int job_pes);
  static JobPlacement random(const MachineSpec& m, int job_pes, uint64_t seed);
  static JobPlacement list(const MachineSpec& m, std::vector<int> machine_pes);

  // The same with the machine's I/O nodes in service appended as endpoints size() .. size() + io_node_count() - 1 (the
  // first slot of each I/O node's position), so that file calls travel the torus as PE pairs do.
  JobPlacement with_io_nodes(const MachineSpec& m) const;

  int size() const { return static_cast<int>(machine_pes_.size()); }
  int machine_pe(int job_pe) const { return machine_pes_[static_cast<size_t>(job_pe)]; }
  int node_of(int job_pe) const { return machine_pe(job_pe) / pes_per_node_; }
  const std::string& description() const { return description_; }

 private:
  JobPlacement(std::vector<int> machine_pes, int pes_per_node, std::string description)
      : machine_pes_(std::move(machine_pes)), pes_per_node_(pes_per_node), description_(std::move(description)) {}
  std::vector<int> machine_pes_;
  int pes_per_node_ = 1;
  std::string description_;
};

// A background job of `pes` PEs on the machine PEs `main` leaves free: "contiguous" takes the first free
// ones in order, "random:SEED" a seeded choice among them. Returns the combined placement (main's PEs,
// then the background's). Throws ModelError when they do not fit.
JobPlacement with_background_placement(const MachineSpec& m, const JobPlacement& main, int pes,
                                       const std::string& policy);

// Parses "contiguous", "block", "random:SEED" or "list:P0,P1,...". Throws ModelError.
JobPlacement make_placement(const MachineSpec& m, int job_pes, const std::string& policy);

}  // namespace t3sim::core
