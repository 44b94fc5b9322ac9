#!/usr/bin/env bash
# sweep_check.sh T3SIM SPEC DIR: `sweep --check F` runs a fixed-seed share of the points again under the
# packet driver and states how far the study's figures are from it. SPEC: a fast study of 4 points on a
# machine with ranges. Checks: the rows and the differences (recomputed here from both files), the band
# column, byte-identical reruns, resuming a check cut short, a smaller fraction checking a subset of a
# larger one's points, the report's section, and every refusal.
set -u
t3sim=$1 spec=$2 dir=$3
rm -rf "$dir"
fail() { echo "FAIL: $*"; exit 1; }

out=$("$t3sim" sweep "$spec" --out "$dir/a" --check 0.5 --uncertainty 4 --report 2>&1) || fail "sweep --check: $out"
[[ $out =~ checked\ 2\ points\ under\ --driver\ packet ]] || fail "summary: $out"
[[ $out =~ per-PE\ median\ MB/s\ +[-+][0-9.]+%\ at\ point ]] || fail "no largest difference of the per-PE median: $out"
[[ $out =~ inside\ the\ study.s\ 5-95%\ band\ at\ [0-9]\ of\ 2\ points ]] || fail "no band count: $out"
rows="$dir/a/check-packet.csv" diffs="$dir/a/check-packet-differences.csv"
[ "$(grep -c '|driver=packet$' "$rows")" -eq 2 ] || fail "check rows: $(cat "$rows")"
[ "$(tail -n +2 "$diffs" | wc -l)" -eq 2 ] || fail "differences: $(cat "$diffs")"
# Each difference is (study - check) / check of the two files' cells; the band cells are the study's.
while IFS=, read -r index ms msc msd med medc medd mn mnc mnd lo hi inside id; do
  srow=$(grep ",$id\$" "$dir/a/sweep.csv") || fail "no study row for $id"
  crow=$(grep ",$id|driver=packet\$" "$rows") || fail "no check row for $id"
  awk -F, -v s="$srow" -v c="$crow" -v msd="$msd" -v medd="$medd" -v lo="$lo" -v hi="$hi" -v inside="$inside" 'BEGIN {
    split(s, a, ","); split(c, b, ",")
    if ((a[7] - b[7]) / b[7] - msd > 1e-4 || (a[7] - b[7]) / b[7] - msd < -1e-4) { print "makespan"; exit 1 }
    if ((a[9] - b[9]) / b[9] - medd > 1e-4 || (a[9] - b[9]) / b[9] - medd < -1e-4) { print "median"; exit 1 }
    if (lo != a[19] + 0 || hi != a[20] + 0) { print "band"; exit 1 }
    if ((b[9] >= lo && b[9] <= hi) != (inside == "yes")) { print "inside"; exit 1 } }' || fail "point $index: $srow / $crow / $index,$msd,$medd,$lo,$hi,$inside"
done < <(tail -n +2 "$diffs")
grep -q "Checked under --driver packet" "$dir/a/report.html" || fail "report has no check section"

"$t3sim" sweep "$spec" --out "$dir/b" --check 0.5 --uncertainty 4 >/dev/null 2>&1 || fail "second sweep"
cmp -s "$rows" "$dir/b/check-packet.csv" && cmp -s "$diffs" "$dir/b/check-packet-differences.csv" ||
  fail "a rerun's check differs"
sed -i '$d' "$dir/b/check-packet.csv"
out=$("$t3sim" sweep "$spec" --out "$dir/b" --check 0.5 --uncertainty 4 2>&1) || fail "resumed check: $out"
[[ $out =~ checking\ 2\ of\ 4\ points\ under\ --driver\ packet,\ 1\ already ]] || fail "resume: $out"
cmp -s "$rows" "$dir/b/check-packet.csv" || fail "a resumed check's rows differ"

"$t3sim" sweep "$spec" --out "$dir/c" --check 0.25 >/dev/null 2>&1 || fail "sweep --check 0.25"
[ "$(grep -c '|driver=packet$' "$dir/c/check-packet.csv")" -eq 1 ] || fail "0.25 of 4 points is 1"
grep -qF "$(tail -n 1 "$dir/c/check-packet.csv" | sed 's/^[0-9]*,//')" "$rows" || fail "0.25's point is not one of 0.5's"

refused() {  # refused EXIT PATTERN ARGS...: the sweep exits EXIT and says PATTERN
  local code=$1 pattern=$2; shift 2
  out=$("$t3sim" sweep "$spec" --out "$dir/r" "$@" 2>&1); rc=$?
  [ $rc -eq "$code" ] && [[ $out =~ $pattern ]] || fail "$* -> exit $rc: $out"
}
refused 2 "--check: Value 0 not in range" --check 0
refused 2 "--check: Value 1.5 not in range" --check 1.5
refused 2 "--check-driver requires --check" --check-driver packet
refused 2 "--points excludes --check" --check 0.5 --points 0
refused 2 "(--slurm excludes --check|--check excludes --slurm)" --check 0.5 --slurm --dry-run
refused 2 "--check-driver: every point of .* already runs under --driver fast: there is nothing to check against it" \
  --check 0.5 --check-driver fast
[ ! -e "$dir/r" ] || fail "a refused sweep wrote $dir/r"
echo "check: rows, differences, bands, reruns, resume, subset, report, refusals"
