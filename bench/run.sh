#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/run.sh: the whole benchmark suite of issues 4 and 10, one command.
#
#   bench/run.sh            # builds, runs everything, writes bench/REPORT.md
#
# Builds robotsc and the C harness with -O2 (Release) in its own build
# directory, installs the peers when missing (gnuplot and python3-protego
# from Debian, robots-parser from npm into the build directory), runs:
#   1. corpus compile    bench_compile over ../shared/corpus/robots; bench_dfa:
#                        each file's Googlebot selection on the blob's DFA or
#                        not, the DFA's size, and what it adds to the blob
#                        and to the compile (against RSC_COMPILE_NO_DFA)
#   2. real URL lists    robotsc bench on each of the 374 lists (373
#                        with a robots.txt) of ../shared/corpus/urls: the
#                        programs and the selection's engine (the blob's
#                        DFA, or the programs) in the same rounds
#   3. scaling           bench_scale rules / length (seeded synthetic data)
#   4. threads           bench_threads, 1 and 2 threads, one shared blob
#   5. peers             urllib.robotparser, Protego, robots-parser (node)
#   6. format 2 vs 4     the format-2 CLI (built from git ref RSC_BENCH_F2_REF)
#                        and this one, back to back on each real list and on
#                        the hostile cases of issue 10 (bench/hostile_cases.py);
#                        bench_memory: a dependent load per byte over working
#                        sets as large as those cases' DFAs
#   7. JavaScript        bench/js/bench.mjs: the WASM build in Node against
#                        native C and robots-parser (writes bench/JS.md)
#   8. issue 36          bench/issue36.sh: 1.0.0 (RSC_BENCH_BASE_REF, 3a05c31)
#                        and this tree built side by side (bench/baseline.sh)
#                        and run in this one run: worker cost per origin
#                        (bench_worker), matching against the floor, size,
#                        compile, hostile cases, store, Python and JavaScript
#                        parse + check, selections on a DFA, runtime/ size;
#                        the "Issue 36" sections of the report (report36.py)
#                        and the per-language table (below)
# and writes bench/REPORT.md with PNG plots in bench/plots/ (and the README
# performance section, bench/README_SECTION.md, from the same figures;
# bench/ANALYSIS.md, hand-written, is appended to the report). Raw results stay
# in the build directory (results/). Nothing here asserts a time.
#
# Environment:
#   RSC_BENCH_BUILD   build directory       (default: <repo>/build-bench)
#   RSC_SHARED_DIR    the shared data dir   (default: <repo>/../shared)
#   RSC_BENCH_QUICK=1 a fast smoke run (few lists, few rounds); the report
#                     says so
#   RSC_BENCH_NO_INSTALL=1  never install anything; missing peers are skipped
#   RSC_BENCH_SCALE_TIMEOUT seconds allowed per synthetic rule count (240)
#   RSC_BENCH_WAIT_IDLE=S  wait up to S seconds for the 1-minute load average
#                     to fall below 1 before measuring (default 0: no wait)
#   RSC_BENCH_F2_REF  git ref of the format-2 build compared in step 6
#                     (default 2d9e8f4); built in <build>/f2build; when it
#                     cannot be built the report says so and skips step 6
#   RSC_BENCH_COMPILE_BUDGET seconds of compiling allowed for pass 1 of the
#                     corpus (480); beyond it the report says "partial"
#   RSC_BENCH_BASE_REF git ref of step 8's baseline (default 3a05c31: 1.0.0)
#   RSC_BENCH_STORE_N origins of step 8's store benchmark (1,000,000; quick:
#                     20,000; 0 skips it: about 12 of the full run's minutes)
#   RSC_BENCH_ONLY36=1 steps 1-7 skipped: only step 8 and the report
#   RSC_BENCH_REPO    the git repository of the refs above when this tree is
#                     not a checkout (a `git archive` of HEAD, run apart from
#                     a shared work tree); RSC_BENCH_REV: its revision, for
#                     the report
#   RSC_BENCH_OUT     where the report goes (default bench/: REPORT.md,
#                     README_SECTION.md, plots/, and step 7's JS.md)
#
# Time on the shared 2-CPU machine: about 40 minutes for the full run (the
# two side-by-side builds, 3-5 minutes, only the first time; the store
# benchmark, both builds, about 12 minutes); RSC_BENCH_QUICK=1 about 5.
#
# The per-language check cost table (step 8). A language helper's script,
# when present, is run as (directly, under its own #! line, when it is
# executable; else with sh)
#     sh bench/rust/run.sh OUT.tsv CORPUS_DIR LIST_NAME     (also bench/go/run.sh,
#     sh bench/js/lang.sh  OUT.tsv CORPUS_DIR LIST_NAME      bench/js/lang.sh)
# with RSC_BENCH_BUILD (this tree's Release build: librobotsc.a,
# runtime/librobotsc_runtime.a, robotsc) and RSC_BENCH_QUICK in the
# environment, 15 minutes at most. LIST_NAME is the corpus median list (by
# URL count: CORPUS_DIR/urls/LIST_NAME.txt, its robots.txt as bench/jobs.awk
# picks it). OUT.tsv: a header line, then one line per mode, tab-separated:
#     language  mode  list  urls  ns_per_check  c_ns_per_check  note
#     Rust      single  example.com  180  21.3  18.9  Robots::allowed
#     Rust      batch   example.com  180  16.0  18.9  allowed_many
# language: C, Rust, Go, JavaScript, Python; mode: single (one call a URL)
# or batch (one call for the list), the selection (agent Googlebot) made
# once before timing; ns_per_check: the median ns per check over the
# list's URLs; c_ns_per_check: C's rsc_match_url on the same list measured
# by the same script in the same run (empty: the report uses step 8's C
# figure); note: free text (the call timed). Step 8 writes C's and
# Python's rows itself (RESULTS/i36/lang/c.tsv, python.tsv).
set -eu
# The whole script is one brace group, parsed before it runs: editing the
# file during a run (a long one) cannot change what that run executes.
{

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${RSC_SHARED_DIR:-$ROOT/../shared}
SHARED=$(cd "$SHARED" && pwd)
CORPUS=$SHARED/corpus
BUILD=${RSC_BENCH_BUILD:-$ROOT/build-bench}
RES=$BUILD/results
# RSC_BENCH_OUT: where REPORT.md, README_SECTION.md, plots/ and JS.md go
# (default bench/ itself; another directory keeps a trial run from touching
# the committed files; FLOORS.md and ANALYSIS.md are copied there)
OUTD=${RSC_BENCH_OUT:-$ROOT/bench}
mkdir -p "$OUTD"
OUTD=$(cd "$OUTD" && pwd)
if [ "$OUTD" != "$ROOT/bench" ]; then
    for f in FLOORS.md ANALYSIS.md; do [ -f "$ROOT/bench/$f" ] && cp "$ROOT/bench/$f" "$OUTD/"; done
fi
PLOTS=$OUTD/plots
QUICK=${RSC_BENCH_QUICK:-0}
SCALE_TIMEOUT=${RSC_BENCH_SCALE_TIMEOUT:-240}
COMPILE_BUDGET=${RSC_BENCH_COMPILE_BUDGET:-480}
PY=/usr/bin/python3 # Debian's interpreter sees python3-protego; a pyenv one may not

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# For the reruns of lists measured slower: column $2 of list $1's row of
# jobs.tsv (2 its robots.txt, 3 its URLs); robotsc bench's last line for
# binary $1 on robots $2 and URLs $3; figure $2 of such a line $1; $1 / $2
# to 3 places (99 when a figure is missing: a failed run counts as slower);
# the median of four comma-separated numbers on stdin.
job() { awk -F'\t' -v n="$1" -v c="$2" '$1 == n { print $c }' "$RES/jobs.tsv"; }
bench_last() { "$1" bench --rounds "$ROUNDS" --min-ms "$MINMS" "$2" "$3" 2>/dev/null </dev/null | grep '^compile_us='; }
fig() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a > 0 && b > 0 ? a / b : 99) }'; }
median4() { tr ',' '\n' | sort -n | awk '{ a[NR] = $1 } END { print (a[2] + a[3]) / 2 }'; }

