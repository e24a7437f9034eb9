#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzing campaign: builds the libFuzzer targets with clang (ASan+UBSan) and
# runs each for SECONDS (default 60) on seeds made from ../shared
# (conformance bodies, a corpus sample, compiled blobs for the loader).
# Usage: bash tests/fuzz/campaign.sh [SECONDS] [TARGET...]
# (JOBS=N: build with N jobs; FUZZ_BUILD=DIR: build directory, default
# build-fuzz; only the fuzz targets asked for are built.)
# New crashes land in build-fuzz/crashes/<target>/; copy a minimised one to
# tests/fuzz/regress/<target>/ so ctest replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
targets=${*:-"parse roundtrip load url diff"}
. cli/setup.sh "clang libclang-rt-14-dev"
B=${FUZZ_BUILD:-build-fuzz}
CC=clang cmake -S . -B $B $GEN -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRSC_BUILD_FUZZ=ON -DRSC_SANITIZE=ON >/dev/null
cmake --build $B ${JOBS:+-j$JOBS} --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done) >/dev/null
SH=${RSC_SHARED_DIR:-../shared}
seeds=$B/seeds; mkdir -p $seeds
if [ ! -d $seeds/parse ]; then
  mkdir -p $seeds/parse $seeds/roundtrip $seeds/load $seeds/url
  if [ -d "$SH/conformance" ]; then
    python3 - "$SH/conformance" "$seeds" <<'PY'
import base64, sys, os
conf, out = sys.argv[1], sys.argv[2]
n = 0
for name in ("google_cases.tsv", "google_extra_cases.tsv"):
    for line in open(os.path.join(conf, name), encoding="latin-1"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5: continue
        body = base64.b64decode(f[1]); n += 1
        open(f"{out}/parse/c{n}", "wb").write(body)
        open(f"{out}/roundtrip/c{n}", "wb").write(b"\0" + body[:8000])
        open(f"{out}/load/c{n}", "wb").write(b"T\x07" + body)
        open(f"{out}/url/c{n}", "wb").write(f[3].encode("latin-1"))
PY
  fi
  # Blobs as they are (format 2): the golden ones; regress/load adds damaged ones.
  cp tests/golden/*.rbc $seeds/load/ 2>/dev/null || true
  if [ -d "$SH/corpus/robots" ]; then
    ls "$SH/corpus/robots" | awk 'NR % 40 == 0' | while read -r f; do
      cp "$SH/corpus/robots/$f" "$seeds/parse/$f"
      { printf '\0'; head -c 8000 "$SH/corpus/robots/$f"; } > "$seeds/roundtrip/$f"
    done
    head -n 2000 "$SH"/corpus/urls/*.txt 2>/dev/null | grep -v '^==>' | awk 'NR % 20 == 0' | \
      while read -r u; do printf '%s' "$u" > "$seeds/url/u$RANDOM$RANDOM"; done
  fi
fi
# diff: two files in one input (tests/fuzz/fuzz_diff.c); a body alone is
# diffed against itself with one rule flipped
if [ ! -d $seeds/diff ]; then
  mkdir -p $seeds/diff
  for f in $seeds/roundtrip/*; do
    [ -f "$f" ] && head -c 4001 "$f" > "$seeds/diff/$(basename "$f")"
  done
  # without ../shared, the regression inputs alone
  cp tests/fuzz/regress/diff/* $seeds/diff/ 2>/dev/null || true
fi
for t in $targets; do
  mkdir -p $B/crashes/$t $B/work/$t
  cp -n tests/fuzz/regress/$t/* $B/work/$t/ 2>/dev/null || true
  echo "== fuzz_$t for ${secs}s"
  $B/tests/fuzz/fuzz_$t -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix=$B/crashes/$t/ -print_final_stats=1 $B/work/$t $seeds/$t 2>&1 | \
    grep -E '^(stat::|INFO: Seed|#[0-9]+ *DONE|==[0-9]+==ERROR|SUMMARY)' || true
  if ls $B/crashes/$t/* >/dev/null 2>&1; then echo "fuzz_$t: CRASH inputs in $B/crashes/$t"; exit 1; fi
done
