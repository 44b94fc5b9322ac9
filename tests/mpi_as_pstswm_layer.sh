#!/bin/sh
# Writes to stdout the machine file $1 with its MPI costs set to those of PSTSWM's message layer:
# mpi_send_overhead = the file's (calibrated) message_overhead, no receive cost, no MPI rate, no
# message queues (every message by rendezvous, whatever its size). Under it the message layer's
# rendezvous is PSTSWM's nonblocking_receive swap operation for operation (the regression test
# trace.equals_workload.pstswm_swap); the value is read, never copied, so a re-calibration keeps the
# test true. The ranges of `uncertainty:` (the file's last section) are dropped:
# they hold the MPI values, not PSTSWM's.
set -eu
overhead=$(sed -n 's/^ *message_overhead: *//p' "$1" | head -n 1)  # the profile's (its packet_driver's comes after)
[ -n "$overhead" ] || { echo "$1: no message_overhead" >&2; exit 1; }
sed -e "s|^\( *\)mpi_send_overhead: [^{].*|\1mpi_send_overhead: $overhead|" \
    -e "s|^\( *\)mpi_recv_overhead: [^{].*|\1mpi_recv_overhead: 0us|" \
    -e "s|^\( *\)mpi_bandwidth: [^{].*|\1mpi_bandwidth: 0B/s|" \
    -e "s|^\( *\)mpi_queue_bytes: [^{].*|\1mpi_queue_bytes: 0B|" \
    -e '/^uncertainty:/,$d' "$1"  # the ranges (the file's last section) are around the MPI values
