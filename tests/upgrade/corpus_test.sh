#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The upgrade on the corpus, against robotsc 1.0.0 itself. 1.0.0's CLI is
# built from `git archive 3a05c31` (the last commit that writes format 4)
# into WORK, once. Then:
# 1. the URL lists (every STEP-th list's URLs under the sanitizers): 1.0.0's `store build` compiles each list's robots.txt
#    (robots_same_crawl_2019 of urls-index.tsv) into a format-4 store;
#    `robotsc store upgrade` rebuilds it in place; every record must then be
#    byte for byte the current compile of its file (test_upgrade
#    --check-store), and every URL of its list must get, for googlebot and
#    for '*' (an agent no group names), 1.0.0's verdict and deciding line
#    (1.0.0's check --json on the file against check --json on the
#    upgraded blob);
# 2. every file of corpus/robots (20,401; every STEP-th under the
#    sanitizers, which are several times slower): the same store build,
#    store upgrade and byte comparison, with the time of each step printed.
# Skips (77) when the corpus, git or the commit is missing.
# Usage: corpus_test.sh ROBOTSC TEST_UPGRADE SOURCE_DIR CORPUS WORK [STEP]
set -u
R=$1
T=$2
SRC=$3
C=$4
W=$5
STEP=${6:-1}
if [ ! -d "$C/robots" ] || [ ! -f "$C/urls-index.tsv" ]; then
  echo "upgrade_corpus: skipped: no corpus at $C"
  exit 77
fi
if ! command -v git > /dev/null 2>&1 || ! git -C "$SRC" cat-file -e '3a05c31^{commit}' 2> /dev/null; then
  echo "upgrade_corpus: skipped: $SRC has no git history with commit 3a05c31 (robotsc 1.0.0)"
  exit 77
fi
mkdir -p "$W"
OLD=$W/rsc100/build/robotsc
if [ ! -x "$OLD" ] || [ "$("$OLD" --version 2>/dev/null)" != "robotsc 1.0.0" ]; then
  echo "upgrade_corpus: building robotsc 1.0.0 (3a05c31) in $W/rsc100"
  rm -rf "$W/rsc100"
  mkdir -p "$W/rsc100/src"
  git -C "$SRC" archive 3a05c31 | tar -x -C "$W/rsc100/src" || exit 2
  gen=
  command -v ninja > /dev/null 2>&1 && gen="-G Ninja"
  # shellcheck disable=SC2086
  cmake -S "$W/rsc100/src" -B "$W/rsc100/build" $gen -DCMAKE_BUILD_TYPE=Release -DRSC_BUILD_TESTS=OFF \
    > "$W/rsc100/configure.log" 2>&1 &&
    cmake --build "$W/rsc100/build" --target robotsc-cli -j 2 > "$W/rsc100/build.log" 2>&1 ||
    { echo "upgrade_corpus: building 1.0.0 failed (see $W/rsc100/*.log)"; exit 2; }
fi
fails=0
bad() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
tab=$(printf '\t')

# ---- 1. the URL lists -----------------------------------------------------
rm -rf "$W/lists" && mkdir -p "$W/lists"
# key (one per list, so files that two lists share are compiled once each)
awk -F '\t' -v c="$C" 'NR > 1 && $5 != "" && $5 != "-" { printf "https://l%d.example\t%s/%s\t%s/%s\n", NR, c, $5, c, $1 }' \
  "$C/urls-index.tsv" > "$W/lists/lists3.tsv"
cut -f1,2 "$W/lists/lists3.tsv" > "$W/lists/lists.tsv"
nl=$(wc -l < "$W/lists/lists.tsv")
"$OLD" store build "$W/lists/v4.db" "$W/lists/lists.tsv" --text --no-sync -j 2 > /dev/null 2>&1
[ $? -le 1 ] || bad "1.0.0 store build of the lists"
t0=$(now)
"$R" store upgrade "$W/lists/v4.db" > "$W/lists/upgrade.out" 2>&1 || bad "store upgrade of the lists: $(cat "$W/lists/upgrade.out")"
t1=$(now)
cat "$W/lists/upgrade.out"
"$T" --check-store "$W/lists/v4.db" "$W/lists/lists.tsv" > "$W/lists/check.out" 2>&1 ||
  bad "lists: records are not the current compile: $(grep -m 5 'check failed' "$W/lists/check.out")"
tail -2 "$W/lists/check.out"
urls=0
li=0
while IFS="$tab" read -r key file list; do
  # Under the sanitizers (STEP > 1) every STEP-th list's URLs are compared.
  li=$((li + 1))
  [ $(((li - 1) % STEP)) -eq 0 ] || continue
  "$R" store get "$W/lists/v4.db" "$key" -o "$W/lists/up.rbc" > /dev/null 2>&1 || { bad "$key: store get"; continue; }
  for agent in googlebot '*'; do
    # "allowed line" per URL: 1.0.0 on the file, the current CLI on the upgraded blob
    "$OLD" check --json --text --agent "$agent" "$file" < "$list" 2> /dev/null |
      sed 's/.*"allowed":\([a-z]*\).*"line":\([0-9]*\).*/\1 \2/' > "$W/lists/old"
    "$R" check --json --agent "$agent" "$W/lists/up.rbc" < "$list" 2> /dev/null |
      sed 's/.*"allowed":\([a-z]*\).*"line":\([0-9]*\).*/\1 \2/' > "$W/lists/new"
    n=$(wc -l < "$W/lists/old")
    if [ "$n" -eq 0 ] || ! cmp -s "$W/lists/old" "$W/lists/new"; then
      bad "$file ($list), agent '$agent': verdicts differ from 1.0.0's ($n URLs)"
    fi
    urls=$((urls + n))
  done
done < "$W/lists/lists3.tsv"
echo "upgrade_corpus: $nl URL lists: store upgrade $(secs "$t0" "$t1") s; $urls verdicts (googlebot and '*') equal to 1.0.0's with their deciding lines"

# ---- 2. every file --------------------------------------------------------
rm -rf "$W/all" && mkdir -p "$W/all"
i=0
k=0
for f in "$C"/robots/*; do
  k=$((k + 1))
  [ $((k % STEP)) -eq 0 ] || continue
  i=$((i + 1))
  printf 'https://f%d.example\t%s\n' "$i" "$f"
done > "$W/all/all.tsv"
t0=$(now)
"$OLD" store build "$W/all/v4.db" "$W/all/all.tsv" --text --no-sync -j 2 > "$W/all/build.out" 2>&1
[ $? -le 1 ] || bad "1.0.0 store build of every file: $(tail -3 "$W/all/build.out")"
t1=$(now)
"$R" store upgrade "$W/all/v4.db" > "$W/all/upgrade.out" 2>&1 || bad "store upgrade of every file: $(tail -3 "$W/all/upgrade.out")"
t2=$(now)
cat "$W/all/upgrade.out"
"$T" --check-store "$W/all/v4.db" "$W/all/all.tsv" > "$W/all/check.out" 2>&1 ||
  bad "every file: records are not the current compile: $(grep -m 5 'check failed' "$W/all/check.out")"
tail -2 "$W/all/check.out"
t3=$(now)
echo "upgrade_corpus: $i files (every $STEP of $k): 1.0.0 store build $(secs "$t0" "$t1") s, store upgrade $(secs "$t1" "$t2") s, byte comparison with the current compile $(secs "$t2" "$t3") s"
rm -rf "$W/lists" "$W/all"
[ "$fails" -eq 0 ] && echo "upgrade_corpus: passed" || echo "upgrade_corpus: $fails failures"
[ "$fails" -eq 0 ]
