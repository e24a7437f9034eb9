#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The full corpus pass of diff and semantic lint (issue 29, docs/DIFF.md
# "Corpus pass"): every file, every agent (RSC_DIFF_FULL=1), split into N
# shards run side by side under nice (RSC_DIFF_SHARD=k/N), then one total.
#   tests/diff/full_pass.sh [BUILD_DIR] [N] [CORPUS_DIR]
# Defaults: build, 2 shards, ../shared/corpus. Each shard's log is kept in
# $TMPDIR (or /tmp) as rsc-full-pass.K.log; the summary lines, every budget
# hit ("budget:", "lint budget:") and every failure are printed.
set -u
build=${1:-build}
n=${2:-2}
corpus=${3:-../shared/corpus}
bin=$build/tests/diff/test_diff_corpus
[ -x "$bin" ] || { echo "full_pass.sh: $bin not built" >&2; exit 2; }
[ -d "$corpus/robots" ] || { echo "full_pass.sh: no corpus at $corpus" >&2; exit 77; }
case $n in ''|*[!0-9]*|0) echo "full_pass.sh: N must be a positive number" >&2; exit 2 ;; esac
logs=${TMPDIR:-/tmp}
start=$(date +%s)
pids=
k=0
while [ "$k" -lt "$n" ]; do
    RSC_DIFF_FULL=1 RSC_DIFF_SHARD=$k/$n nice -n 10 "$bin" "$corpus" >"$logs/rsc-full-pass.$k.log" 2>&1 &
    pids="$pids $!"
    k=$((k + 1))
done
status=0
for p in $pids; do
    wait "$p" || status=1
done
end=$(date +%s)
k=0
while [ "$k" -lt "$n" ]; do
    grep -E '^(budget|lint budget|slow):|FAIL|^corpus:' "$logs/rsc-full-pass.$k.log"
    grep -q '^corpus:' "$logs/rsc-full-pass.$k.log" || { echo "shard $k/$n: no summary (crashed?)"; status=1; }
    k=$((k + 1))
done
# one total: the summary lines' numbers added up
k=0
while [ "$k" -lt "$n" ]; do
    cat "$logs/rsc-full-pass.$k.log"
    k=$((k + 1))
done | awk -v n="$n" -v wall=$((end - start)) '
/^corpus: shard/ {
    for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "files" && $(i + 2) == "(every") files += $i
        if ($(i + 1) == "diffs,") diffs += $i
        if ($(i + 1) == "unknown") unknown += $i
        if ($(i + 1) == "witnesses") wit += $i
        if ($(i + 1) == "dead") dead += $i
        if ($(i + 1) == "files" && $(i + 2) == "over") lint += $i
        if ($(i + 1) == "failures") fail += $i
    }
    shards++
}
END {
    printf "total: %d shards of %d: %d files, %d diffs, %d unknown (budget), %d witnesses re-checked, %d dead rules removed without a change, %d files over the lint budget; %d failures; wall %d s\n", shards, n, files, diffs, unknown, wit, dead, lint, fail, wall
}'
exit $status
