#!/usr/bin/env bash
# sweep_axes.sh T3SIM SPEC OUT: a study with axes (data/sweep/axes.yaml) end to end.
#   - sweep.csv has the axes' columns (main_job_end_us, then one per axis, then id) and a row per point;
#   - each row's run is what its labels say: a quiet point's main job ends with the run, a busy one's
#     writers run on past it; iobuf is faster than none under the background and not slower when
#     quiet; one I/O node in service is slower than two under the background; 8 PEs faster than 4
#     (the workload's compute is sized for 4 PEs and divided);
#   - the study's figure is drawn (when gnuplot is here);
#   - a second run into another folder, and the study run as two array tasks and collected, write the
#     same bytes.
set -eu
bin=$1 spec=$2 out=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
"$bin" sweep "$spec" --out "$out/a" >"$out/a.log" 2>&1 || fail "sweep failed: $(tail -3 "$out/a.log")"
csv=$out/a/sweep.csv
head -1 "$csv" | grep -q ',main_job_end_us,buffering,io_nodes,background,id$' || fail "header: $(head -1 "$csv")"
[ "$(($(wc -l <"$csv") - 1))" -eq 16 ] || fail "expected 16 rows, got $(($(wc -l <"$csv") - 1))"
python3 - "$csv" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
end = {(r["pes"], r["buffering"], r["io_nodes"], r["background"]): float(r["main_job_end_us"]) for r in rows}
problems = []
for r in rows:
    m, e = float(r["makespan_us"]), float(r["main_job_end_us"])
    if r["background"] == "quiet" and m != e: problems.append(f"quiet point {r['index']}: makespan {m} != main job end {e}")
    if r["background"] == "busy" and not m > e: problems.append(f"busy point {r['index']}: the writers did not run on")
    if not r["id"].endswith(f"|buffering={r['buffering']}|io_nodes={r['io_nodes']}|background={r['background']}"):
        problems.append(f"point {r['index']}: id {r['id']} does not end with its labels")
for pes in ("4", "8"):
    for nodes in ("1", "2"):
        if not end[(pes, "iobuf 64KiB", nodes, "busy")] < end[(pes, "none", nodes, "busy")]:
            problems.append(f"{pes} PEs, {nodes} I/O nodes, busy: iobuf not faster than none")
        if not end[(pes, "iobuf 64KiB", nodes, "quiet")] <= end[(pes, "none", nodes, "quiet")]:
            problems.append(f"{pes} PEs, {nodes} I/O nodes, quiet: iobuf slower than none")
        if not end[("8", "none", nodes, "quiet")] < end[("4", "none", nodes, "quiet")]:
            problems.append(f"{nodes} I/O nodes: 8 PEs not faster than 4")
    if not end[(pes, "none", "1", "busy")] > end[(pes, "none", "2", "busy")]:
        problems.append(f"{pes} PEs, busy: one I/O node in service not slower than two")
    if end[(pes, "none", "1", "quiet")] != end[(pes, "none", "2", "quiet")]:
        problems.append(f"{pes} PEs, quiet: the I/O nodes in service changed a run that uses one disk")
if problems: sys.exit("FAIL: " + "; ".join(problems))
PY
if command -v gnuplot >/dev/null; then
  [ -s "$out/a/main_job_end_s-by-background.svg" ] || fail "no figure: $(ls "$out/a")"
fi
"$bin" sweep "$spec" --out "$out/b" >"$out/b.log" 2>&1 || fail "second sweep failed"
cmp "$csv" "$out/b/sweep.csv" || fail "two runs of the study differ"
for points in 0..7 8..15; do
  "$bin" sweep "$spec" --out "$out/c" --points "$points" >>"$out/c.log" 2>&1 || fail "task $points failed"
done
"$bin" sweep "$spec" --out "$out/c" --collect >>"$out/c.log" 2>&1 || fail "collect failed: $(tail -3 "$out/c.log")"
cmp "$csv" "$out/c/sweep.csv" || fail "the study as array tasks differs from the local run"
echo "ok: 16 points, their columns, orderings, figure, and byte-identical reruns (local and as tasks)"
