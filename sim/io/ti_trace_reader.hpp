// Imports SimGrid's time-independent MPI traces (`smpirun -trace-ti`, SimGrid 3.32's replay format):
// either one file whose lines start with the rank, or a file listing one such file per rank (paths
// relative to it). Actions: init, finalize, send/isend/recv/irecv PARTNER TAG COUNT [TYPE],
// wait SRC DST TAG, waitall, test, barrier, bcast, reduce, allreduce, alltoall, gather, scatter,
// allgather, the v-forms (gatherv, allgatherv, scatterv, alltoallv), reducescatter, scan, exscan,
// sendRecv, compute FLOPS, sleep SECONDS (comm_size, comm_split, comm_dup and location are accepted and
// ignored, as SimGrid's replay does). Counts are in datatype units (MPI_BYTE unless
// `init` names a type, then MPI_DOUBLE, as SimGrid). Collectives expand as sim/core/collectives.hpp.
#pragma once
#include <string>

#include "sim/io/workload_loader.hpp"

namespace t3sim::io {

LoadedWorkload load_ti_trace(const std::string& path, double eager_threshold,
                             double max_operations = core::kMaxOperations);

// Bytes of SimGrid 3.32's datatype number `id` (the TYPE field); 0 when it names none.
double ti_datatype_bytes(int id);

}  // namespace t3sim::io