[ -d "$CORPUS/robots" ] || { echo "bench/run.sh: no corpus at $CORPUS" >&2; exit 2; }
[ -x "$PY" ] || { echo "bench/run.sh: $PY is required (report and Python peers)" >&2; exit 2; }

START=$(date +%s)
mkdir -p "$BUILD" "$RES" "$PLOTS"
# (RSC_BENCH_ONLY36 keeps the other steps' results of the last run)
[ "${RSC_BENCH_ONLY36:-0}" = 1 ] || rm -rf "${RES:?}"/*
mkdir -p "$RES/match"

# ---- dependencies --------------------------------------------------------
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
apt_install() {
    [ "${RSC_BENCH_NO_INSTALL:-0}" = 1 ] && return 1
    log "installing $* from Debian"
    { $SUDO apt-get install -y --no-install-recommends "$@" >"$RES/apt.log" 2>&1 ||
      { $SUDO apt-get update >>"$RES/apt.log" 2>&1 &&
        $SUDO apt-get install -y --no-install-recommends "$@" >>"$RES/apt.log" 2>&1; }; } ||
        { log "could not install $* (see $RES/apt.log)"; return 1; }
}
command -v gnuplot >/dev/null 2>&1 || apt_install gnuplot-nox || true
"$PY" -c 'import protego' 2>/dev/null || apt_install python3-protego || true
NODE_DIR=$BUILD/peers-node
if command -v node >/dev/null 2>&1 && ! [ -d "$NODE_DIR/node_modules/robots-parser" ] &&
   [ "${RSC_BENCH_NO_INSTALL:-0}" != 1 ] && command -v npm >/dev/null 2>&1; then
    log "installing robots-parser from npm into $NODE_DIR"
    mkdir -p "$NODE_DIR"
    [ -f "$NODE_DIR/package.json" ] || echo '{"name":"rsc-bench-peers","private":true}' >"$NODE_DIR/package.json"
    (cd "$NODE_DIR" && npm install --no-audit --no-fund robots-parser@3 >"$RES/npm.log" 2>&1) ||
        log "npm install failed (see $RES/npm.log)"
fi

# ---- build -----------------------------------------------------------------
log "building (Release, -O2) in $BUILD"
GEN=
command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"
[ -f "$BUILD/CMakeCache.txt" ] && GEN=
# shellcheck disable=SC2086
cmake -S "$ROOT" -B "$BUILD" $GEN -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DRSC_BUILD_BENCH=ON -DRSC_BUILD_TESTS=OFF -DRSC_SANITIZE=OFF >"$RES/cmake.log" 2>&1 ||
    { cat "$RES/cmake.log" >&2; exit 2; }
cmake --build "$BUILD" --target bench >"$RES/build.log" 2>&1 || { tail -40 "$RES/build.log" >&2; exit 2; }
RSC=$BUILD/robotsc
B=$BUILD/bench

# ---- wait for a quiet machine (optional) ----------------------------------------
WAIT=${RSC_BENCH_WAIT_IDLE:-0}
while [ "$WAIT" -gt 0 ] && awk '{ exit !($1 >= 1.0) }' /proc/loadavg; do
    [ $((WAIT % 60)) = 0 ] && log "load $(cut -d' ' -f1 /proc/loadavg): waiting for a quiet machine (${WAIT}s left)"
    sleep 10
    WAIT=$((WAIT - 10))
done

# ---- machine -----------------------------------------------------------------
CC_PATH=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
{
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
    echo "cpus=$(nproc)"
    echo "cores_per_socket=$(lscpu | sed -n 's/^Core(s) per socket: *//p' | head -1)"
    echo "threads_per_core=$(lscpu | sed -n 's/^Thread(s) per core: *//p' | head -1)"
    echo "kernel=$(uname -sr)"
    echo "compiler=$("$CC_PATH" --version | head -1)"
    echo "flags=-O2 -DNDEBUG -std=c11 $(sed -n 's/^CMAKE_C_FLAGS:[A-Z]*=//p' "$BUILD/CMakeCache.txt")"
    # (what a previous run wrote, and the hand-written analysis, are not
    # changes to what is measured)
    if [ -n "${RSC_BENCH_REV:-}" ]; then
        echo "git=$RSC_BENCH_REV"
    else
    echo "git=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD -- . \
        ':!bench/REPORT.md' ':!bench/README_SECTION.md' ':!bench/plots' ':!bench/ANALYSIS.md' 2>/dev/null ||
        echo ' (with uncommitted changes)')"
    fi
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "quick=$QUICK"
    echo "python=$("$PY" --version 2>&1)"
    echo "protego=$("$PY" -c 'import importlib.metadata as m; print(m.version("protego"))' 2>/dev/null ||
        dpkg-query -W -f='${Version}' python3-protego 2>/dev/null || echo missing)"
    echo "node=$(node --version 2>/dev/null || echo missing)"
    echo "robots_parser=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$NODE_DIR/node_modules/robots-parser/package.json" 2>/dev/null | head -1)"
    echo "gnuplot=$(gnuplot --version 2>/dev/null || echo missing)"
} >"$RES/machine.txt"
log "machine: $(sed -n 's/^cpu=//p' "$RES/machine.txt"), load $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$QUICK" = 1 ]; then
    ROUNDS=3 MINMS=2 NLISTS=20 COUNTS=10,100,1000 CROUNDS=1 COMPILE_BUDGET=20
