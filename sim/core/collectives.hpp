// MPI collectives expanded into point-to-point messages, with the algorithms of the era's MPI (MPICH 1.x,
// from which the T3E's message layer descends), so a traced collective loads the torus as it did then.
//   barrier    the machine's barrier (the T3D and T3E have barrier hardware): one SHMEM barrier
//   bcast      binomial tree from the root: log2(N) rounds, each PE receives once, then sends to
//              the subtrees it heads (largest first)
//   reduce     binomial tree to the root; each PE combines every child's contribution (comp_flops each)
//   allreduce  reduce to PE 0, then bcast from PE 0
//   alltoall   pairwise exchange: in round i = 1 .. N-1 PE r sends to r+i and receives from r-i (mod N)
//   gather     linear: each PE sends its block to the root, which receives them all
//   scatter    linear: the root sends every PE its block
//   allgather  ring: N-1 rounds, each PE passes the block it received last to r+1
// Blocks moving within one PE (the root's own block) are local copies. Sizes are bytes.
#pragma once
#include <vector>

#include "sim/core/message_layer.hpp"

namespace t3sim::core {

enum class Collective { Barrier, Bcast, Reduce, Allreduce, Alltoall, Gather, Scatter, Allgather };

struct CollectiveCall {
  Collective kind = Collective::Barrier;
  double bytes = 0;       // bcast: the message; reduce/allreduce: the vector; alltoall/gather/scatter/allgather:
                          // the block one PE sends to (or receives from) one other
  double comp_flops = 0;  // reduce/allreduce: flops to combine one contribution
  int root = 0;
};

const char* collective_name(Collective c);

// Appends rank `rank`'s part of the collective over `ranks` PEs to `out`. Its messages use `tag`
// (negative: apart from the program's own tags); `proto` gives label, line, file and iteration;
// `next_request` numbers the PE's requests.
void append_collective(std::vector<Call>& out, const CollectiveCall& c, int rank, int ranks, int tag, const Call& proto,
                       int* next_request);

}  // namespace t3sim::core
