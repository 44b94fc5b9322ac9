#!/usr/bin/env bash
# report_in_browser.sh T3SIM SWEEP_SPEC OUT [SECOND_SPEC [AXES_SPEC [PLACEMENTS_SPEC]]]: the reports as a person opens them, in a real browser
# (Debian's chromium, headless). Writes the default study's report (sweep --report) and the validation's
# (validate --report; the Cray suites: the BookSim one is 2 minutes of its own), loads each page in Chromium and checks, from the page's DOM after load:
#   - no script error and no console error (the page records both in <body data-check>), and no
#     uncaught error in Chromium's own log;
#   - every plot drew every series it should (the plot groups with ink equal the expected series);
#   - every plot has a size on the page; the results table has one row per point of sweep.csv and the
#     validation table one per case of validation.json;
#   - the page asks for nothing over the network.
# SECOND_SPEC: a study of several machines, whose page adds the by-machine plot; checked the same way.
# AXES_SPEC: a study with axes and a `plot:`, whose page shows the study's own figure instead.
# PLACEMENTS_SPEC: a study of two placements on a narrow torus: a line per placement, named, in the page's
# plots and the standalone SVGs; whole-number ticks on the heat map.
# The validation page's parity axes say the cases' units (the XT3's: s) with several ticks on a narrow
# log range, and its rate axes binary sizes.
# Keeps a screenshot of each page (OUT/*.png). Exit 77 (ctest: skipped) with the reason when Chromium is
# missing, unless CI=true: then 1.
set -u
bin=$1 spec=$2 out=$3 second=${4:-} axes=${5:-} placements=${6:-}
fail() { echo "FAIL: $*"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "no Chromium here (apt-get install chromium)"
  [ "${CI:-}" = true ] && fail "CI must run the browser test"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out"
"$bin" sweep "$spec" --out "$out/study" --report >"$out/sweep.log" 2>&1 || fail "sweep --report failed: $(tail -3 "$out/sweep.log")"
"$bin" validate --suite t3d-shmem-get,t3e-pstswm-swap,xt3-pmemd-iobuf --report "$out/validation" >"$out/validate.log" 2>&1 || fail "validate --report failed: $(tail -3 "$out/validate.log")"

check_page() {  # PAGE TABLE_ID ROWS NAME
  local page=$1 table=$2 rows=$3 name=$4
  [ -s "$page" ] || fail "$page was not written"
  if grep -Eq '(src|href)="(https?:)?//' "$page"; then fail "$page loads something over the network"; fi
  local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0)
  "$browser" "${flags[@]}" --dump-dom "file://$page" >"$out/$name.dom.html" 2>"$out/$name.chromium.log" ||
    fail "chromium could not load $page: $(tail -3 "$out/$name.chromium.log")"
  if grep -q "Uncaught" "$out/$name.chromium.log"; then fail "$name: $(grep Uncaught "$out/$name.chromium.log")"; fi
  "$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$out/$name.png" "file://$page" >/dev/null 2>&1 ||
    fail "no screenshot of $page"
  [ -s "$out/$name.png" ] || fail "empty screenshot of $page"
  python3 - "$out/$name.dom.html" "$table" "$rows" "$name" <<'PY' || exit 1
import html, json, re, sys
dom, table, rows, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
m = re.search(r'data-check="([^"]*)"', open(dom, encoding="utf-8").read())
if not m:
    sys.exit(f"FAIL: {name}: the page's self-check did not run (no data-check on <body>)")
check = json.loads(html.unescape(m.group(1)))
problems = []
if check["errors"]:
    problems.append(f"script or console errors: {check['errors']}")
if not check["figures"]:
    problems.append("no figure on the page")
for f in check["figures"]:
    if f["drawn"] != f["expected"]:
        problems.append(f"figure {f['id']}: expected series {f['expected']}, drawn {f['drawn']}")
    if f["width"] < 300 or f["height"] < 200:
        problems.append(f"figure {f['id']} is {f['width']}x{f['height']} px on the page")
found = {t["id"]: t["rows"] for t in check["tables"]}
if found.get(table) != rows:
    problems.append(f"table {table} has {found.get(table)} rows, expected {rows}")
if problems:
    sys.exit(f"FAIL: {name}: " + "; ".join(problems))
print(f"ok: {name}: {len(check['figures'])} plots with all their series, table {table} with {rows} rows, no errors")
PY
}

