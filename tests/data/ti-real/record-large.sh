#!/bin/bash
# Records the large TI trace of the streamed-replay measurement (workloads/README.md, "Streamed
# replay") and measures a replay of it streamed and expanded whole. Not run by CI (53 MB, ~30 s to
# record, ~35 s to replay both ways).
#
#   record-large.sh T3SIM LULESH_SRC OUT_DIR
#
# LULESH_SRC: the sources of LLNL/LULESH @ 3e01c40b3281aadb7f996525cdd4a3354f6d3801 (unmodified).
# Needs Debian's simgrid (smpicxx, smpirun) and /usr/bin/time.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { sed -n 2,9p "$0"; exit 2; }
T3SIM=$(realpath "$1") SRC=$(realpath "$2") OUT=$3
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
(cd "$SRC" && smpicxx -O1 -DUSE_MPI=1 -DUSE_OMP=0 lulesh.cc lulesh-comm.cc lulesh-viz.cc lulesh-util.cc \
  lulesh-init.cc -o "$OUT/lulesh2.0") 2>/dev/null
rm -rf "$OUT/lulesh-64.txt" "$OUT/lulesh-64.txt_files"
(cd "$OUT" && nice -n 10 smpirun -np 64 -platform "$HERE/platform-t3e-like.xml" -hostfile "$HERE/hostfile-64" \
  -trace-ti --cfg=tracing/filename:lulesh-64.txt --cfg=tracing/smpi/format/ti-one-file:yes \
  --cfg=smpi/display-timing:yes --cfg=smpi/host-speed:1Gf "$OUT/lulesh2.0" -s 3 -i 275 -q) > "$OUT/smpirun.log" 2>&1
grep -o 'Simulated time: [0-9.e+-]* seconds' "$OUT/smpirun.log"
du -b "$OUT"/lulesh-64.txt_files/*
MACHINE=$HERE/../../../platforms/t3e-900-mcurie.yaml
for mode in streamed --expand-whole; do
  flag=$([ "$mode" = streamed ] && echo "" || echo "$mode")
  echo "== $mode"
  # shellcheck disable=SC2086
  /usr/bin/time -f "peak RSS %M KB, %e s" "$T3SIM" run --machine "$MACHINE" --trace "$OUT/lulesh-64.txt" $flag \
    --summary 2>&1 | grep -E 'peak RSS|replayed [0-9]|makespan_s' | sed 's/,"sizes".*//'
done
