#!/bin/bash
# run-t3sim.sh MASTER_OR_TRACE [--param ...] -- replay with t3sim on platforms/t3e-900-mcurie.yaml, print the makespan.
# One-file masters were split first with split-ti-one-file.py (the binary used, a copy of build/t3sim of
# 2026-12-02, refuses a one-file master: "rank: this file is rank 0's ... (got 1)").
T3SIM=${T3SIM:-/tmp/xc-t3sim}; M=${MACHINE:-$(dirname "$0")/../../../../platforms/t3e-900-mcurie.yaml}
tr=$1; shift
nice -n 10 "$T3SIM" run --machine "$M" --trace "$tr" "$@" 2>&1 | grep -o "makespan [0-9.]* us\|^error.*" | head -1
