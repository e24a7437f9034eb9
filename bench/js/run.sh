#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The JavaScript benchmark in one run: bench/js/lang.sh on the corpus median
# list (JavaScript and native C in turns: the per-language table's rows,
# written to $RSC_BENCH_LANG_TSV, default $BUILD/results/lang/js.tsv), then
# bench/js/bench.mjs over the corpus's URL lists (WASM, robots-parser and
# native C per list), which writes bench/JS.md with those rows in it.
#   sh bench/js/run.sh
# Environment: RSC_BENCH_BUILD (a build with robotsc; default build),
# RSC_SHARED_DIR (default ../shared), RSC_BENCH_QUICK=1 (40 lists, fewer
# rounds), RSC_BENCH_LANG_TSV. Needs node and js/node_modules (robots-parser:
# cd js && npm ci).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${RSC_BENCH_BUILD:-$root/build}
case $build in /*) ;; *) build=$root/$build ;; esac
shared=${RSC_SHARED_DIR:-$root/../shared}
corpus=$shared/corpus
[ -f "$corpus/urls-index.tsv" ] || { echo "bench/js/run.sh: no corpus at $corpus" >&2; exit 2; }
[ -x "$build/robotsc" ] || { echo "bench/js/run.sh: no $build/robotsc (set RSC_BENCH_BUILD)" >&2; exit 2; }
tsv=${RSC_BENCH_LANG_TSV:-$build/results/lang/js.tsv}
mkdir -p "$(dirname "$tsv")"
# The corpus median list by URL count, ties by name (as bench/issue36.sh).
jobs=$(mktemp)
trap 'rm -f "$jobs"' EXIT
awk -F'\t' -v c="$corpus" -f "$root/bench/jobs.awk" "$corpus/urls-index.tsv" >"$jobs"
nj=$(wc -l <"$jobs")
list=$(awk -F'\t' '{ n = 0; while ((getline l < $3) > 0) if (l != "") n++; close($3); print n "\t" $1 }' "$jobs" |
    sort -t"$(printf '\t')" -k1,1n -k2,2 | awk -v m="$nj" 'NR == int((m + 1) / 2) { print $2 }')
echo "== bench/js/lang.sh on $list -> $tsv" >&2
RSC_BENCH_BUILD=$build sh "$root/bench/js/lang.sh" "$tsv" "$corpus" "$list"
if [ "${RSC_BENCH_QUICK:-0}" = 1 ]; then
    more="--n 40 --rounds 21"
else
    more=""
fi
echo "== bench/js/bench.mjs" >&2
# shellcheck disable=SC2086
node "$root/bench/js/bench.mjs" --corpus "$corpus" --cli "$build/robotsc" --lang "$tsv" \
    --tsv "$build/results/js.tsv" $more >/dev/null
echo "bench/JS.md written; rows: $tsv" >&2
