#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/issue36.sh: step 8 of bench/run.sh, issue 36's targets measured
# against 1.0.0 (git ref RSC_BENCH_BASE_REF, default 3a05c31) built side by
# side by bench/baseline.sh, both in this one run. Runnable alone:
#
#   bench/issue36.sh RESULTS_DIR     # then bench/report.py reads RESULTS_DIR/i36
#
# Environment (bench/run.sh sets them): RSC_BENCH_BUILD (this tree's Release
# build dir, reused as the "new" side; default <repo>/build-bench),
# RSC_SHARED_DIR, RSC_BENCH_QUICK=1 (few lists, few repetitions),
# RSC_BENCH_STORE_N (origins of the store benchmark: 1,000,000; quick
# 20,000; 0 skips it), RSC_BENCH_STORE_TIMEOUT (seconds allowed per build's
# store benchmark, 900), RSC_BENCH_SIDE (where baseline.sh builds:
# RSC_BENCH_BUILD/side).
#
# Writes RESULTS_DIR/i36/ (read by bench/report36.py):
#   side.txt, old.txt, new.txt     what was built (baseline.sh)
#   worker_old.tsv, worker_new.tsv bench_worker worker: every list, 1.0.0's
#                                  modes programs, dfa16, ready; this
#                                  tree's programs and blob (format 5); the
#                                  two builds alternate block by block of
#                                  lists, which one first alternating
#   worker_recheck.tsv             lists whose new cost measured more than
#                                  10% above 1.0.0's programs: four more
#                                  runs of both, back to back (name, the
#                                  four new/old ratios, their median)
#   floor_old.tsv, floor_new.tsv   bench_worker floor: match time against
#                                  the FNV-1a floor (same alternation)
#   compile_old.*, compile_new.*   bench_compile over the corpus: each
#                                  build's faster of its two runs
#                                  (compile_<side>_<k>.*, old new new old)
#   sel_old.tsv, sel_new.tsv       bench_worker selections over the corpus
#   hostile_old.tsv, hostile_new.tsv  bench_worker floor on the hostile
#                                  cases of bench/hostile_cases.py
#   store_old/, store_new/         bench/store/run.sh's measurements
#   py_old.tsv, py_new.tsv, js_old.tsv, js_new.tsv  parse + every check
#                                  of each list (bench/parse_check.*), two
#                                  runs per build (old, new, new, old)
#   runtime.txt                    runtime/ lines; 1.0.0's determiniser
#                                  functions still defined in runtime/
#   lang/*.tsv                     the per-language table (bench/run.sh
#                                  documents the columns)
# Nothing here asserts a time.
set -eu
# The whole script is one brace group, parsed before it runs: editing the
# file during a run (a long one) cannot change what that run executes.
{
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RES=${1:?usage: bench/issue36.sh RESULTS_DIR}
mkdir -p "$RES"
RES=$(cd "$RES" && pwd)
SHARED=${RSC_SHARED_DIR:-$ROOT/../shared}
CORPUS=$(cd "$SHARED/corpus" && pwd)
BUILD=${RSC_BENCH_BUILD:-$ROOT/build-bench}
QUICK=${RSC_BENCH_QUICK:-0}
PY=/usr/bin/python3
STORE_TIMEOUT=${RSC_BENCH_STORE_TIMEOUT:-900}
I=$RES/i36
SIDE=${RSC_BENCH_SIDE:-$BUILD/side}
log() { printf '[bench36 %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$I" "$I/lang"
rm -f "$I"/*.tsv "$I"/*.txt "$I"/lang/*.tsv
START=$(date +%s)

if [ "$QUICK" = 1 ]; then
    NLISTS=20 REPS=5 FROUNDS=3 FMINMS=1 CROUNDS=1 PREPS=3 BLOCK=10 STORE_N=${RSC_BENCH_STORE_N:-20000}
else
    # BLOCK: lists per turn of each build. One run of 373 lists under a load
    # average of 15 with blocks of 25 put 10% of the lists (the same code on
    # both sides) over 1.6x by drift alone; the turns cost a process start
    # and one compile per list of the block.
    NLISTS=100000 REPS=21 FROUNDS=5 FMINMS=3 CROUNDS=3 PREPS=7 BLOCK=5 STORE_N=${RSC_BENCH_STORE_N:-1000000}
fi

log "building 1.0.0 and this tree side by side in $SIDE"
if ! RSC_BASELINE_NEW_BUILD=$BUILD sh "$ROOT/bench/baseline.sh" "$SIDE" 2>"$I/baseline.log"; then
    cat "$I/baseline.log" >&2
    log "a side could not be built: issue 36's comparison skipped"
    echo "built=0" >"$I/side.txt"
    exit 0
fi
cp "$SIDE/old.txt" "$I/old.txt"
cp "$SIDE/new.txt" "$I/new.txt"
O=$SIDE/old
N=$SIDE/new
{
    echo "built=1"
    echo "quick=$QUICK"
    echo "reps=$REPS"
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$I/side.txt"

awk -F'\t' -v c="$CORPUS" -v n="$NLISTS" -f "$ROOT/bench/jobs.awk" "$CORPUS/urls-index.tsv" >"$I/jobs.tsv"
NJ=$(wc -l <"$I/jobs.tsv")
# The corpus median list (by URL count, ties by name): the per-language
# table's list, given to the helpers' scripts.
MEDLIST=$(awk -F'\t' '{ n = 0; while ((getline l < $3) > 0) if (l != "") n++; close($3); print n "\t" $1 }' "$I/jobs.tsv" |
    sort -t"$(printf '\t')" -k1,1n -k2,2 | awk -v m="$NJ" 'NR == int((m + 1) / 2) { print $2 }')
echo "median_list=$MEDLIST" >>"$I/side.txt"

# both KIND OUT_PREFIX ARGS...: runs "bench_worker ARGS --from i --to j" of
# both builds block by block of lists, the first of the pair alternating,
# appending to OUT_PREFIX_old.tsv and OUT_PREFIX_new.tsv (one header each).
both() {
    what=$1 pre=$2
    shift 2
    b=0 i=0
    while [ "$i" -lt "$NJ" ]; do
        j=$((i + BLOCK))
        if [ $((b % 2)) = 0 ]; then order="old new"; else order="new old"; fi
        for side in $order; do
            if [ "$side" = old ]; then bin=$O/bench_worker extra=${OLD_MODES:-}; else bin=$N/bench_worker extra=${NEW_MODES:-}; fi
            # shellcheck disable=SC2086
            "$bin" "$what" $extra "$@" --from "$i" --to "$j" "$I/jobs.tsv" >"$I/part.tsv" 2>>"$I/${pre}_$side.err" || true
            out=$I/${pre}_$side.tsv
            if [ -s "$out" ]; then
                grep -v '^#' "$I/part.tsv" | tail -n +2 >>"$out"
            else
                grep -v '^#' "$I/part.tsv" >"$out"
            fi
        done
        i=$j b=$((b + 1))
    done
    rm -f "$I/part.tsv"
}

# ---- worker cost ------------------------------------------------------------
log "worker cost: $NJ lists, $REPS repetitions, 1.0.0 and this tree alternating"
OLD_MODES="--modes programs,dfa16,ready"
NEW_MODES=
grep -q '^format=5' "$I/new.txt" && NEW_MODES="--modes programs,blob"
both worker worker --reps "$REPS"
# Lists measured more than 10% slower than 1.0.0's programs: four more runs,
# the two builds back to back (alternating which first).
NEWMODE=programs
[ -n "$NEW_MODES" ] && NEWMODE=blob
printf 'name\truns\tmedian\n' >"$I/worker_recheck.tsv"
# one BIN MODE: list $idx's median cost in one bench_worker run
one() { "$1" worker --modes "$2" --reps "$REPS" --from "$idx" --to $((idx + 1)) "$I/jobs.tsv" 2>/dev/null |
    awk -F'\t' 'NR > 1 && !/^#/ { print $4 }'; }
awk -F'\t' -v nm="$NEWMODE" 'FNR == 1 { f++; next }
     f == 1 && $3 == "programs" { o[$1] = $4 }
     f == 2 && $3 == nm { n[$1] = $4 }
     END { for (k in n) if (k in o && n[k] > 1.10 * o[k]) print n[k] / o[k] "\t" k }' "$I/worker_old.tsv" "$I/worker_new.tsv" |
    sort -k1,1gr | head -80 | cut -f2 >"$I/slow.txt" # the worst 80 first
log "  rechecking $(wc -l <"$I/slow.txt") lists measured more than 10% slower than 1.0.0's programs"
while read -r name; do
    idx=$(awk -F'\t' -v n="$name" '$1 == n { print NR - 1; exit }' "$I/jobs.tsv")
    runs=""
    for k in 1 2 3 4; do
        if [ $((k % 2)) = 1 ]; then
            a=$(one "$O/bench_worker" programs) c=$(one "$N/bench_worker" "$NEWMODE")
        else
            c=$(one "$N/bench_worker" "$NEWMODE") a=$(one "$O/bench_worker" programs)
        fi
        runs="$runs${runs:+,}$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.3f", (a > 0 && c > 0 ? c / a : 99) }')"
    done
    med=$(echo "$runs" | tr ',' '\n' | sort -n | awk '{ v[NR] = $1 } END { print (v[2] + v[3]) / 2 }')
    printf '%s\t%s\t%s\n' "$name" "$runs" "$med" >>"$I/worker_recheck.tsv"
done <"$I/slow.txt"

# ---- matching against the FNV-1a floor --------------------------------------
log "matching against the FNV-1a floor: $NJ lists"
OLD_MODES= NEW_MODES=
both floor floor --rounds "$FROUNDS" --min-ms "$FMINMS"

# ---- compile, size, verification ----------------------------------------------
log "corpus compile: 1.0.0 and this tree alternating, twice each ($CROUNDS rounds a run)"
# old new new old: a build's figures are those of its run with the shorter
# whole pass. One run each, old then new, once measured this tree's pass
# at 4.48x 1.0.0's where the code of both had not changed since a run that
# measured 2.28x: the machine's speed moved between the two.
reuse=0
if [ "${RSC_BENCH_REUSE_COMPILE:-0}" = 1 ] && [ -s "$RES/compile.tsv" ] &&
   grep -q 'partial=0' "$RES/compile.txt" 2>/dev/null; then
    # This tree's figures from step 1 of the same bench/run.sh, when it ran
    # (the same build and corpus): no second pass of the slowest step.
    cp "$RES/compile.tsv" "$I/compile_new.tsv"
    cp "$RES/compile.txt" "$I/compile_new.txt"
    reuse=1
fi
rm -f "$I"/compile_old_[0-9].* "$I"/compile_new_[0-9].* # an earlier run's must not count
k=0
for side in old new new old; do
    k=$((k + 1))
    [ "$side" = new ] && [ "$reuse" = 1 ] && continue
    "$SIDE/$side/bench_compile" --rounds "$CROUNDS" --budget-s 600 --out "$I/compile_${side}_$k.tsv" "$CORPUS/robots" \
        >"$I/compile_${side}_$k.txt" 2>"$I/compile_${side}_$k.log" || log "  bench_compile ($side, run $k) failed"
done
for side in old new; do
    [ "$side" = new ] && [ "$reuse" = 1 ] && continue
    best=
    for t in "$I/compile_${side}"_[0-9].txt; do
        [ -s "$t" ] || continue
        w=$(sed -n 's/.*whole_pass_s=\([0-9.]*\).*/\1/p' "$t")
        [ -n "$w" ] || continue
        if [ -z "$best" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then best=${t%.txt} bw=$w; fi
    done
    if [ -n "$best" ]; then
        cp "$best.tsv" "$I/compile_$side.tsv"; cp "$best.txt" "$I/compile_$side.txt"; cp "$best.log" "$I/compile_$side.log"
        log "  $side: whole pass $bw s (run ${best##*_})"
    fi
done

# ---- selections on a whole DFA -----------------------------------------------------
log "corpus selections (Googlebot and *): which engine"
for side in old new; do
    "$SIDE/$side/bench_worker" selections "$CORPUS/robots" >"$I/sel_$side.tsv" 2>"$I/sel_$side.err" ||
        log "  selections ($side) failed"
done

# ---- hostile cases -----------------------------------------------------------------
HC=$RES/hostile/cases.tsv
if [ ! -f "$HC" ]; then
    HQ=
    [ "$QUICK" = 1 ] && HQ=--quick
    # shellcheck disable=SC2086
    "$PY" "$ROOT/bench/hostile_cases.py" $HQ "$CORPUS" "$I/hostile" >"$I/hostile.log" 2>&1 || true
    HC=$I/hostile/cases.tsv
fi
if [ -f "$HC" ]; then
    log "hostile cases: $(($(wc -l <"$HC") - 1))"
    # four runs a build, alternating (old new new old, twice): a case takes
    # a second or two, and its smallest ratio is a small difference between
    # two timings (c_outranked: 0.14x the floor), which the better of two
    # runs left to the machine's phase
    k=0
    for side in old new new old old new new old; do
        k=$((k + 1))
        "$SIDE/$side/bench_worker" floor --rounds "$FROUNDS" --min-ms "$FMINMS" "$HC" >"$I/hostile_${side}_$k.tsv" \
            2>>"$I/hostile_$side.err" || true
    done
else
    log "hostile cases could not be written (see $I/hostile.log)"
fi

# ---- Python and JavaScript: parse + every check ---------------------------------------
if grep -q '^python=1' "$I/old.txt" && grep -q '^python=1' "$I/new.txt"; then
    log "Python: Robots.parse + allowed on every list (old, new, new, old)"
    for side in old new new old; do
        out=$I/py_$side.tsv
        [ -f "$out" ] && out=$I/py_${side}_2.tsv
        lang=
        [ "$side" = new ] && [ ! -f "$I/lang/python.tsv" ] && lang="--lang-list $MEDLIST --lang-out $I/lang/python.tsv"
        # shellcheck disable=SC2086
        PYTHONPATH=$SIDE/$side/py "$PY" "$ROOT/bench/parse_check.py" --jobs "$I/jobs.tsv" --reps "$PREPS" $lang \
            >"$out" 2>>"$I/py_$side.err" || log "  Python ($side) failed (see $I/py_$side.err)"
    done
else
    log "Python: a side's package was not built: skipped"
fi
if command -v node >/dev/null 2>&1; then
    log "JavaScript: Robots.parse + allowed on every list (old, new, new, old)"
    for side in old new new old; do
        out=$I/js_$side.tsv
        [ -f "$out" ] && out=$I/js_${side}_2.tsv
        node "$ROOT/bench/parse_check.mjs" --js "$SIDE/$side/js" --jobs "$I/jobs.tsv" --reps "$PREPS" \
            >"$out" 2>>"$I/js_$side.err" || log "  JavaScript ($side) failed (see $I/js_$side.err)"
    done
else
    log "JavaScript: node missing: skipped"
fi

# ---- the per-language table ------------------------------------------------------------
# C's row: the blob as loaded on the median list, measured now (the
# language scripts run next; Python's rows, measured just before, take it
# as their C figure: the machine's load drifts between the steps).
k=$(awk -F'\t' -v l="$MEDLIST" '$1 == l { print NR - 1; exit }' "$I/jobs.tsv")
"$N/bench_worker" floor --rounds "$FROUNDS" --min-ms "$FMINMS" --from "$k" --to $((k + 1)) "$I/jobs.tsv" 2>/dev/null |
awk -F'\t' -v l="$MEDLIST" 'NR == 1 { print "language\tmode\tlist\turls\tns_per_check\tc_ns_per_check\tnote"; next }
    $1 == l && !done { done = 1; print "C\tsingle\t" l "\t" $2 "\t" $4 "\t" $4 "\trsc_match_url, engine " $3 }' \
    >"$I/lang/c.tsv" || true
c=$(awk -F'\t' 'NR == 2 { print $5 }' "$I/lang/c.tsv")
if [ -n "$c" ] && [ -f "$I/lang/python.tsv" ]; then
    awk -F'\t' -v OFS='\t' -v c="$c" 'NR > 1 && $6 == "" { $6 = c } { print }' "$I/lang/python.tsv" >"$I/lang/py.tmp" &&
        mv "$I/lang/py.tmp" "$I/lang/python.tsv"
fi
for s in "$ROOT/bench/rust/run.sh" "$ROOT/bench/go/run.sh" "$ROOT/bench/js/lang.sh"; do
    [ -f "$s" ] || continue
    lang=$(basename "$(dirname "$s")")
    log "per-language: $s"
    run=sh
    [ -x "$s" ] && run= # an executable script runs under its own #! line
    # shellcheck disable=SC2086
    RSC_BENCH_BUILD=$BUILD RSC_BENCH_QUICK=$QUICK timeout 900 $run "$s" "$I/lang/$lang.tsv" "$CORPUS" "$MEDLIST" \
        >"$I/lang_$lang.log" 2>&1 || log "  $s failed (see $I/lang_$lang.log)"
done

# ---- runtime/ size; determinisation left in it ------------------------------------------
{
    for side in old new; do
        t=$SIDE/$side/tree
        echo "${side}_lines=$(cat "$t"/runtime/*.c "$t"/runtime/*.h | wc -l)"
    done
    # this tree's, file by file (the report groups them by what they do)
    echo "new_files=$(cd "$SIDE/new/tree/runtime" && wc -l -- *.c *.h | awk '$2 != "total" { printf "%s:%s ", $2, $1 }')"
    # 1.0.0's determiniser: the functions of runtime/dfa.c between its
    # "Building" and "Checking" sections. Which of them does this tree's
    # runtime/ still define?
    names=$(awk '/^\/\* ---- Building/ { b = 1 } /^\/\* ---- Checking/ { b = 0 }
                 b && /^static [^=;]*\(/ { s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); print w[n] }' \
                 "$SIDE/old/tree/runtime/dfa.c" | sort -u)
    echo "old_builder_functions=$(echo "$names" | tr '\n' ' ')"
    found=""
    for f in $names; do
        grep -Eq "^[a-z].*[ *]$f\(" "$SIDE/new/tree"/runtime/*.c 2>/dev/null && found="$found $f"
    done
    echo "new_builder_functions_in_runtime=$(echo "$found" | wc -w)"
    echo "new_builder_functions_found=$found"
} >"$I/runtime.txt"

# ---- store ------------------------------------------------------------------------------
if [ "$STORE_N" -gt 0 ] && [ -x "$SIDE/old/bench_store" ] && [ -x "$SIDE/new/bench_store" ]; then
    for side in old new; do
        log "store benchmark ($side): $STORE_N origins"
        W=$I/store_$side
        rm -rf "$W" # an earlier run's checks must not count in this one's
        mkdir -p "$W"
        # run.sh expects BUILD/robotsc and BUILD/bench/store/bench_store
        b=$(dirname "$(readlink -f "$SIDE/$side/robotsc")")
        # bounded: a slow compiler must not make the run endless (the report
        # then says the store was not measured)
        RSC_SHARED_DIR=$SHARED STORE_TARGETS_ONLY=1 STORE_KEEP=1 timeout "$STORE_TIMEOUT" bash "$ROOT/bench/store/run.sh" "$b" "$STORE_N" "$W" >"$W/report.md" 2>"$W/log" ||
            { log "  store benchmark ($side) failed or over ${STORE_TIMEOUT}s (see $W/log)"; rm -f "$W/filesize" "$W/s.db"; }
    done
    # The checks of both stores, alternating (old new, new old, ...): a
    # check over 10,000 cached origins is mostly memory misses, which the
    # machine's other work moves from run to run (one build's runs have
    # measured 290 to 822 ns); each build's figure is the median of its
    # five runs, which one outlying run does not move.
    k=0
    for order in "old new" "new old" "old new" "new old" "old new"; do
        k=$((k + 1))
        for side in $order; do
            W=$I/store_$side
            [ -f "$W/s.db" ] || continue
            for m in "uncached 0" "cached 10000" "cached 100"; do
                set -- $m
                "$SIDE/$side/bench_store" check "$W/s.db" "$W/o.tsv" "$CORPUS/urls" 1000000 "$1" "$2" 1 \
                    >"$W/check.$1.$2.1.r$k" 2>>"$W/log" || log "  store check $1 $2 ($side) failed"
            done
        done
    done
    for side in old new; do
        rm -f "$I/store_$side/s.db" "$I/store_$side/s.db-lock" "$I/store_$side/o.tsv"
    done
else
    log "store benchmark skipped (RSC_BENCH_STORE_N=$STORE_N, or a side has no bench_store)"
fi

echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$I/side.txt"
echo "elapsed_s=$(($(date +%s) - START))" >>"$I/side.txt"
log "issue 36 step done in $(($(date +%s) - START)) s"
exit
}
