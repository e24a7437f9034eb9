#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/floors/run.sh: what each part of a check costs, on the real lists.
#
#   bench/floors/run.sh [RUNS] > bench/FLOORS.md
#
# Builds HEAD's library as it is ("full") and once with each patch of this
# directory applied, each cutting a part of matching out (the verdicts of
# a cut build are wrong: only its time counts):
#   none   no program runs: URL to path, selection and verdict only
#   walk   the trie walk, and never a segment pass
#   touch  the walk, then a "pass" that only reads the bytes a segment
#          pass would read (from the shallowest root slot to the path's
#          end, found as the real pass finds it), 8 at a time
#   noout  the whole pass, with no output work (segment ends ignored)
# Then `robotsc bench` runs every real list (the lists of bench/run.sh)
# with every build, the order of the builds rotating from list to list,
# RUNS times (default 2), and bench_scale times the synthetic files of 10
# and 50,000 rules with "full", "walk" and "touch". The report gives, per
# build and run, the median, p90 and URL-weighted ratio to the FNV-1a
# floor that issue 10's targets are set in, on the programs and on the
# selection's own engine (the blob's DFA when it has one: robotsc bench's
# dfa_match_ns), and the growth from 10 to 50,000 rules. A build that does less than a
# design must do is a lower bound for that design: a target it misses is
# out of reach for that design on this machine.
set -eu

