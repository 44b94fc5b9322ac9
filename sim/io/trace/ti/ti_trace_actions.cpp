// The actions of SimGrid 3.32's time-independent traces as t3sim reads them: `describe trace` prints
// them, and their first words are the names the reader knows (for "did you mean"). The rules in full:
// workloads/README.md; the layouts as SimGrid writes them: tests/data/ti-real/README.md.
#include <algorithm>

#include "sim/io/trace/ti/ti_rank_reader.hpp"

namespace t3sim::io {

const std::vector<core::KeyDoc>& ti_trace_actions() {
  static const std::vector<core::KeyDoc> docs = {
      {"send DST TAG COUNT [TYPE]", "",
       "blocking send (eager or rendezvous by size); DST -333: MPI_PROC_NULL, no cost"},
      {"isend DST TAG COUNT [TYPE]", "", "non-blocking send, completed by its wait"},
      {"Ssend DST TAG COUNT [TYPE]", "", "synchronous send: always rendezvous"},
      {"ISsend DST TAG COUNT [TYPE]", "", "non-blocking synchronous send"},
      {"bsend DST TAG COUNT [TYPE]", "", "buffered send: always eager"},
      {"ibsend DST TAG COUNT [TYPE]", "", "non-blocking buffered send"},
      {"recv SRC TAG COUNT [TYPE]", "", "blocking receive; SRC -333 any source, TAG -444 any tag"},
      {"irecv SRC TAG COUNT [TYPE]", "",
       "non-blocking receive (done at its wait); -333 also MPI_PROC_NULL: no cost when no send is left for it"},
      {"Start PEER TAG BYTES [TYPE]", "",
       "persistent request: a send to PEER, or a receive when PEER is the caller (source from its later wait)"},
      {"Startall", "", "no cost, warned: the trace does not say which requests it starts"},
      {"wait SRC DST TAG", "", "completes the oldest pending request of that key"},
      {"waitall [COUNT]", "", "completes the pending requests no later wait names, oldest first, at most COUNT"},
      {"waitAny COUNT", "", "completes the oldest pending request no later wait names (warned)"},
      {"test SRC DST TAG", "", "completes its request where it is the last test of it; otherwise no cost"},
      {"testany, testall, testsome", "", "no cost"},
      {"sendRecv SCOUNT DST RCOUNT SRC [T1 [T2]]", "", "a send and a receive with tag 0, both waited for"},
      {"barrier", "", "every rank (the barrier hardware); a group's: a zero-byte allreduce"},
      {"bcast COUNT [ROOT [TYPE]]", "", "binomial tree"},
      {"reduce COUNT FLOPS [ROOT [TYPE]]", "", "binomial tree, FLOPS per combination"},
      {"allreduce COUNT FLOPS [TYPE]", "", "reduce to the first rank, then bcast"},
      {"alltoall SEND [RECV] [T1 [T2]]", "", "pairwise exchange"},
      {"allgather SEND [RECV] [T1 [T2]]", "", "ring"},
      {"gather SEND [RECV] ROOT [T1 [T2]]", "", "linear to ROOT (RECV left out when 0)"},
      {"scatter SEND [RECV] ROOT [T1 [T2]]", "", "linear from ROOT"},
      {"gatherv SEND RECVCOUNTS... [ROOT [T1 [T2]]]", "", "linear, a size per rank (SEND left out in place)"},
      {"scatterv SENDCOUNTS... RECV [ROOT [T1 [T2]]]", "", "linear, a size per rank (RECV left out in place)"},
      {"allgatherv SEND RECVCOUNTS... [T1 T2] [DISPLS...]", "", "ring, a size per rank"},
      {"alltoallv SSUM SENDCOUNTS... RSUM RECVCOUNTS... [T1 [T2]]", "", "pairwise exchange, a size per pair"},
      {"reducescatter RECVCOUNTS... FLOPS [TYPE]", "",
       "reduce to the first rank, then scatterv; a line of zeros and a type is MPI_Reduce_scatter_block"},
      {"scan COUNT FLOPS [TYPE]", "", "a chain"},
      {"exscan COUNT FLOPS [TYPE]", "", "a chain"},
      {"ibarrier, ibcast, ireduce, iallreduce, ialltoall, iallgather, igather, iscatter, igatherv, iscatterv, "
       "iallgatherv, ialltoallv, ireducescatter, iscan, iexscan",
       "", "non-blocking collectives: the blocking collective at its call (warned)"},
      {"compute FLOPS", "", "computation at the node's peak rate"},
      {"sleep SECONDS", "", "a fixed time"},
      {"Put, Rput, Accumulate, Raccumulate TARGET 0 COUNT TYPE", "",
       "SHMEM put, completed by the next flush, unlock, complete or fence"},
      {"Get, Rget TARGET 0 COUNT TYPE", "", "SHMEM get"},
      {"Get_accumulate, Rget_accumulate, Compare_and_swap TARGET 0 COUNT TYPE", "", "atomic: a round trip"},
      {"Win_flush, Win_flush_all, Win_flush_local, Win_flush_local_all, Win_unlock, Win_unlock_all, Win_complete", "",
       "shmem_quiet"},
      {"Win_fence", "", "a barrier"},
      {"Win_lock, Win_lock_all", "", "no cost"},
      {"Win_post, Win_start, Win_wait", "", "no cost (warned: no group in the trace)"},
      {"IO - NAME BYTES", "", "MPI-IO: no cost (warned; no I/O model)"},
      {"migrate BYTES", "", "AMPI migration: no cost (warned)"},
      {"init [TYPE]", "", "no cost; with an argument MPI_DOUBLE becomes the default type (else MPI_BYTE)"},
      {"finalize, location, comm_size, comm_split, comm_dup, iteration_in, iteration_out", "", "no cost"},
  };
  return docs;
}

// A key's names: its first word, and each word after one that ends in a comma.
const std::vector<std::string>& ti_action_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const core::KeyDoc& d : ti_trace_actions()) {
      size_t at = 0;
      for (bool more = true; more && at < d.key.size();) {
        const size_t end = std::min(d.key.find(' ', at), d.key.size());
        std::string word = d.key.substr(at, end - at);
        more = !word.empty() && word.back() == ',';
        if (more) word.pop_back();
        v.push_back(word);
        at = end + 1;
      }
    }
    return v;
  }();
  return names;
}

}  // namespace t3sim::io
