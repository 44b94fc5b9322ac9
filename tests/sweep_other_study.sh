#!/usr/bin/env bash
# sweep_other_study.sh T3SIM SPEC_A SPEC_B DIR: a study's --out folder that holds another study's results
# is refused (exit 2, naming both: its rows of other points, and the study its manifest names), also
# without a manifest; the study itself resumes there; --force writes.
set -u
t3sim=$1 a=$2 b=$3 dir=$4
rm -rf "$dir"
fail() { echo "FAIL: $*"; exit 1; }
"$t3sim" sweep "$a" --out "$dir" >/dev/null 2>&1 || fail "first study did not run"
out=$("$t3sim" sweep "$b" --out "$dir" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "second study into the first's folder: exit $rc, not 2: $out"
[[ $out =~ holds\ [0-9]+\ rows\ of\ points\ that\ are\ not\ this\ study.s,\ e\.g\.\ .*\(of\ the\ study\ .*$(basename "$a")\),\ not\ $b:\ give\ another\ --out,\ or\ --force ]] || fail "message: $out"
rm "$dir/sweep-manifest.json"
out=$("$t3sim" sweep "$b" --out "$dir" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "without a manifest: exit $rc, not 2: $out"
[[ $out =~ holds\ [0-9]+\ rows\ of\ points\ that\ are\ not\ this\ study ]] || fail "message without manifest: $out"
"$t3sim" sweep "$a" --out "$dir" >/dev/null 2>&1 || fail "the first study no longer resumes in its own folder"
"$t3sim" sweep "$b" --out "$dir" --force >/dev/null 2>&1 || fail "--force did not write"
echo "other study refused (with and without its manifest); own study resumes; --force writes"
