// MPI pays its own costs and is never faster than the SHMEM it is built on (issue 13): on every
// shipped machine and profile, each MPI ping-pong of the coarray paper takes at least as long as the
// same ping-pong written with SHMEM puts, from 8 B to 4 MiB, queue, eager and rendezvous alike; and
// on the T3E-900 MPI's bandwidth is the 75-95% of SHMEM's that Cray's MPI of 1998 gave (issue 32).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/trace/trace_loader.hpp"

using namespace t3sim;

namespace {

std::string trace(const std::string& name) { return std::string(T3SIM_SOURCE_DIR) + "/workloads/traces/" + name; }

double makespan(const core::MachineSpec& m, const core::SoftwareProfile& p, const std::string& file, double bytes) {
  const io::LoadedWorkload w = io::load_trace(trace(file), {p.eager_threshold, p.mpi_queue_bytes}, 0, bytes);
  return core::replay_uncontended(core::CostModel(m, p), w.workload).makespan;
}

std::vector<std::string> machine_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(T3SIM_SOURCE_DIR) + "/platforms"))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(MpiCosts, NeverFasterThanTheShmemItIsBuiltOn) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"pingpong-sendrecv.t3t", "pingpong-put.t3t"},
      {"pingpong8-mpi-blocking.t3t", "pingpong8-put-blocking.t3t"},
      {"pingpong8-mpi-nonblocking.t3t", "pingpong8-put-nonblocking.t3t"},
  };
  int checked = 0;
  for (const std::string& file : machine_files()) {
    const core::MachineSpec m = io::load_machine(file);
    for (const core::SoftwareProfile& p : m.profiles)
      for (double bytes : {8.0, 64.0, 1024.0, 16384.0, 65536.0, 262144.0, 4194304.0})
        for (const auto& [mpi, shmem] : pairs) {
          const double t_mpi = makespan(m, p, mpi, bytes);
          const double t_shmem = makespan(m, p, shmem, bytes);
          EXPECT_GE(t_mpi, t_shmem) << file << " profile " << p.name << ": " << mpi << " vs " << shmem << " at "
                                    << bytes << " B";
          ++checked;
        }
  }
  EXPECT_GE(checked, 7 * 3 * 7);  // every shipped machine took part
}

// Ames Lab's MP_Lite T3E page: "the current version of Cray MPI delivers 85-90% of the raw SHMEM
// performance"; the machine file's mpi_bandwidth is derived from it, and this holds the whole path
// (the rendezvous' request, pull and acknowledgement against the signalled put) in a wider band.
TEST(MpiCosts, MpiBandwidthOnTheT3e900IsMostOfShmems) {
  const core::MachineSpec m = io::load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/t3e-900-mcurie.yaml");
  for (const core::SoftwareProfile& p : m.profiles)
    for (double bytes : {65536.0, 262144.0, 1048576.0, 4194304.0}) {
      const double share = makespan(m, p, "pingpong-put.t3t", bytes) / makespan(m, p, "pingpong-sendrecv.t3t", bytes);
      EXPECT_GE(share, 0.75) << p.name << " at " << bytes << " B";
      EXPECT_LE(share, 0.95) << p.name << " at " << bytes << " B";
    }
}

}  // namespace