RUNS=${1:-2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${RSC_SHARED_DIR:-$ROOT/../shared}
CORPUS=$SHARED/corpus
W=${RSC_FLOORS_BUILD:-$ROOT/build-floors}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
VARIANTS="full none walk touch noout"
[ -f "$CORPUS/urls-index.tsv" ] || { echo "floors: no corpus at $CORPUS" >&2; exit 2; }
log() { printf '[floors %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

mkdir -p "$W"
REV=$(git -C "$ROOT" rev-parse --short HEAD)
DIRTY=$(git -C "$ROOT" status --porcelain --untracked-files=no | head -1)
GEN=
command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"
for v in $VARIANTS; do
    log "building $v"
    rm -rf "$W/$v"
    mkdir -p "$W/$v/src"
    git -C "$ROOT" archive HEAD | tar -x -C "$W/$v/src"
    if [ "$v" != full ]; then
        (cd "$W/$v/src" && patch -s -p1 <"$ROOT/bench/floors/$v.patch") ||
            { echo "floors: $v.patch does not apply to $REV" >&2; exit 2; }
    fi
    # shellcheck disable=SC2086
    cmake -S "$W/$v/src" -B "$W/$v/b" $GEN -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DRSC_BUILD_BENCH=ON -DRSC_BUILD_TESTS=OFF \
        -DRSC_SANITIZE=OFF >"$W/$v.cmake.log" 2>&1 || { cat "$W/$v.cmake.log" >&2; exit 2; }
    cmake --build "$W/$v/b" --target robotsc-cli bench_scale >"$W/$v.build.log" 2>&1 ||
        { tail -30 "$W/$v.build.log" >&2; exit 2; }
done

awk -F'\t' -v c="$CORPUS" -f "$ROOT/bench/jobs.awk" "$CORPUS/urls-index.tsv" >"$W/jobs.tsv"
: >"$W/lists.tsv"
: >"$W/scale.tsv"
run=1
while [ "$run" -le "$RUNS" ]; do
    log "run $run of $RUNS: $(wc -l <"$W/jobs.tsv") lists x 5 builds"
    n=0
    while IFS="$(printf '\t')" read -r name robots urls; do
        set -- $VARIANTS
        k=$((n % 5))
        while [ "$k" -gt 0 ]; do # rotate: list n starts with build n mod 5
            v=$1; shift; set -- "$@" "$v"; k=$((k - 1))
        done
        for v in "$@"; do
            line=$("$W/$v/b/robotsc" bench --rounds 5 --min-ms 5 "$robots" "$urls" 2>/dev/null |
                grep '^compile_us=' || true)
            printf '%s\t%s\t%s\t%s\t%s\n' "$run" "$name" "$v" "$(grep -c . "$urls")" "$line" >>"$W/lists.tsv"
        done
        n=$((n + 1))
    done <"$W/jobs.tsv"
    for v in full walk touch walk full touch; do
        "$W/$v/b/bench/bench_scale" rules --counts 10,50000 --rounds 5 --min-ms 5 2>/dev/null |
            tail -n +2 | sed "s/^/$run\t$v\t/" >>"$W/scale.tsv"
    done
    run=$((run + 1))
done

MACHINE=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo unknown)
"$PY" - "$W/lists.tsv" "$W/scale.tsv" "$REV" "${DIRTY:+ (uncommitted changes)}" "$MACHINE" "$ROOT/bench" <<'EOF'
import sys, statistics, collections
lists, scale, rev, dirty, machine, bench = sys.argv[1:7]
sys.path.insert(0, bench)
from report import quantile  # the report's p90
names = {"full": "the library as it is", "none": "no program: URL to path, selection, verdict",
         "walk": "the trie walk alone, no segment pass",
         "touch": "the walk, then only a read of the bytes a pass reads",
         "noout": "the walk and the whole pass, no output work"}
order = ["full", "noout", "touch", "walk", "none"]
d = collections.defaultdict(dict)
for l in open(lists):
    f = l.rstrip("\n").split("\t")
    if len(f) < 5 or not f[4]:
        continue
    kv = dict(x.split("=", 1) for x in f[4].split())
    am = kv.get("dfa_match_ns") or "nan"  # the selection's engine (1.0: accel_match_ns, dense rows)
    d[(int(f[0]), f[2])][f[1]] = (int(f[3]), float(kv["match_ns"]), float(kv["floor_ns"]), float(am))
print("# Floors: what each part of a check costs on the real lists\n")
print("Generated by `bench/floors/run.sh` on %s%s (%s). Each build is HEAD's library with"
      " one part of matching cut out (the patches in bench/floors/); a cut build's verdicts"
      " are wrong, only its time counts. Every list was run with every build, the order"
      " rotating from list to list; ratios are match time over the FNV-1a floor of the same"
      " `robotsc bench` run, as in bench/REPORT.md. Issue 10's targets: median <= 0.8x,"
      " p90 <= 1.0x, weighted <= 1.0x.\n" % (rev, dirty, machine))
print("| run | build | what runs | lists | median | p90 | weighted | over 2x | worst | engine: median | engine: p90 | engine: weighted |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for run in sorted({r for r, _ in d}):
    for v in order:
        L = d.get((run, v))
        if not L:
            continue
        r = [x[1] / x[2] for x in L.values()]
        ra = [x[3] / x[2] for x in L.values()]
        fl = sum(x[0] * x[2] for x in L.values())
        w = sum(x[0] * x[1] for x in L.values()) / fl
        wa = sum(x[0] * x[3] for x in L.values()) / fl
        worst = max(L, key=lambda k: L[k][1] / L[k][2])
        print("| %d | %s | %s | %d | %.3fx | %.3fx | %.3fx | %d | %s %.2fx | %.3fx | %.3fx | %.3fx |" % (
            run, v, names[v], len(L), statistics.median(r), quantile(r, .9), w,
            sum(x > 2.0 for x in r), worst, L[worst][1] / L[worst][2],
            statistics.median(ra), quantile(ra, .9), wa))
s = collections.defaultdict(list)
for l in open(scale):
    f = l.rstrip("\n").split("\t")
    if len(f) > 11:
        s[(int(f[0]), f[1], int(f[2]))].append(float(f[9]))
print("\nSynthetic growth (`bench_scale rules`, seeded; target <= 2x from 10 to 50,000"
      " rules): match ns per URL, the median of the build's runs in that run.\n")
print("| run | build | 10 rules | 50,000 rules | growth |")
print("| --- | --- | --- | --- | --- |")
for run in sorted({k[0] for k in s}):
    for v in ["full", "touch", "walk"]:
        a, b = s.get((run, v, 10)), s.get((run, v, 50000))
        if a and b:
            a, b = statistics.median(a), statistics.median(b)
            print("| %d | %s | %.1f ns | %.1f ns | %.2fx |" % (run, v, a, b, b / a))
EOF
log done
