#!/usr/bin/env bash
# ti_real_streamed.sh T3SIM MACHINE CORPUS_DIR: replays every trace of the real TI corpus streamed (the
# default: operations made as the run reaches them) and expanded whole (--expand-whole) and fails unless
# the makespans are the same to the last digit printed and the same number of operations was replayed:
# the streamed replay runs the very operations of the whole expansion, in the same order.
set -euo pipefail
t3sim=$1 machine=$2 corpus=$3
run() {  # prints "MAKESPAN OPERATIONS"
  local err
  err=$(mktemp)
  local makespan
  makespan=$("$t3sim" run --machine "$machine" --trace "$1" "${@:2}" --summary 2>"$err" |
    sed -n 's/.*"makespan_s": *\([-0-9.eE+]*\).*/\1/p' | head -1)
  echo "$makespan $(sed -n 's/.*replayed \([0-9]*\) operations.*/\1/p' "$err")"
  rm -f "$err"
}
n=0
for dir in "$corpus"/*/; do
  name=$(basename "$dir")
  trace=$dir$name.txt
  [ -f "$trace" ] || continue
  streamed=$(run "$trace")
  whole=$(run "$trace" --expand-whole)
  if [ "$streamed" != "$whole" ] || [ "$streamed" = " " ]; then
    echo "$name: streamed '$streamed', whole '$whole' (makespan s, operations)"
    exit 1
  fi
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no trace in $corpus"; exit 1; }
echo "$n traces: streamed and whole replays give the same makespan and operations"
