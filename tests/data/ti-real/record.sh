#!/bin/bash
# Re-records the TI trace corpus of this folder with SimGrid 3.32's smpirun (Debian package simgrid).
#
#   record.sh BIN_DIR [NAME...]
#
# BIN_DIR holds the third-party MPI programs, already built with SimGrid 3.32's smpicc from the
# unmodified sources named below (this project keeps neither those sources nor a recipe to build
# them; see README.md for where each comes from). This script builds only our own programs of
# src/ (into BIN_DIR) and then records every trace, or only the NAMEs given, into this folder
# (OUT_DIR=... to record elsewhere). smpirun's output goes to $LOG_DIR/NAME.log (default
# /tmp/ti-real-logs); its "Simulated time" line is what each trace's README quotes.
# Compute actions are SMPI's benchmarked CPU bursts (smpi/host-speed:1Gf converts the measured
# seconds into flops), so a re-recording reproduces every communication line but not the compute
# amounts, nor the time stamp in the per-rank file's name. Not run by CI.
#
# BIN_DIR entries (source repository @ commit : path):
#   nas-is nas-ep nas-dt     simgrid/simgrid @ e8d2ff8dab0cbf7a280fabcb27900c30ff6bb4fe (tag v3.32) : examples/smpi/NAS/{is,ep,dt}.c (+ nas_common.c, DGraph.c)
#   lulesh2.0                LLNL/LULESH @ 3e01c40b3281aadb7f996525cdd4a3354f6d3801 : lulesh*.cc (MPI, no OpenMP)
#   prk-transpose prk-p2p prk-pic prk-dgemm
#                            ParRes/Kernels @ 04248b66a03d7f5edba8d54c9ae7834dd718027a : MPI1/{Transpose/transpose,Synch_p2p/p2p,PIC-static/pic,DGEMM/dgemm}.c
#   mpich-DIR-TEST           simgrid/simgrid @ v3.32 : teshsuite/smpi/mpich3-test/DIR/TEST.c (+ util/*.c), MPICH's test suite as SimGrid ships it
#   sg-io-TEST               simgrid/simgrid @ v3.32 : teshsuite/smpi/TEST/TEST.c
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n 2,12p "$0"; exit 2; }
BIN=$(cd "$1" && pwd); shift
OUT_DIR=${OUT_DIR:-$HERE}
LOG_DIR=${LOG_DIR:-/tmp/ti-real-logs}
mkdir -p "$LOG_DIR"
WANT=" $* "

# Our own programs (their sources are in src/).
smpicc -O1 -Wall -o "$BIN/ti_cover" "$HERE/src/ti_cover.c"
smpicc -O1 -Wall -trace-call-location -o "$BIN/ti_cover_loc" "$HERE/src/ti_cover.c"
smpicc -O1 -Wall -o "$BIN/ti_ampi" "$HERE/src/ti_ampi.c"

# record NAME NP PLATFORM HOSTFILE [--cfg=...]... -- PROGRAM [ARG...]
record() {
  local name=$1 np=$2 platform=$3 hostfile=$4
  shift 4
  local cfgs=()
  while [ "$1" != "--" ]; do cfgs+=("$1"); shift; done
  shift
  local prog=$1; shift
  if [ "$WANT" != "  " ] && [[ "$WANT" != *" $name "* ]]; then return 0; fi
  rm -rf "${OUT_DIR:?}/$name/$name.txt" "${OUT_DIR:?}/$name/$name.txt_files"
  mkdir -p "$OUT_DIR/$name"
  local rc=0
  # tracing/filename is relative, so the master file lists its per-rank file(s) relative to itself.
  (cd "$OUT_DIR/$name" && nice -n 10 smpirun -np "$np" -platform "$HERE/$platform" -hostfile "$HERE/$hostfile" \
     -trace-ti --cfg=tracing/filename:"$name.txt" \
     --cfg=smpi/display-timing:yes --cfg=smpi/host-speed:1Gf "${cfgs[@]}" \
     "$BIN/$prog" "$@") > "$LOG_DIR/$name.log" 2>&1 || rc=$?
  echo "$name: exit $rc, $(grep -o 'Simulated time: [0-9.e+-]* seconds' "$LOG_DIR/$name.log" || echo 'no simulated time')"
}

ONE=--cfg=tracing/smpi/format/ti-one-file:yes
T3E="platform-t3e-like.xml hostfile-64"
IO="platform-t3e-io.xml hostfile-io-4"

record nas-is-S-8            8 $T3E $ONE -- nas-is 8 S
record nas-is-S-4-multifile  4 $T3E      -- nas-is 4 S
record nas-ep-S-8            8 $T3E $ONE -- nas-ep 8 S
record nas-dt-S-WH-12       12 $T3E $ONE -- nas-dt 12 S WH     # exits 1 by design (dt.c returns 1)
record lulesh-8              8 $T3E $ONE -- lulesh2.0 -s 6 -i 10 -q
record prk-transpose-16     16 $T3E $ONE -- prk-transpose 5 256 32
record prk-p2p-16           16 $T3E $ONE -- prk-p2p 2 256 64
record prk-pic-16           16 $T3E $ONE -- prk-pic 10 100 1000 1 0 SINUSOIDAL
record prk-dgemm-16         16 $T3E $ONE -- prk-dgemm 3 128 32 0
for t in coll-nonblocking coll-redscat coll-red_scat_block coll-scantst coll-exscan coll-alltoallw1 \
         coll-scatterv coll-allgatherv2 coll-gather pt2pt-anyall pt2pt-bsendfrag pt2pt-inactivereq \
         pt2pt-rqfreeb rma-test1 rma-test2 rma-compare_and_swap rma-flush rma-req_example \
         rma-racc_local_comp rma-rget-testall; do
  record mpich-$t-4          4 $T3E $ONE -- mpich-$t
done
for t in io-simple io-all io-shared io-ordered io-all-at; do
  record sg-$t-4             4 $IO  $ONE -- sg-$t
done
record ti-cover-8            8 $T3E $ONE --cfg=tracing/smpi/sleeping:yes -- ti_cover
record ti-cover-location-4   4 $T3E $ONE --cfg=smpi/trace-call-location:yes -- ti_cover_loc small
record ti-ampi-4             4 $T3E $ONE -- ti_ampi
