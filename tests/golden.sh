#!/usr/bin/env bash
# Golden-output test driver, in the manner of SimGrid's tesh and ns-3's `test.py --update`.
#
#   golden.sh --scratch DIR [--stdout GOLDEN [--digest N]] [[--drop-csv-columns A,B] --file PRODUCED GOLDEN]...
#             [--exit CODE] -- COMMAND [ARG]...
#
# Empties DIR, runs COMMAND in the current directory (ctest runs it from the source tree's root with
# paths relative to it, so no absolute path lands in an output; @SCRATCH@ in an argument becomes DIR),
# then compares byte for byte, against files under tests/golden/ (GOLDEN is relative to it):
#   --stdout GOLDEN       what COMMAND printed on stdout;
#   --digest N            ... stored as its line count, its sha256 and its first N lines (dumps too large
#                         to commit whole);
#   --file PRODUCED GOLDEN  a file COMMAND wrote, PRODUCED relative to DIR;
#   --drop-csv-columns A,B  the next --file is a CSV compared without these columns (named in its
#                         header; for columns that change from run to run, such as wall times).
# COMMAND must exit with CODE (default 0). On a mismatch prints `diff -u` (first 60 lines) and fails.
# With T3SIM_UPDATE_GOLDEN=1 in the environment it rewrites the stored files instead and passes: run
# `T3SIM_UPDATE_GOLDEN=1 ctest --test-dir build -L golden` after an intended change, then review
# `git diff tests/golden`.
set -euo pipefail

golden_root="$(cd "$(dirname "$0")" && pwd)/golden"
scratch="" stdout_golden="" digest=0 expected_exit=0 drop=""
produced=() goldens=() drops=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --scratch) scratch="$2"; shift 2 ;;
    --stdout) stdout_golden="$2"; shift 2 ;;
    --digest) digest="$2"; shift 2 ;;
    --drop-csv-columns) drop="$2"; shift 2 ;;
    --file) produced+=("$2"); goldens+=("$3"); drops+=("$drop"); drop=""; shift 3 ;;
    --exit) expected_exit="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "golden.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z "$scratch" || $# -eq 0 ]]; then
  echo "golden.sh: needs --scratch DIR and -- COMMAND" >&2
  exit 2
fi

rm -rf "$scratch"
mkdir -p "$scratch"
args=()
for a in "$@"; do args+=("${a//@SCRATCH@/$scratch}"); done

set +e
"${args[@]}" > "$scratch/stdout" 2> "$scratch/stderr"
code=$?
set -e
if [[ $code -ne $expected_exit ]]; then
  echo "golden.sh: command exited with $code, expected $expected_exit: $*" >&2
  tail -n 30 "$scratch/stderr" >&2
  exit 1
fi

# The text stored for the command's stdout: as printed, or its digest.
if [[ -n "$stdout_golden" ]]; then
  actual="$scratch/stdout"
  if [[ $digest -gt 0 ]]; then
    actual="$scratch/stdout.digest"
    {
      echo "# Digest of the output of: t3sim ${*:2}"
      echo "# (line count, sha256 of the whole output, its first $digest lines). To see a full diff, run"
      echo "# that command with the previous binary and with this one, and diff -u the two outputs."
      echo "lines $(wc -l < "$scratch/stdout")"
      echo "sha256 $(sha256sum < "$scratch/stdout" | cut -d' ' -f1)"
      head -n "$digest" "$scratch/stdout"
    } > "$actual"
  fi
  produced=("$actual" "${produced[@]}")
  goldens=("$stdout_golden" "${goldens[@]}")
  drops=("" "${drops[@]}")
fi

# A CSV without the named columns (by header name; fields hold no quoted commas).
drop_columns() {
  awk -F, -v drop="$2" 'BEGIN { OFS = ","; n = split(drop, d, ","); for (i = 1; i <= n; i++) gone[d[i]] = 1 }
    NR == 1 { for (i = 1; i <= NF; i++) if ($i in gone) { skip[i] = 1; found++ }
              if (found != n) { print "golden.sh: a column of " drop " is missing" > "/dev/stderr"; exit 1 } }
    { line = ""; sep = ""; for (i = 1; i <= NF; i++) if (!(i in skip)) { line = line sep $i; sep = OFS }; print line }' "$1"
}

failed=0
for i in "${!produced[@]}"; do
  file="${produced[$i]}"
  [[ "$file" == /* ]] || file="$scratch/$file"
  golden="$golden_root/${goldens[$i]}"
  if [[ ! -f "$file" ]]; then
    echo "golden.sh: the command wrote no ${produced[$i]}" >&2
    failed=1
    continue
  fi
  if [[ -n "${drops[$i]}" ]]; then
    drop_columns "$file" "${drops[$i]}" > "$file.kept"
    file="$file.kept"
  fi
  if grep -qF "$PWD/" "$file"; then
    echo "golden.sh: ${produced[$i]} holds the absolute path $PWD/: give the command relative paths" >&2
    failed=1
  elif [[ "${T3SIM_UPDATE_GOLDEN:-}" == 1 ]]; then
    mkdir -p "$(dirname "$golden")"
    cp "$file" "$golden"
    echo "updated tests/golden/${goldens[$i]}"
  elif [[ ! -f "$golden" ]]; then
    echo "golden.sh: no stored tests/golden/${goldens[$i]}; create it with T3SIM_UPDATE_GOLDEN=1" >&2
    failed=1
  elif ! cmp -s "$golden" "$file"; then
    echo "golden.sh: output differs from tests/golden/${goldens[$i]} (- stored, + now):" >&2
    diff -u "$golden" "$file" | head -n 60 >&2 || true
    echo "If the change is intended: T3SIM_UPDATE_GOLDEN=1 ctest --test-dir build -L golden, then review git diff" >&2
    failed=1
  fi
done
exit $failed
