// MPI collectives expanded into point-to-point messages, with the algorithms of the era's common MPI
// (MPICH 1.x), so a traced collective loads the torus much as it did then. Cray's T3E MPI did not come
// from MPICH (it derives from EPCC's T3D MPI, itself from CHIMP: netlib's MPI review, 1997), and its
// algorithms are not published; measured on the HLRS T3E (validation suite t3e-hlrs-collectives), its
// reduce takes the binomial tree's ceil(log2 N) levels, and its allreduce costs reduce + bcast where N is
// no power of two but about half that where it is (a butterfly's one exchange a level, not modelled).
// Every collective but the barrier first costs the PE the profile's mpi_collective_overhead (entering
// the call).
//   barrier    the machine's barrier (the T3D and T3E have barrier hardware): one SHMEM barrier
//   bcast      binomial tree from the root: log2(N) rounds, each PE receives once, then sends to
//              the subtrees it heads (largest first)
//   reduce     binomial tree to the root; each PE combines every child's contribution (comp_flops each)
//   allreduce  reduce to PE 0, then bcast from PE 0
//   alltoall   pairwise exchange: in round i = 1 .. N-1 PE r sends to r+i and receives from r-i (mod N)
//   gather     linear: each PE sends its block to the root, which receives them all
//   scatter    linear: the root sends every PE its block
//   allgather  ring: N-1 rounds, each PE passes the block it received last to r+1
//   gatherv, scatterv, allgatherv, alltoallv: as their fixed-size forms, with a size per PE
//   reducescatter  reduce of the whole vector to PE 0, then scatterv of the parts (MPICH 1.x)
//   scan, exscan   a chain: PE r receives the prefix from r-1, combines, passes it to r+1
// Blocks moving within one PE (the root's own block) are local copies. Sizes are bytes.
#pragma once
#include <vector>

#include "sim/core/messages/message_layer.hpp"
#include "sim/core/support/enum_names.hpp"

namespace t3sim::core {

enum class Collective {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Alltoall,
  Gather,
  Scatter,
  Allgather,
  Gatherv,
  Scatterv,
  Allgatherv,
  Alltoallv,
  ReduceScatter,
  Scan,
  Exscan
};
// As traces name them (SimGrid's time-independent actions, the SHMEM trace format) and reports label them.
constexpr NameTable<Collective, 15> kCollectiveNames = {{Collective::Barrier, "barrier"},
                                                        {Collective::Bcast, "bcast"},
                                                        {Collective::Reduce, "reduce"},
                                                        {Collective::Allreduce, "allreduce"},
                                                        {Collective::Alltoall, "alltoall"},
                                                        {Collective::Gather, "gather"},
                                                        {Collective::Scatter, "scatter"},
                                                        {Collective::Allgather, "allgather"},
                                                        {Collective::Gatherv, "gatherv"},
                                                        {Collective::Scatterv, "scatterv"},
                                                        {Collective::Allgatherv, "allgatherv"},
                                                        {Collective::Alltoallv, "alltoallv"},
                                                        {Collective::ReduceScatter, "reducescatter"},
                                                        {Collective::Scan, "scan"},
                                                        {Collective::Exscan, "exscan"}};
constexpr const auto& name_table(Collective) { return kCollectiveNames; }

struct CollectiveCall {
  CollectiveCall(Collective k = Collective::Barrier, double b = 0, double flops = 0, int r = 0)
      : kind(k), bytes(b), comp_flops(flops), root(r) {}
  Collective kind = Collective::Barrier;
  double bytes = 0;       // bcast: the message; reduce/allreduce: the vector; alltoall/gather/scatter/allgather:
                          // the block one PE sends to (or receives from) one other
  double comp_flops = 0;  // reduce/allreduce: flops to combine one contribution
  int root = 0;
  // The v-forms: bytes this PE sends to / receives from each PE (indexed by PE). gatherv: recv_blocks
  // at the root, `bytes` elsewhere; scatterv: send_blocks at the root, `bytes` received elsewhere;
  // allgatherv: recv_blocks (every PE's block); alltoallv: both; reducescatter: recv_blocks (each
  // PE's part of the reduced vector).
  std::vector<double> send_blocks, recv_blocks;
};

// Appends rank `rank`'s part of the collective over `ranks` PEs to `out`. Its messages use `tag`
// (negative: apart from the program's own tags); `proto` gives label, line, file and iteration;
// `next_request` numbers the PE's requests.
void append_collective(std::vector<Call>& out, const CollectiveCall& c, int rank, int ranks, int tag, const Call& proto,
                       int* next_request);

}  // namespace t3sim::core
