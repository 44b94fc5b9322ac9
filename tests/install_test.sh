#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR SCRATCH: `cmake --install` into a temporary prefix, then, from an
# unrelated folder and with the source and build trees out of reach (T3SIM_DATA unset), the installed
# binary finds its own data: validate (the fast T3D suite), a two-point study over installed files and
# bench --list by their defaults; help, man page and bash completion are installed; calibrate will not
# write into installed data; T3SIM_DATA overrides.
set -u
build=$1 src=$2 scratch=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch/prefix" "$scratch/cwd" || fail "cannot make $scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null || fail "cmake --install"
p=$scratch/prefix
t3sim=$p/bin/t3sim
for f in bin/t3sim share/t3sim/platforms/t3e-900-mcurie.yaml share/t3sim/workloads/studies/t3e-900-contention.yaml \
         share/t3sim/validation/cases.yaml share/t3sim/bench/suite.yaml share/man/man1/t3sim.1 \
         share/bash-completion/completions/t3sim share/doc/t3sim/LICENSE; do
  [ -e "$p/$f" ] || fail "not installed: $f"
done
cd "$scratch/cwd" || fail "cd"
unset T3SIM_DATA
out=$("$t3sim" validate --suite t3d-shmem-get 2>&1) || fail "installed validate: $out"
[[ $out == *"t3d-shmem-get          36"*PASS* ]] || fail "validate's verdict: $out"
"$t3sim" validate --suite t3d-shmem-get --report rep >/dev/null 2>&1 || fail "validate --report"
grep -q "\"cases_file\": \"$p/share/t3sim/validation/cases.yaml\"" rep/validation.json ||
  fail "validate did not read the installed cases: $(head -c 300 rep/validation.json)"
cat > study.yaml <<YAML
schema_version: 1
name: installed
machines: [$p/share/t3sim/platforms/t3d-denali.yaml]
workloads: [$p/share/t3sim/workloads/shift.yaml]
pes: [8]
sizes: [1KiB, 8KiB]
YAML
"$t3sim" sweep study.yaml --out study >/dev/null 2>&1 || fail "installed sweep"
[ "$(wc -l < study/sweep.csv)" -eq 3 ] || fail "sweep.csv: $(cat study/sweep.csv)"
out=$("$t3sim" bench --list 2>&1) || fail "bench --list: $out"
[[ $out == *a2a-512-w1* ]] || fail "bench --list: $out"
diff <("$t3sim" help sweep) <("$t3sim" sweep --help) >/dev/null || fail "help sweep differs from sweep --help"
grep -q '^\.SS sweep' "$p/share/man/man1/t3sim.1" || fail "man page has no sweep section"
grep -q 'complete -o filenames -F _t3sim t3sim' "$p/share/bash-completion/completions/t3sim" || fail "completion"
out=$("$t3sim" calibrate --suite t3d-shmem-get 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"would write into $p/share/t3sim (installed)"* ]] || fail "calibrate into installed data: $rc $out"
cp -r "$p/share/t3sim" data && rm data/bench/suite.yaml
out=$(T3SIM_DATA=$PWD/data "$t3sim" bench --list 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"$PWD/data/bench/suite.yaml"* ]] || fail "T3SIM_DATA not followed: $rc $out"
mkdir lonely && cp "$t3sim" lonely/
out=$(lonely/t3sim validate 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"--cases: no default validation/cases.yaml: t3sim's data is not in"*"give --cases FILE or set T3SIM_DATA"* ]] ||
  fail "a binary without data: $rc $out"
# No path of the source tree in the defaults (the old --cases default was $src/validation/cases.yaml).
if "$t3sim" validate --help | grep -q "$src"; then fail "validate --help names the source tree $src"; fi
echo "installed into $p: validate, a study and bench --list from $PWD; help, man, completion; calibrate refused"
