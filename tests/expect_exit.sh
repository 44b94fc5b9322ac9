#!/usr/bin/env bash
# expect_exit.sh CODE REGEX COMMAND...: runs COMMAND, passes when it exits with CODE and its combined
# output matches the extended regular expression REGEX, taken as one pattern over the whole output (a
# newline in REGEX matches a newline; grep would have read each line of REGEX as a pattern of its own
# and passed when any one matched). ^ and $ anchor at the start and end of the output.
expected=$1
regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -ne "$expected" ]; then
  printf 'expected exit %s, got %s; output:\n%s\n' "$expected" "$rc" "$out"
  exit 1
fi
if ! [[ $out =~ $regex ]]; then
  printf 'output does not match /%s/:\n%s\n' "$regex" "$out"
  exit 1
fi
exit 0
