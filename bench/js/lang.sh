#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The JavaScript rows of the per-language check cost table, as bench/run.sh
# (step 8, bench/issue36.sh) calls it:
#     sh bench/js/lang.sh OUT.tsv CORPUS_DIR LIST_NAME
# LIST_NAME's URLs are CORPUS_DIR/urls/LIST_NAME.txt, its robots.txt the
# one bench/jobs.awk picks. C is $RSC_BENCH_BUILD/robotsc (else
# build/robotsc), measured by bench/js/lang.mjs in the same run, in turns
# with JavaScript, each a median of short rounds (one pass over the list).
# RSC_BENCH_QUICK=1: fewer turns and rounds.
set -eu
[ $# -eq 3 ] || { echo "usage: sh bench/js/lang.sh OUT.tsv CORPUS_DIR LIST_NAME" >&2; exit 2; }
out=$1 corpus=$2 list=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=${RSC_BENCH_BUILD:-$root/build}/robotsc
[ -x "$cli" ] || { echo "bench/js/lang.sh: no $cli (set RSC_BENCH_BUILD)" >&2; exit 2; }
command -v node >/dev/null 2>&1 || { echo "bench/js/lang.sh: node missing" >&2; exit 2; }
row=$(awk -F'\t' -v c="$corpus" -f "$root/bench/jobs.awk" "$corpus/urls-index.tsv" |
    awk -F'\t' -v l="$list" '$1 == l { print; exit }')
[ -n "$row" ] || { echo "bench/js/lang.sh: no list $list in $corpus/urls-index.tsv" >&2; exit 2; }
robots=$(printf '%s\n' "$row" | cut -f2)
urls=$(printf '%s\n' "$row" | cut -f3)
if [ "${RSC_BENCH_QUICK:-0}" = 1 ]; then
    more="--turns 3 --rounds 201"
else
    more="--turns 7 --rounds 501"
fi
# shellcheck disable=SC2086
exec node "$root/bench/js/lang.mjs" --robots "$robots" --urls "$urls" --cli "$cli" --out "$out" \
    --list "$list" $more
