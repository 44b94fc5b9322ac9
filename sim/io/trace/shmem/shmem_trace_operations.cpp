// The operations of the SHMEM trace format, documented: `t3sim describe trace` prints them and the
// reader takes its operation names (for "did you mean") from the same table.
#include "sim/io/trace/shmem/shmem_trace_reader.hpp"

namespace t3sim::io {

const std::vector<core::KeyDoc>& shmem_trace_operations() {
  static const std::vector<core::KeyDoc> docs = {
      {"put PE SIZE", "[signal FLAG [order fence|quiet]]",
       "shmem_put; returns once issued (quiet awaits delivery); signal: then shmem_fence (or shmem_quiet) and a "
       "flag put of PE's FLAG, which rises once the data has landed; each call pays its cost"},
      {"signal PE FLAG", "", "a flag put alone: one 64-bit word into PE's FLAG, raised when it lands"},
      {"get PE SIZE", "", "shmem_get; blocks until the data has arrived"},
      {"iput PE COUNT ELEMENT", "[signal FLAG [order fence|quiet]]",
       "strided put of COUNT elements, each moved as whole 64-bit words"},
      {"iget PE COUNT ELEMENT", "", "strided get of COUNT elements, each moved as whole 64-bit words"},
      {"swap PE", "", "atomic swap on PE's memory: a round trip like an 8-byte get"},
      {"cswap PE", "", "atomic compare-and-swap (as swap)"},
      {"fadd PE", "", "atomic fetch-and-add (as swap)"},
      {"finc PE", "", "atomic fetch-and-increment (as swap)"},
      {"quiet", "", "sync_overhead, then wait until this PE's puts are delivered"},
      {"fence", "", "on its own line modelled as quiet (t3sim keeps no order across later puts otherwise)"},
      {"barrier", "", "every PE of the trace (hardware barrier)"},
      {"wait FLAG", "", "shmem_wait_until on this PE's FLAG, then reset it (flags count signals)"},
      {"compute TIME | N flops", "", "computation: a time, or flops at the node's peak rate"},
      {"send PE SIZE", "[tag T]", "blocking send of the message layer (eager or rendezvous by size)"},
      {"recv PE SIZE", "[tag T]", "blocking receive; PE may be 'any' and T 'any' (wildcards)"},
      {"isend PE SIZE", "[tag T]", "non-blocking send, completed by waitall"},
      {"irecv PE SIZE", "[tag T]", "non-blocking receive, done at waitall"},
      {"waitall", "", "complete every pending isend and irecv"},
      {"bcast SIZE", "[root R]", "binomial-tree broadcast"},
      {"reduce SIZE", "[flops F] [root R]", "binomial-tree reduction, F flops per combine"},
      {"allreduce SIZE", "[flops F]", "reduce to PE 0, then bcast"},
      {"alltoall SIZE", "", "pairwise exchange of SIZE per pair"},
      {"gather SIZE", "[root R]", "linear gather of SIZE per PE"},
      {"scatter SIZE", "[root R]", "linear scatter of SIZE per PE"},
      {"allgather SIZE", "", "ring allgather of SIZE per PE"},
      {"repeat N", "", "the lines up to the matching end, N times"},
      {"end", "", "closes a repeat"},
  };
  return docs;
}

const std::vector<std::string>& shmem_trace_operation_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& d : shmem_trace_operations()) v.push_back(d.key.substr(0, d.key.find(' ')));
    return v;
  }();
  return names;
}

}  // namespace t3sim::io
