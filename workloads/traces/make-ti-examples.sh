#!/bin/sh
# Writes the SimGrid time-independent (TI) example traces of this folder: a ring and an all-to-all at
# 128 and 532 ranks, in the single-file form `smpirun -trace-ti` can produce (every line starts with
# its rank). Run from this folder; the outputs are committed, so this only documents how they were made.
set -eu
ring() {  # ranks bytes: every rank computes, sends to its right neighbour and receives from its left
  awk -v n="$1" -v b="$2" 'BEGIN {
    print "# A ring in SimGrid'"'"'s time-independent trace format: " n " ranks, " b " bytes per message."
    print "# Written by make-ti-examples.sh for t3sim (not recorded from a real run)."
    for (r = 0; r < n; r++) {
      right = (r + 1) % n; left = (r + n - 1) % n
      print r " init"
      print r " compute 1000000"
      print r " isend " right " 0 " b
      print r " recv " left " 0 " b
      print r " wait " r " " right " 0"
      print r " barrier"
      print r " finalize"
    }
  }'
}
alltoall() {  # ranks bytes: every rank sends `bytes` to every other, then an allreduce of 8 doubles
  awk -v n="$1" -v b="$2" 'BEGIN {
    print "# An all-to-all in SimGrid'"'"'s time-independent trace format: " n " ranks, " b " bytes per pair."
    print "# Written by make-ti-examples.sh for t3sim (not recorded from a real run)."
    for (r = 0; r < n; r++) {
      print r " init"
      print r " alltoall " b " " b
      print r " allreduce 8 16 0"
      print r " finalize"
    }
  }'
}
ring 128 65536 > ti-ring-128.txt
ring 532 65536 > ti-ring-532.txt
alltoall 128 8192 > ti-alltoall-128.txt
alltoall 532 8192 > ti-alltoall-532.txt
