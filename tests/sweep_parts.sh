#!/usr/bin/env bash
# sweep_parts.sh T3SIM SPEC OUT: a study run as array tasks by hand (`sweep --points`, what each Slurm
# task runs), then `--collect`, gives the local sweep's sweep.csv byte for byte; a task that never ran
# leaves its points named as missing (exit 1), and they are found again once it has run. No Slurm needed.
set -u
bin=$1 spec=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
"$bin" sweep "$spec" --out "$out/local" >/dev/null 2>&1 || fail "the local sweep failed"
total=$(($(wc -l <"$out/local/sweep.csv") - 1))
[ "$total" -ge 4 ] || fail "the study needs at least 4 points, has $total"
last=$((total - 1))
"$bin" sweep "$spec" --out "$out/tasks" --points "0..1" >/dev/null 2>&1 || fail "task 0..1 failed"
[ -s "$out/tasks/parts/points-0..1.csv" ] || fail "task 0..1 wrote no part file: $(ls "$out/tasks/parts")"
[ -f "$out/tasks/sweep.csv" ] && fail "a task wrote sweep.csv (only --collect does)"
log=$("$bin" sweep "$spec" --out "$out/tasks" --collect 2>&1) && fail "--collect with points missing exited 0: $log"
grep -Eq "2 of $total points collected .*; $((total - 2)) missing \(2\.\.$last\), 0 of them failed" <<<"$log" ||
  fail "--collect did not name the missing points: $log"
grep -Eq "  point 2 missing \[no task\]: " <<<"$log" || fail "--collect did not list point 2: $log"
"$bin" sweep "$spec" --out "$out/tasks" --points "2..$last,0" >/dev/null 2>&1 || fail "task 2..$last failed"
log=$("$bin" sweep "$spec" --out "$out/tasks" --collect 2>&1) || fail "--collect of a complete study failed: $log"
grep -q "$total of $total points collected" <<<"$log" || fail "$log"
cmp "$out/local/sweep.csv" "$out/tasks/sweep.csv" || fail "collected sweep.csv differs from the local run's"
# a rerun task skips what is done anywhere in the folder
log=$("$bin" sweep "$spec" --out "$out/tasks" --points "0..$last" 2>&1) || fail "rerun task failed: $log"
grep -q "$total already done, 0 to run" <<<"$log" || fail "the rerun task did not skip the done points: $log"
# a task killed mid-write leaves a torn last line: the next task cuts it, and nothing is lost or glued
mkdir -p "$out/torn/parts" && printf '1' >"$out/torn/parts/points-0..$last.csv"
"$bin" sweep "$spec" --out "$out/torn" --points "0..$last" >/dev/null 2>&1 || fail "task after a torn line failed"
"$bin" sweep "$spec" --out "$out/torn" --collect >/dev/null 2>&1 || fail "--collect after a torn line is incomplete"
cmp "$out/local/sweep.csv" "$out/torn/sweep.csv" || fail "a torn part line changed the collected sweep.csv"
# the study grown by one job size renumbers its points: the rows done are found by id, keep their
# results under the new indices, and only the new points are missing; once run, the folder equals a
# fresh local run of the grown study
grown=$(dirname "$spec")/small_grown.yaml
"$bin" sweep "$grown" --out "$out/grown-local" >/dev/null 2>&1 || fail "local run of the grown study failed"
cp -r "$out/tasks" "$out/grown"
log=$("$bin" sweep "$grown" --out "$out/grown" --collect 2>&1) && fail "--collect of the grown study exited 0: $log"
grep -q "$total of $((total + 2)) points collected .*; 2 missing (0\.\.1)" <<<"$log" || fail "grown study: $log"
log=$("$bin" sweep "$grown" --out "$out/grown" --points "0..$((total + 1))" 2>&1) || fail "grown task failed: $log"
grep -q "$total already done, 2 to run" <<<"$log" || fail "the grown task reran done points: $log"
"$bin" sweep "$grown" --out "$out/grown" --collect >/dev/null 2>&1 || fail "grown study incomplete after its task"
cmp "$out/grown-local/sweep.csv" "$out/grown/sweep.csv" || fail "the grown study differs from its local run"
echo "ok: $total points through tasks and --collect, byte-identical to the local sweep; torn line and grown study too"
