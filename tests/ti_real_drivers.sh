#!/usr/bin/env bash
# ti_real_drivers.sh T3SIM MACHINE CORPUS_DIR: replays every trace of the real TI corpus with the fast
# driver (t3sim's solver) and the reference driver (SimGrid's comms and solver) and fails unless their
# makespans agree within 1e-9 relative (the non-chaotic bound of `t3sim bench`): the importer's
# operations mean the same to both transports.
set -euo pipefail
t3sim=$1 machine=$2 corpus=$3
makespan() { "$t3sim" run --machine "$machine" --trace "$1" --driver "$2" --summary 2>/dev/null |
  sed -n 's/.*"makespan_s": *\([-0-9.eE+]*\).*/\1/p' | head -1; }
n=0
for dir in "$corpus"/*/; do
  name=$(basename "$dir")
  trace=$dir$name.txt
  [ -f "$trace" ] || continue
  fast=$(makespan "$trace" fast)
  reference=$(makespan "$trace" reference)
  if [ -z "$fast" ] || [ -z "$reference" ]; then echo "$name: no makespan (fast '$fast', reference '$reference')"; exit 1; fi
  if ! awk -v a="$fast" -v b="$reference" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b) }'; then
    echo "$name: fast $fast s, reference $reference s: more than 1e-9 apart"
    exit 1
  fi
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no trace in $corpus"; exit 1; }
echo "$n traces: fast and reference makespans within 1e-9"
