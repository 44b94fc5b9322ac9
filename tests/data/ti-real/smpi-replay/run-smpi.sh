#!/bin/bash
# run-smpi.sh MASTER NP OPTS [PLATFORM] -- replay a TI trace with SimGrid 3.32's SMPI on the T3E-900 mirror.
# REPLAY (env) is SimGrid's examples/smpi/replay/replay.cpp built with smpicxx -std=c++17 (not kept here).
# Run from anywhere: the master's relative paths are resolved from its own folder.
# Prints SMPI's "Simulation time" (seconds).
here=$(cd "$(dirname "$0")" && pwd)
master=$(readlink -f "$1"); np=$2; opts=$(readlink -f "$3"); platform=$(readlink -f "${4:-$here/t3e-900-mcurie-smpi.xml}")
cd "$(dirname "$master")"
nice -n 10 smpirun -np "$np" -platform "$platform" -hostfile "$here/hostfile-532" -replay "$(basename "$master")" \
  "${REPLAY:-./replay}" $(cat "$opts") --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
  grep -o "Simulation time [0-9.e+-]*\|CRITICAL\].*" | tail -1