points=$(($(wc -l <"$out/study/sweep.csv") - 1))
check_page "$(cd "$out/study" && pwd)/report.html" results "$points" study
cases=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cases']))" "$out/validation/validation.json")
check_page "$(cd "$out/validation" && pwd)/report.html" cases "$cases" validation
if [ -n "$second" ]; then
  "$bin" sweep "$second" --out "$out/second" --report >"$out/second.log" 2>&1 || fail "sweep --report of $second failed: $(tail -3 "$out/second.log")"
  grep -q 'pe-bandwidth-by-machine\|by machine' "$out/second/report.html" || fail "$second: no by-machine plot on its page"
  check_page "$(cd "$out/second" && pwd)/report.html" results "$(($(wc -l <"$out/second/sweep.csv") - 1))" second
fi
if [ -n "$axes" ]; then
  "$bin" sweep "$axes" --out "$out/axes" --report >"$out/axes.log" 2>&1 || fail "sweep --report of $axes failed: $(tail -3 "$out/axes.log")"
  grep -q 'id="study-1"' "$out/axes/report.html" || fail "$axes: no study figure on its page"
  check_page "$(cd "$out/axes" && pwd)/report.html" results "$(($(wc -l <"$out/axes/sweep.csv") - 1))" axes
fi
if [ -n "$placements" ]; then
  "$bin" sweep "$placements" --out "$out/placements" --report >"$out/placements.log" 2>&1 ||
    fail "sweep --report of $placements failed: $(tail -3 "$out/placements.log")"
  for f in "$out"/placements/pe-bandwidth-*B.svg "$out"/placements/report-files/pe-bandwidth-*B.svg; do
    grep -q "placement contiguous" "$f" && grep -q "placement random:7" "$f" || fail "$f: not a line per placement"
  done
  python3 - "$out/placements/report-files/busiest-point.links.svg" <<'PY' || exit 1
import re, sys
ticks = re.findall(r"<text[^>]*>\s*(-?[0-9.]+)\s*<", open(sys.argv[1], encoding="utf-8").read())
halves = [t for t in ticks if "." in t]
if not ticks or halves:
    sys.exit(f"FAIL: heat map of a narrow torus: tick labels {ticks}")
PY
  check_page "$(cd "$out/placements" && pwd)/report.html" results "$(($(wc -l <"$out/placements/sweep.csv") - 1))" placements
fi
v=$out/validation/report-files
grep -q "measured (s)" "$v/xt3-pmemd-iobuf-parity.svg" || fail "the XT3 parity axis does not say seconds"
if grep -q "us or MB/s" "$v"/*-parity.svg; then fail "a parity axis says 'us or MB/s'"; fi
python3 - "$v/xt3-pmemd-iobuf-parity.svg" "$v/t3d-shmem-get-rate.svg" <<'PY' || exit 1
import re, sys
parity = set(re.findall(r"<text[^>]*>\s*([0-9.]+)\s*<", open(sys.argv[1], encoding="utf-8").read()))
if len(parity) < 3:
    sys.exit(f"FAIL: the XT3 parity plot's log axes have the tick labels {sorted(parity)}")
rate = re.findall(r"<text[^>]*>\s*([0-9.]+ ?[kKMG]?i?B)\s*<", open(sys.argv[2], encoding="utf-8").read())
if not rate or any(not re.search(r" (B|KiB|MiB)$", t) for t in rate):
    sys.exit(f"FAIL: the T3D rate plot's size ticks {rate}")
PY
echo "ok: validation axes in the cases' units, several log ticks, binary size ticks"
