#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `robotsc store build` on the shared corpus directory (as https and as http
# origins), then `robotsc store check` on every crawled URL list gives the
# same verdicts as `robotsc check` on the site's file, line for line. URLs
# whose origin has no file in the corpus must come out `unknown`.
# usage: store_corpus.sh ROBOTSC CORPUS_DIR [STEP]  (STEP: every STEP-th
# list and every (5*STEP)-th other file, for slow sanitizer builds)
set -u
R=$1; C=$2; STEP=${3:-1}
if [ ! -d "$C/robots" ] || [ ! -d "$C/urls" ]; then
  echo "corpus not found at $C: skipping"; exit 77
fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

SRC=$C/robots
if [ "$STEP" != 1 ]; then
  # A sample: the files of every STEP-th list plus a slice of the rest.
  SRC=$T/sample; mkdir -p "$SRC"
  i=0
  for f in "$C"/urls/*.txt; do
    [ $((i % STEP)) = 0 ] && [ -f "$C/robots/$(basename "$f")" ] && ln -s "$C/robots/$(basename "$f")" "$SRC/"
    i=$((i+1))
  done
  i=0
  for f in "$C"/robots/*.txt; do
    [ $((i % (5 * STEP))) = 0 ] && ln -sf "$f" "$SRC/"
    i=$((i+1))
  done
fi
nfiles=$(ls "$SRC" | grep -c '\.txt$')
# Without --text, the files that are not text (UTF-16, gzip, images: the
# corpus has a few) fail as sources, the rest compile; exit 1.
"$R" store build "$T/strict.db" "$SRC" >"$T/build" 2>"$T/err"; rc=$?
nbin=$(sed -n 's/^  failed: \([0-9]*\) not read as a robots.txt.*/\1/p' "$T/build")
grep -q "compiled: $((nfiles - ${nbin:-0})), written: $((nfiles - ${nbin:-0})), unchanged: 0, failed: ${nbin:-0}$" "$T/build" &&
  { [ "${nbin:-0}" = 0 ] && [ $rc = 0 ] || [ $rc = 1 ]; } && pass=$((pass+1)) || { bad "build without --text (rc $rc)"; cat "$T/build"; }
# With --text every file is read as Google reads it, as `check --text`.
for scheme in https http; do
  "$R" store build "$T/c.db" "$SRC" --scheme $scheme --text >"$T/build" 2>"$T/err"
  rc=$?
  grep -q "sources: $nfiles " "$T/build" && [ "$rc" = 0 ] && pass=$((pass+1)) || { bad "build $scheme (rc $rc)"; cat "$T/build" "$T/err"; }
done
"$R" store stat "$T/c.db" >"$T/stat"
grep -qx "records: $((2 * nfiles))" "$T/stat" && pass=$((pass+1)) || { bad "records"; cat "$T/stat"; }

lists=0; urls=0; i=0
for f in "$C"/urls/*.txt; do
  [ $((i % STEP)) = 0 ] || { i=$((i+1)); continue; }
  i=$((i+1))
  h=$(basename "$f" .txt)
  for agent in Googlebot FooBot; do
    "$R" store check "$T/c.db" --agent $agent <"$f" >"$T/got" 2>"$T/err"
    if [ -f "$C/robots/$h.txt" ] && [ -e "$SRC/$h.txt" ]; then
      "$R" check --text --agent $agent "$C/robots/$h.txt" <"$f" >"$T/want" 2>/dev/null
    else
      # No file for this site: every URL whose host has none is unknown;
      # the others are checked against their own host's file.
      : >"$T/want"
      awk 'NF { h = $0; sub(/^[A-Za-z]+:\/\//, "", h); sub(/[\/?#].*$/, "", h); sub(/^.*@/, "", h);
                sub(/:.*$/, "", h); print tolower(h) "\t" $0 }' "$f" >"$T/hosts"
      while IFS=$'\t' read -r uh u; do
        if [ -e "$SRC/$uh.txt" ]; then
          "$R" check --text --agent $agent "$SRC/$uh.txt" "$u" >>"$T/want" 2>/dev/null
        else
          printf 'unknown\t%s\n' "$u" >>"$T/want"
        fi
      done <"$T/hosts"
    fi
    if cmp -s "$T/got" "$T/want"; then
      pass=$((pass+1))
    else
      bad "$h ($agent): store check differs from robotsc check"; diff "$T/want" "$T/got" | head -5
    fi
  done
  lists=$((lists+1)); urls=$((urls + $(grep -c . "$f")))
done
echo "store_corpus: $nfiles files x 2 schemes, $lists URL lists ($urls URLs) x 2 agents: $pass passed, $fail failed"
[ "$fail" = 0 ]