else
    ROUNDS=5 MINMS=5 NLISTS=100000 COUNTS=10,100,1000,10000,50000 CROUNDS=5
fi

if [ "${RSC_BENCH_ONLY36:-0}" != 1 ]; then

# ---- 1. corpus compile -----------------------------------------------------
log "1/6 corpus compile: $CORPUS/robots"
"$B/bench_compile" --rounds "$CROUNDS" --budget-s "$COMPILE_BUDGET" --progress --out "$RES/compile.tsv" "$CORPUS/robots" >"$RES/compile.txt" \
    2>"$RES/compile.log"

# ---- 1b. the blob's DFAs over the corpus ------------------------------------------
log "1/6 corpus DFA: every file's Googlebot selection, compiled with and without DFAs"
"$B/bench_dfa" --rounds "$CROUNDS" "$CORPUS/robots" >"$RES/dfa_corpus.tsv" 2>"$RES/dfa_corpus.err" ||
    log "  bench_dfa failed (see $RES/dfa_corpus.err)"

# ---- 2. real URL lists -------------------------------------------------------
awk -F'\t' -v c="$CORPUS" -v n="$NLISTS" -f "$ROOT/bench/jobs.awk" "$CORPUS/urls-index.tsv" >"$RES/jobs.tsv"
log "2/6 real URL lists: $(wc -l <"$RES/jobs.tsv") lists"
# dfa: 1 when the selection runs the blob's DFA (robotsc bench's engine=dfa)
printf 'name\tn_urls\tdisallowed\trules\tprograms\tnodes\tcompile_us\tblob_bytes\tsource_bytes\tverify_ns\tmatch_ns\tfloor_ns\tratio\tdfa\tdfa_bytes\tdfa_states\tdfa_match_ns\tdfa_ratio\n' \
    >"$RES/match.tsv"
