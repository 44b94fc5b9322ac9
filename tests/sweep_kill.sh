#!/usr/bin/env bash
# sweep_kill.sh T3SIM SPEC OUT: a sweep killed (SIGKILL, no chance to clean up) after its first point
# landed, then rerun into the same folder, ends with every point exactly once and byte-identical to an
# uninterrupted sweep.
set -u
bin=$1 spec=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$bin" sweep "$spec" --out "$out/full" >/dev/null 2>&1 || { echo "the uninterrupted sweep failed"; exit 1; }
total=$(($(wc -l <"$out/full/sweep.csv") - 1))
"$bin" sweep "$spec" --out "$out/killed" >/dev/null 2>&1 &
pid=$!
lines=0
for _ in $(seq 1 2000); do
  [ -f "$out/killed/sweep.csv" ] && lines=$(wc -l <"$out/killed/sweep.csv")
  [ "$lines" -ge 2 ] && break
  sleep 0.01
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
done_at_kill=$(($(wc -l <"$out/killed/sweep.csv") - 1))
if [ "$done_at_kill" -ge "$total" ]; then
  echo "the sweep finished before it could be killed ($done_at_kill of $total points)"
  exit 1
fi
# The killed sweep's running point died with it (PR_SET_PDEATHSIG; tests/sweep_stop.sh checks that).
log=$("$bin" sweep "$spec" --out "$out/killed" 2>&1) || { echo "the resumed sweep failed: $log"; exit 1; }
if ! grep -Eq "$total points, $done_at_kill already in" <<<"$log"; then
  echo "the resumed sweep did not skip the $done_at_kill finished points: $log"
  exit 1
fi
cmp "$out/full/sweep.csv" "$out/killed/sweep.csv" || { echo "the resumed sweep differs from the full one"; exit 1; }
echo "killed after $done_at_kill of $total points; resumed to the same bytes"
