#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/paired/paired.sh: how much faster is NEW than OLD, on a noisy machine.
#
#   bench/paired/paired.sh OLD_REF NEW_REF match|load|compile [ROUNDS]
#
# Timings of two builds taken minutes apart on a shared machine differ by
# more than most changes, and one binary holding both builds is biased by
# where the linker puts each copy (the same code linked twice has measured
# 1.05x for the second copy). So both revisions are built (CMake Release,
# -O2), one of them renamed (objcopy --redefine-syms: every symbol it
# defines gets an N_ prefix), and bench/paired/pair.c times them in one
# process, alternating item by item and round by round; then again with the
# other one renamed. NEW / OLD is the geometric mean of the two runs'
# ratios, which cancels the placement bias. Modes:
#   match    rsc_match_url over the real lists (needs build-bench/results/
#            jobs.tsv, which bench/run.sh writes; RSC_PAIRED_JOBS overrides);
#            both revisions must read the same blob format; with
#            RSC_PAIRED_BOTH=1 (match and load) each revision compiles
#            and loads its own blobs, so the formats may differ
#   load     rsc_load of every 5th corpus blob (RSC_PAIRED_STEP)
#   compile  rsc_compile of every 5th corpus file (RSC_PAIRED_STEP)
# Work goes to build-paired/ (RSC_PAIRED_BUILD). A revision is built once.
set -eu

[ $# -ge 3 ] || { sed -n '2,4p' "$0" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OLD=$(git -C "$ROOT" rev-parse --verify "$1^{commit}")
NEW=$(git -C "$ROOT" rev-parse --verify "$2^{commit}")
MODE=$3
ROUNDS=${4:-7}
SHARED=${RSC_SHARED_DIR:-$ROOT/../shared}
STEP=${RSC_PAIRED_STEP:-5}
JOBS=${RSC_PAIRED_JOBS:-$ROOT/build-bench/results/jobs.tsv}
W=${RSC_PAIRED_BUILD:-$ROOT/build-paired}
CC=${CC:-cc}
mkdir -p "$W"

build() { # rev: builds it once into $W/<rev>
    d=$W/$1
    [ -f "$d/.built" ] && return 0
    rm -rf "$d" && mkdir -p "$d/src"
    git -C "$ROOT" archive "$1" | tar -x -C "$d/src"
    cmake -S "$d/src" -B "$d/b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
        -DRSC_BUILD_TESTS=OFF -DRSC_BUILD_BENCH=OFF -DRSC_SANITIZE=OFF >"$d/build.log" 2>&1 &&
        cmake --build "$d/b" --target robotsc robotsc_runtime >>"$d/build.log" 2>&1 ||
        { tail -20 "$d/build.log" >&2; exit 2; }
    touch "$d/.built"
}
renamed() { # lib out [lib2 out2]: each lib with every symbol they define prefixed N_
    nm --defined-only -g "$1" ${3:+"$3"} | awk 'NF == 3 { print $3 " N_" $3 }' | sort -u >"$2.syms"
    objcopy --redefine-syms="$2.syms" "$1" "$2"
    [ -z "${3:-}" ] || objcopy --redefine-syms="$2.syms" "$3" "$4"
}

build "$OLD"
build "$NEW"
case $MODE in
match | load) part=runtime/librobotsc_runtime.a flag=-DPAIR_RUNTIME ;;
compile) part=librobotsc.a flag=-DPAIR_COMPILER ;;
*) echo "paired.sh: mode is match, load or compile" >&2; exit 2 ;;
esac
case $MODE in
match) [ -f "$JOBS" ] || { echo "paired.sh: no $JOBS (run bench/run.sh once, or set RSC_PAIRED_JOBS)" >&2; exit 2; }
       args="match $JOBS $ROUNDS" ;;
*) args="$MODE $SHARED/corpus/robots $STEP $ROUNDS" ;;
esac

# pair-<first>-<renamed>: the first revision as is, the other renamed; the
# compiler (match, load) or the runtime (compile) is the first's.
link() { # first second out
    if [ "$MODE" != compile ] && [ -n "${RSC_PAIRED_BOTH:-}" ]; then
        renamed "$W/$2/b/librobotsc.a" "$W/$3.a" "$W/$2/b/runtime/librobotsc_runtime.a" "$W/$3-rt.a"
        both="-DPAIR_BOTH $W/$3-rt.a"
    else
        renamed "$W/$2/b/$part" "$W/$3.a"
        both=
    fi
    # shellcheck disable=SC2086
    $CC -O2 -std=c11 -Wall -Wextra -Wpedantic $flag -I"$W/$1/src/include" -I"$ROOT/bench" \
        "$ROOT/bench/paired/pair.c" "$ROOT/bench/bench_util.c" "$ROOT/bench/datagen.c" \
        "$W/$1/b/librobotsc.a" "$W/$3.a" $both "$W/$1/b/runtime/librobotsc_runtime.a" -o "$W/$3"
}
link "$OLD" "$NEW" pair-old-new
link "$NEW" "$OLD" pair-new-old
# shellcheck disable=SC2086
r1=$("$W/pair-old-new" $args)
# shellcheck disable=SC2086
r2=$("$W/pair-new-old" $args)
echo "old as is, new renamed: $r1"
echo "new as is, old renamed: $r2"
awk -v a="$r1" -v b="$r2" 'function f(s, k,  i, n, p) { n = split(s, p, " ")
        for (i = 1; i <= n; i++) if (index(p[i], k "=") == 1) return substr(p[i], length(k) + 2) }
    BEGIN { printf "new / old: median per item %.3f, weighted sum %.3f (%s items; disagreements %s and %s)\n",
            sqrt(f(a, "median_b_over_a") / f(b, "median_b_over_a")), sqrt(f(a, "sum_b_over_a") / f(b, "sum_b_over_a")),
            f(a, "items"), f(a, "disagree"), f(b, "disagree") }'