while IFS="$(printf '\t')" read -r name robots urls; do
    out=$RES/match/$name.txt
    if "$RSC" bench --rounds "$ROUNDS" --min-ms "$MINMS" "$robots" "$urls" >"$out" 2>&1; then
        awk -v name="$name" '
            /^urls:/ { n = $3; sub(/\(/, "", n) }
            /^robots:/ { r = $0; sub(/.* bytes, /, "", r); sub(/ rules.*/, "", r) }
            /^verdicts:/ { d = $4 }
            /^blob:/ { a = $0; sub(/.*\(/, "", a); split(a, x, " "); au = x[1]; st = x[3] }
            /^compile_us=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
            END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", name, n, d,
                  r, au, st, v["compile_us"], v["blob_bytes"], v["source_bytes"], v["verify_ns"], v["match_ns"],
                  v["floor_ns"], v["ratio"], v["engine"] == "dfa", v["dfa_bytes"], v["dfa_states"],
                  v["dfa_match_ns"], v["dfa_ratio"] }' "$out" >>"$RES/match.tsv"
    else
        log "robotsc bench failed on $name (see $out)"
    fi
done <"$RES/jobs.tsv"
# A list on a DFA measured more than 5% slower than its programs is timed
# again, four times (the two engines in the same rounds each time), so the
# report can tell a slower engine from one noisy run.
printf 'name\truns\tmedian\n' >"$RES/match_recheck.tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["dfa"] == "1" && $c["dfa_match_ns"] + 0 > 1.05 * $c["match_ns"] { print $1 }' "$RES/match.tsv" |
while read -r name; do
    robots=$(job "$name" 2) urls=$(job "$name" 3) runs=""
    for _ in 1 2 3 4; do
        l=$(bench_last "$RSC" "$robots" "$urls")
        runs="$runs${runs:+,}$(div "$(fig "$l" dfa_match_ns)" "$(fig "$l" match_ns)")"
    done
    printf '%s\t%s\t%s\n' "$name" "$runs" "$(echo "$runs" | median4)" >>"$RES/match_recheck.tsv"
done

# ---- 3. scaling --------------------------------------------------------------
log "3/6 scaling: rule counts $COUNTS"
printf 'rules\tsource_bytes\tblob_bytes\tcompile_us\tprograms\tnodes\tmax_nodes\tmatch_ns\tfloor_ns\tratio\tdisallowed\tdfa\tdfa_bytes\tdfa_states\tdfa_match_ns\tdfa_floor_ns\tdfa_ratio\n' \
    >"$RES/scale_rules.tsv"
for n in $(echo "$COUNTS" | tr ',' ' '); do
    if timeout "$SCALE_TIMEOUT" "$B/bench_scale" rules --counts "$n" --rounds "$ROUNDS" --min-ms "$MINMS" \
        >"$RES/scale_rules_$n.tsv" 2>"$RES/scale_rules_$n.err"; then
        tail -n +2 "$RES/scale_rules_$n.tsv" >>"$RES/scale_rules.tsv"
    else
        log "  $n rules: failed or over ${SCALE_TIMEOUT}s"
        printf '%s\tFAILED (timeout %ss or error: %s)\n' "$n" "$SCALE_TIMEOUT" \
            "$(tr '\n' ' ' <"$RES/scale_rules_$n.err")" >>"$RES/scale_rules.tsv"
    fi
done
log "3/6 scaling: path length"
timeout "$SCALE_TIMEOUT" "$B/bench_scale" length --rules 100 --rounds "$ROUNDS" --min-ms "$MINMS" \
    >"$RES/scale_length.tsv" 2>"$RES/scale_length.err" || log "  path length: failed (see $RES/scale_length.err)"

# ---- 4. threads --------------------------------------------------------------
log "4/6 threads"
"$B/rsc-datagen" robots 42 100 >"$RES/synth_robots.txt"
"$B/rsc-datagen" urls 42 1000 >"$RES/synth_urls.txt"
BIG=$(awk -F'\t' 'NR > 1 && $3 > m { m = $3; f = $1 } END { print f }' "$CORPUS/urls-index.tsv")
BIGROBOTS=$(awk -F'\t' -v f="$BIG" '$1 == f { print ($5 != "" ? $5 : $6) }' "$CORPUS/urls-index.tsv")
"$B/bench_threads" --rounds "$ROUNDS" --agent bench-bot "$RES/synth_robots.txt" "$RES/synth_urls.txt" \
    >"$RES/threads_synth.tsv" || log "  threads (synthetic) failed"
"$B/bench_threads" --rounds "$ROUNDS" "$CORPUS/$BIGROBOTS" "$CORPUS/$BIG" >"$RES/threads_real.tsv" ||
    log "  threads (real) failed"
echo "$BIG $BIGROBOTS" >"$RES/threads_real.name"

# ---- 5. peers ----------------------------------------------------------------
log "5/6 peers"
PROUNDS=3
"$PY" "$ROOT/bench/peers/peer_py.py" --lib urllib --rounds $PROUNDS --min-ms "$MINMS" "$RES/jobs.tsv" \
    >"$RES/peer_urllib.tsv" 2>"$RES/peer_urllib.err" || log "  urllib.robotparser failed"
if "$PY" -c 'import protego' 2>/dev/null; then
    "$PY" "$ROOT/bench/peers/peer_py.py" --lib protego --rounds $PROUNDS --min-ms "$MINMS" "$RES/jobs.tsv" \
        >"$RES/peer_protego.tsv" 2>"$RES/peer_protego.err" || log "  protego failed"
else
    log "  protego missing: skipped"
fi
if [ -d "$NODE_DIR/node_modules/robots-parser" ]; then
    NODE_PATH=$NODE_DIR/node_modules node "$ROOT/bench/peers/peer_node.js" --rounds $PROUNDS --min-ms "$MINMS" \
        "$RES/jobs.tsv" >"$RES/peer_robots_parser.tsv" 2>"$RES/peer_robots_parser.err" || log "  robots-parser failed"
else
    log "  robots-parser missing: skipped"
fi

# ---- 6. format 2 against format 4 -------------------------------------------------
# The format-2 CLI built from a git ref of this repository, run back to back
# with this build's on each real list (order alternating) and on the hostile
# cases of issue 10 (bench/hostile_cases.py), so that their ratios to the
# floor compare within one run.
F2_REF=${RSC_BENCH_F2_REF:-2d9e8f4}
F2SRC=$BUILD/f2src
F2BUILD=$BUILD/f2build
F2=$F2BUILD/robotsc
log "6/6 format 2 ($F2_REF) against format 4 (this build)"
f2_commit=$(git -C "${RSC_BENCH_REPO:-$ROOT}" rev-parse --verify -q "$F2_REF^{commit}" 2>/dev/null || true)
f2_ok=0
if [ -z "$f2_commit" ]; then
    echo "git ref $F2_REF not found" >"$RES/f2_build.log"
else
    # Re-extract only when the ref changed, so a second run rebuilds nothing.
    if [ "$(cat "$F2SRC/.rsc_ref" 2>/dev/null)" != "$f2_commit" ]; then
        rm -rf "$F2SRC" "$F2BUILD"
        mkdir -p "$F2SRC"
        git -C "${RSC_BENCH_REPO:-$ROOT}" archive "$f2_commit" | tar -x -C "$F2SRC" && echo "$f2_commit" >"$F2SRC/.rsc_ref"
    fi
    if [ -f "$F2SRC/.rsc_ref" ] &&
       cmake -S "$F2SRC" -B "$F2BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
           -DRSC_BUILD_BENCH=OFF -DRSC_BUILD_TESTS=OFF -DRSC_SANITIZE=OFF >"$RES/f2_build.log" 2>&1 &&
       cmake --build "$F2BUILD" --target robotsc-cli -j 2 >>"$RES/f2_build.log" 2>&1 && [ -x "$F2" ]; then
        f2_ok=1
    fi
fi
{
    echo "ref=$F2_REF"
    echo "commit=$f2_commit"
    echo "built=$f2_ok"
} >"$RES/f23.txt"
F23=$RES/f23
mkdir -p "$F23"
# One row per (case, format): the figures of robotsc bench's last line.
# (format 2's robotsc bench prints no engine: its dfa columns stay empty)
printf 'kind\tname\tformat\tn_urls\tdisallowed\tcompile_us\tblob_bytes\tsource_bytes\tmatch_ns\tfloor_ns\tratio\tdfa\tdfa_bytes\tdfa_match_ns\tdfa_ratio\n' \
    >"$RES/f23.tsv"
f23_one() { # kind name format binary robots urls
    out=$F23/$2.f$3.txt
    if "$4" bench --rounds "$ROUNDS" --min-ms "$MINMS" "$5" "$6" >"$out" 2>&1 </dev/null; then
        awk -v kind="$1" -v name="$2" -v f="$3" '
            /^urls:/ { n = $3; sub(/\(/, "", n) }
            /^verdicts:/ { d = $4 }
            /^compile_us=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
            END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", kind, name, f, n, d,
                  v["compile_us"], v["blob_bytes"], v["source_bytes"], v["match_ns"], v["floor_ns"], v["ratio"],
                  (("engine" in v) ? ((v["engine"] == "dfa") "") : ""), v["dfa_bytes"], v["dfa_match_ns"],
                  v["dfa_ratio"] }' "$out" >>"$RES/f23.tsv"
    else
        log "  format $3: robotsc bench failed on $2 (see $out)"
        printf '%s\t%s\t%s\tFAILED\n' "$1" "$2" "$3" >>"$RES/f23.tsv"
    fi
}
HQ=
[ "$QUICK" = 1 ] && HQ=--quick
# The hostile cases run with this build even when format 2 could not be built (issue 10's targets).
# shellcheck disable=SC2086
if "$PY" "$ROOT/bench/hostile_cases.py" $HQ "$CORPUS" "$RES/hostile" >"$RES/hostile.log" 2>&1; then
    cp "$RES/hostile/cases.tsv" "$RES/hostile_cases.tsv"
    tail -n +2 "$RES/hostile/cases.tsv" | while IFS="$(printf '\t')" read -r name robots urls desc; do
        log "  hostile $name: $desc"
        [ "$f2_ok" = 1 ] && f23_one hostile "$name" 2 "$F2" "$robots" "$urls"
        f23_one hostile "$name" 3 "$RSC" "$robots" "$urls"
    done
else
    log "  hostile_cases.py failed (see $RES/hostile.log)"
fi
# The memory floor: a dependent load per path byte over working sets the
# size of the L1 and L2 caches and of the hostile cases' DFAs (column 13,
# dfa_bytes: 0 for a case over the compiler's DFA budget; bench_memory
# wants 8 bytes at least).
sizes="16384 262144 $(awk -F'\t' '$1 == "hostile" && $3 == 3 && $13 + 0 >= 8 { print $13 }' "$RES/f23.tsv" | tr '\n' ' ')"
log "  memory floor: $sizes"
# shellcheck disable=SC2086
"$B/bench_memory" --rounds "$ROUNDS" --min-ms "$MINMS" $sizes >"$RES/memory.tsv" 2>"$RES/memory.err" ||
    log "  bench_memory failed (see $RES/memory.err)"
if [ "$f2_ok" = 1 ]; then
    log "  real lists: $(wc -l <"$RES/jobs.tsv")"
    k=0
    while IFS="$(printf '\t')" read -r name robots urls; do
        k=$((k + 1))
        if [ $((k % 2)) = 1 ]; then
            f23_one real "$name" 2 "$F2" "$robots" "$urls"
            f23_one real "$name" 3 "$RSC" "$robots" "$urls"
        else
            f23_one real "$name" 3 "$RSC" "$robots" "$urls"
            f23_one real "$name" 2 "$F2" "$robots" "$urls"
        fi
    done <"$RES/jobs.tsv"
    # A list whose DFA engine measured more than 5% slower than format 2, by
    # the ratio to each process's floor, is timed again four times, the two
    # binaries back to back each time (which one first alternating), so the
    # report can tell a slower engine from one noisy pair of runs.
    printf 'name\truns\tmedian\n' >"$RES/f2_recheck.tsv"
    awk -F'\t' '$1 == "real" && $3 == 2 { f2[$2] = $11 } $1 == "real" && $3 == 3 && $15 != "" { f3[$2] = $15 }
                END { for (k in f3) if (k in f2 && f3[k] + 0 > 1.05 * f2[k]) print k }' "$RES/f23.tsv" |
    while read -r name; do
        robots=$(job "$name" 2) urls=$(job "$name" 3) runs=""
        for i in 1 2 3 4; do
            if [ $((i % 2)) = 1 ]; then
                l2=$(bench_last "$F2" "$robots" "$urls") l3=$(bench_last "$RSC" "$robots" "$urls")
            else
                l3=$(bench_last "$RSC" "$robots" "$urls") l2=$(bench_last "$F2" "$robots" "$urls")
            fi
            runs="$runs${runs:+,}$(div "$(fig "$l3" dfa_ratio)" "$(fig "$l2" ratio)")"
        done
        printf '%s\t%s\t%s\n' "$name" "$runs" "$(echo "$runs" | median4)" >>"$RES/f2_recheck.tsv"
    done
else
    log "  the format 2 CLI could not be built (see $RES/f2_build.log): comparison skipped"
fi

# ---- 7. JavaScript (issue 30) ------------------------------------------------------
# The npm package's WebAssembly build in Node against native C and
# robots-parser on the same lists (bench/js/bench.mjs writes bench/JS.md,
# which the report carries). Needs node and js/node_modules (npm ci).
if [ "$QUICK" != 1 ] && command -v node >/dev/null 2>&1; then
    if [ ! -d "$ROOT/js/node_modules/robots-parser" ] && [ "${RSC_BENCH_NO_INSTALL:-0}" != 1 ]; then
        (cd "$ROOT/js" && npm ci --no-audit --no-fund --loglevel=error) >"$RES/js_npm.log" 2>&1 || true
    fi
    if [ -d "$ROOT/js/node_modules/robots-parser" ]; then
        log "7 JavaScript: WASM in Node, robots-parser, native C"
        node "$ROOT/bench/js/bench.mjs" --corpus "$CORPUS" --cli "$RSC" --out "$OUTD/JS.md" \
            --tsv "$RES/js.tsv" >"$RES/js.log" 2>&1 || log "  bench/js/bench.mjs failed (see $RES/js.log)"
    else
        log "7 JavaScript: js/node_modules missing (npm ci failed): skipped"
    fi
fi

fi # RSC_BENCH_ONLY36

# ---- 8. issue 36: against 1.0.0 built side by side -----------------------------------
log "8 issue 36: 1.0.0 (${RSC_BENCH_BASE_REF:-3a05c31}) and this tree side by side"
REUSE=1
[ "${RSC_BENCH_ONLY36:-0}" = 1 ] && REUSE=0
RSC_BENCH_BUILD=$BUILD RSC_SHARED_DIR=$SHARED RSC_BENCH_QUICK=$QUICK RSC_BENCH_REUSE_COMPILE=$REUSE \
    sh "$ROOT/bench/issue36.sh" "$RES" ||
    log "  bench/issue36.sh failed"

echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/machine.txt"
echo "elapsed_s=$(($(date +%s) - START))" >>"$RES/machine.txt"

# ---- report ------------------------------------------------------------------
log "writing $OUTD/REPORT.md"
"$PY" "$ROOT/bench/report.py" "$RES" "$OUTD/REPORT.md" "$PLOTS"
log "done in $(($(date +%s) - START)) s: $OUTD/REPORT.md"
exit
}
