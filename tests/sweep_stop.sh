#!/usr/bin/env bash
# sweep_stop.sh T3SIM SPEC OUT: a sweep's running point dies with the sweep, even when the sweep is
# killed with SIGKILL (no chance to clean up: PR_SET_PDEATHSIG); a sweep stopped by SIGTERM or SIGINT
# kills its point, exits 128 + the signal and prints the command that resumes it, which parses as the
# same study in the same folder. SPEC's points run for minutes: each check takes a fraction of a second.
set -u
bin=$1 spec=$2 out=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
# The point the sweep $1 runs, once it has started (its only child).
child_of() {
  local c=""
  for _ in $(seq 1 500); do
    c=$(pgrep -P "$1" | head -1)
    [ -n "$c" ] && { echo "$c"; return; }
    sleep 0.01
  done
}
# Gone: no such process, or a zombie (dead, waiting for whoever adopted it to reap it: under load that
# can take longer than a second, and kill -0 still answers for a zombie).
gone() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
  [ -z "$state" ] || [ "$state" = Z ] || [ "$state" = X ]
}
gone_within_a_second() {
  for _ in $(seq 1 100); do
    gone "$1" && return 0
    sleep 0.01
  done
  return 1
}
for sig in KILL TERM INT; do
  dir=$out/$sig
  "$bin" sweep "$spec" --out "$dir" --driver packet >"$out/$sig.out" 2>"$out/$sig.err" &
  sweep=$!
  point=$(child_of $sweep)
  [ -n "$point" ] || fail "$sig: the sweep started no point"
  sleep 0.2
  kill -$sig $sweep
  wait $sweep 2>/dev/null
  rc=$?
  gone_within_a_second "$point" || { kill -KILL "$point"; fail "$sig: the point $point outlived the sweep"; }
  [ $sig = KILL ] && continue
  code=$((128 + $(kill -l $sig)))
  [ $rc -eq $code ] || fail "$sig: exit $rc, not $code: $(cat "$out/$sig.err")"
  resume=$(grep -A1 "^sweep slow: interrupted by SIG$sig with 0 of 2 points done; resume with:$" "$out/$sig.err" | tail -1)
  [ "$resume" = "  $bin sweep $spec --out $dir --driver packet" ] || fail "$sig: resume command: $(cat "$out/$sig.err")"
  listed=$(eval "$resume --list") || fail "$sig: the resume command does not parse: $resume"
  [[ $listed == *"sweep slow: 2 points"* ]] || fail "$sig: the resume command lists $listed"
done
echo "the point died with the sweep on SIGKILL, SIGTERM and SIGINT; SIGTERM and SIGINT printed the resuming command"
