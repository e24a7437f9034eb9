#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kill -9 of `robotsc store build` at random points, then reopen: every
# record verifies, the record count agrees with the listing, no committed
# origin is lost, and a final build completes to the right verdicts.
# Between runs some files change, so kills also land in replacements.
set -u
R=$1; ROUNDS=${2:-10}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
N=3000
L=(a b c d e f g)
mkdir -p "$T/d"
gen() { # gen VERSION: (re)writes the files; every 10th changes with VERSION
  local v=$1 i
  for ((i = 0; i < N; i++)); do
    if [ "$v" = 0 ] || [ $((i % 10)) = $((v % 10)) ]; then
      {
        printf 'User-agent: *\nDisallow: /p%d/v%d\n' "$i" "$v"
        for ((k = 0; k < i % 40; k++)); do printf 'Disallow: /x%d/%d*y\n' "$k" "$i"; done
        printf '\nUser-agent: Bot%s\nDisallow: /\n' "${L[i % 7]}"
      } >"$T/d/h$i.example.txt"
    fi
  done
}
gen 0
DB=$T/s.db
: >"$T/prev"
killed=0
for ((round = 1; round <= ROUNDS; round++)); do
  "$R" store build "$DB" "$T/d" -j1 --batch 25 >"$T/out" 2>"$T/err" &
  pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 300 + 10)))"
  if kill -9 "$pid" 2>/dev/null; then killed=$((killed+1)); fi
  wait "$pid" 2>/dev/null
  run_rc=0
  "$R" store list "$DB" --verify >"$T/verify" 2>&1 || run_rc=$?
  [ -e "$DB" ] || { ok; continue; } # killed before the file was created
  grep -q ', 0 damaged' "$T/verify" && [ "$run_rc" = 0 ] && ok || { bad "round $round: damaged records"; cat "$T/verify"; }
  "$R" store list "$DB" | cut -f1 | sort >"$T/keys"
  n=$(wc -l <"$T/keys")
  "$R" store stat "$DB" >"$T/stat"
  grep -qx "records: $n" "$T/stat" && ok || { bad "round $round: count $n vs $(head -1 "$T/stat")"; }
  grep -q "records: $n verified" "$T/verify" && ok || bad "round $round: verify count"
  # Nothing committed before is lost.
  lost=$(comm -23 "$T/prev" "$T/keys" | wc -l)
  [ "$lost" = 0 ] && ok || bad "round $round: $lost committed origins lost"
  cp "$T/keys" "$T/prev"
  gen "$round"
done
echo "killed $killed of $ROUNDS builds"
# A complete run afterwards: every origin present and right.
"$R" store build "$DB" "$T/d" -j2 >"$T/out" 2>"$T/err" && ok || { bad "final build"; cat "$T/out" "$T/err"; }
grep -q "failed: 0" "$T/out" && ok || bad "final build failures"
"$R" store stat "$DB" | grep -qx "records: $N" && ok || bad "final count"
for ((i = 0; i < N; i += 37)); do
  for a in Googlebot "Bot${L[i % 7]}" Botz; do
    for u in "https://h$i.example/p$i/v0" "https://h$i.example/p$i/v$ROUNDS" "https://h$i.example/x3/${i}zzy"; do
      want=$("$R" check --agent "$a" "$T/d/h$i.example.txt" "$u")
      got=$("$R" store check "$DB" --agent "$a" "$u")
      [ "$got" = "$want" ] && ok || bad "$a $u: '$got' != '$want'"
    done
  done
done
echo "store_crash: $pass passed, $fail failed"
[ "$fail" = 0 ]
