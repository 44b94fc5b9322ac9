#!/usr/bin/env bash
# sweep_through_slurm.sh T3SIM SPEC OUT: the study SPEC through a real one-node Slurm started here
# (one_node_slurm.sh), against the local run of the same study:
#   1. `sweep --slurm --wait` (a job array, 2 tasks at a time) gives sweep.csv byte for byte;
#   2. a second --slurm refused while the study's tasks are queued; a job array with one task cancelled (`scancel JOB_TASK`) while pending: `--collect` exits 1 and
#      names exactly that task's points, `--resubmit --wait` runs only them, and the result is again
#      byte-identical.
# Exit 77 (ctest: skipped) with the reason when Slurm cannot start here, unless CI=true: then 1.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
spec=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
cluster=$(mktemp -d /tmp/t3sim-slurm.XXXXXX)
trap 'bash "$here/one_node_slurm.sh" stop "$cluster"; rm -rf "$cluster"' EXIT
# shellcheck source=one_node_slurm.sh
if ! reason=$(source "$here/one_node_slurm.sh" start "$cluster" 2>&1); then
  echo "Slurm cannot start here: $reason"
  [ "${CI:-}" = true ] && fail "CI must run the Slurm tests"
  exit 77
fi
export SLURM_CONF=$cluster/slurm.conf PATH=$PATH:/usr/sbin

start=$(date +%s%N)
"$bin" sweep "$spec" --out "$out/local" >/dev/null 2>&1 || fail "the local sweep failed"
local_s=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
points=$(($(wc -l <"$out/local/sweep.csv") - 1))

# 1. The whole study as a job array.
start=$(date +%s%N)
log=$("$bin" sweep "$spec" --out "$out/slurm" --slurm --points-per-task 6 --array-limit 2 --wait 2>&1) ||
  fail "sweep --slurm --wait failed: $log"
slurm_s=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
grep -q "submitted job array [0-9]* ($(((points + 5) / 6)) tasks, $points points" <<<"$log" || fail "no submission: $log"
grep -q "$points of $points points collected" <<<"$log" || fail "not every point collected: $log"
cmp "$out/local/sweep.csv" "$out/slurm/sweep.csv" || fail "sweep.csv through Slurm differs from the local run's"

# 2. One task lost: the last of 4 tasks, cancelled while the first still runs (1 task at a time).
per_task=$(((points + 3) / 4))
job=$("$bin" sweep "$spec" --out "$out/lost" --slurm --points-per-task "$per_task" --array-limit 1 2>/dev/null) ||
  fail "submission failed"
scancel "${job}_3" || fail "scancel ${job}_3 failed"
# a second --slurm while the first array is queued would compute every point twice: refused
log=$("$bin" sweep "$spec" --out "$out/lost" --slurm 2>&1) && fail "a second --slurm while tasks are queued was accepted: $log"
grep -q "not submitting: [0-9]* tasks of this study are still queued or running" <<<"$log" || fail "no refusal: $log"
log=$("$bin" sweep "$spec" --out "$out/lost" --collect --wait 2>&1) && fail "--collect with a lost task exited 0: $log"
first=$((3 * per_task)) last=$((points - 1))
grep -q "$((points - (last - first + 1))) of $points points collected .*; $((last - first + 1)) missing ($first\.\.$last), 0 of them failed" <<<"$log" ||
  fail "--collect did not name the lost task's points $first..$last: $log"
grep -q "  point $first missing \[task ${job}_3: " <<<"$log" || fail "--collect did not name task ${job}_3: $log"
log=$("$bin" sweep "$spec" --out "$out/lost" --resubmit --wait 2>&1) || fail "--resubmit --wait failed: $log"
grep -q "submitted job array [0-9]* (1 tasks, $((last - first + 1)) points" <<<"$log" ||
  fail "--resubmit did not submit only the missing points as one task: $log"
grep -q "$points of $points points collected" <<<"$log" || fail "resubmitted points not collected: $log"
cmp "$out/local/sweep.csv" "$out/lost/sweep.csv" || fail "sweep.csv after --resubmit differs from the local run's"
printf 'ok: %d points; local %s s, through Slurm %s s (%d tasks, 2 at a time); lost task %s_3 (%d points) found and rerun\n' \
  "$points" "$local_s" "$slurm_s" $(((points + 5) / 6)) "$job" "$((last - first + 1))"
