#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `robotsc fetch --store DB URL...` against tests/crawl/server.py (run by
# tests/crawl/with_server.sh): many origins at once, the status policy,
# conditional GET (ETag, Last-Modified: 304 refreshes the expiry, the blob
# stays), fresh records skipped, the last good copy kept while the server
# fails. Only 127.0.0.1 is contacted.
set -u
R=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
port() { awk -v s="$1" '$1==s{print $2}' "$RSC_TEST_PORTS"; }
base() { echo "http://127.0.0.1:$(port "$1")"; }
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
has() { grep -qF -- "$2" "$1" && ok || { bad "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }
eq() { [ "$1" = "$2" ] && ok || bad "$3: '$1' != '$2'"; }
verdict() { grep -qxF "$1"$'\t'"$2" "$T/out" && ok || { bad "want '$1 $2'"; sed 's/^/  | /' "$T/out"; }; }
# line ORIGIN: the output line of an origin
line() { grep -F "$(base "$1")"$'\t' "$T/out"; }
requests() { grep -c "^in"$'\t'"$1"$'\t/robots.txt' "$RSC_TEST_LOG"; }
DB=$T/f.db
NOW=1800000000

run "$R" fetch --store "$DB" --help
eq "$rc" 0 "help"; has "$T/out" "conditional GET"
run "$R" fetch --store "$DB" --parallel 0 "$(base ok)/"
eq "$rc" 2 "--parallel 0"
run "$R" fetch --store "$DB" mailto:x@y.example
eq "$rc" 2 "no robots.txt"

# ---- many origins at once ----
ALL=(ok etag lm flip redir2 notfound unavail toomany slow1 slow2 slow3 slow4 slow5 slow6)
args=()
for s in "${ALL[@]}"; do args+=("$(base "$s")/page/$s" "$(base "$s")/other"); done
run "$R" fetch --store "$DB" --now $NOW --parallel 16 "${args[@]}"
eq "$rc" 0 "first fetch"; cat "$T/err"
eq "$(wc -l <"$T/out")" "${#ALL[@]}" "one line per origin"
has "$T/out" "$(base ok)"$'\tHTTP 200\tparse'
has "$T/out" "$(base notfound)"$'\tHTTP 404\tallow-all'
has "$T/out" "$(base unavail)"$'\tHTTP 503\tdisallow-all'
has "$T/out" "$(base toomany)"$'\tHTTP 429\tdisallow-all'
has "$T/out" "$(base redir2)"$'\tHTTP 200\tparse'
for s in "${ALL[@]}"; do eq "$(requests "$s")" 1 "$s fetched once"; done
# The six slow origins overlapped: all arrived before the first answered.
first_out=$(grep -n $'^out\tslow' "$RSC_TEST_LOG" | head -1 | cut -d: -f1)
last_in=$(grep -n $'^in\tslow' "$RSC_TEST_LOG" | tail -1 | cut -d: -f1)
[ -n "$first_out" ] && [ "$last_in" -lt "$first_out" ] && ok || bad "slow transfers did not overlap"
run "$R" store check "$DB" --agent Bot --now $((NOW + 1)) "$(base ok)/private/x" "$(base ok)/x" "$(base notfound)/x" \
  "$(base unavail)/x" "$(base redir2)/redirected" "$(base slow3)/slow3" "$(base etag)/etag-v1" "$(base lm)/lm"
verdict disallow "$(base ok)/private/x"; verdict allow "$(base ok)/x"; verdict allow "$(base notfound)/x"
verdict disallow "$(base unavail)/x"; verdict disallow "$(base redir2)/redirected"
verdict disallow "$(base slow3)/slow3"; verdict disallow "$(base etag)/etag-v1"; verdict disallow "$(base lm)/lm"
run "$R" store get "$DB" "$(base etag)"
has "$T/out" 'etag: "v1"'
has "$T/out" "expires: "; has "$T/out" "($((NOW + 600)))"   # max-age=600
run "$R" store get "$DB" "$(base redir2)"
has "$T/out" "source: $(base redir2)/final"

# ---- fresh records are not fetched again ----
run "$R" fetch --store "$DB" --now $((NOW + 10)) "$(base ok)/" "$(base etag)/"
has "$T/out" "$(base ok)"$'\tfresh'
eq "$(requests ok)" 1 "fresh: no request"

# ---- conditional GET ----
# (lm's record is fresh for 24 h: --force revalidates it all the same)
run "$R" fetch --store "$DB" --now $((NOW + 700)) --force "$(base etag)/" "$(base lm)/"
eq "$rc" 0 "revalidate"
has "$T/out" "$(base etag)"$'\tHTTP 304\tnot modified: expiry refreshed'
has "$T/out" "$(base lm)"$'\tHTTP 304\tnot modified: expiry refreshed'
grep -qF $'in\tetag\t/robots.txt\t"v1"' "$RSC_TEST_LOG" && ok || bad "If-None-Match not sent"
grep -qF $'in\tlm\t/robots.txt\t-\tTue, 01 Oct 2024 10:00:00 GMT' "$RSC_TEST_LOG" && ok || bad "If-Modified-Since not sent"
run "$R" store get "$DB" "$(base etag)"
has "$T/out" "($((NOW + 700 + 600)))"   # the new lifetime
has "$T/out" "fetched_at: "; has "$T/out" "($NOW)"   # the blob's fetch time stays
run "$R" store check "$DB" --agent Bot --now $((NOW + 800)) "$(base etag)/etag-v1"
verdict disallow "$(base etag)/etag-v1"
# A changed resource: 200 with a new ETag, recompiled.
echo 2 >"$RSC_TEST_STATE/etag.version"
run "$R" fetch --store "$DB" --now $((NOW + 2000)) --report-changes "$(base etag)/"
has "$T/out" "$(base etag)"$'\tHTTP 200\tparse'
# --report-changes: what the new rules change against the record replaced
has "$T/out" "changes $(base etag):"
has "$T/out" "different"
run "$R" store check "$DB" --agent Bot --now $((NOW + 2001)) "$(base etag)/etag-v1" "$(base etag)/etag-v2"
verdict allow "$(base etag)/etag-v1"; verdict disallow "$(base etag)/etag-v2"
run "$R" store get "$DB" "$(base etag)"
has "$T/out" 'etag: "v2"'

# ---- last good copy while the server fails ----
touch "$RSC_TEST_STATE/flip.fail"
run "$R" fetch --store "$DB" --now $((NOW + 1000)) "$(base flip)/"
has "$T/out" "$(base flip)"$'\tHTTP 503\tkept copy'
run "$R" store check "$DB" --agent Bot --now $((NOW + 1001)) "$(base flip)/flip" "$(base flip)/x"
verdict disallow "$(base flip)/flip"; verdict allow "$(base flip)/x"
run "$R" store get "$DB" "$(base flip)"
has "$T/out" "status: 200"; has "$T/out" "error_since: "
# --force fetches a fresh record anyway; without a copy a 503 disallows all.
run "$R" fetch --store "$DB" --now $((NOW + 1002)) --force "$(base unavail)/"
has "$T/out" "$(base unavail)"$'\tHTTP 503\tdisallow-all'
eq "$(requests unavail)" 2 "--force"

# ---- a timeout, URLs from standard input ----
printf '%s\n' "$(base stall)/a" "$(base ok)/b" | "$R" fetch --store "$DB" --now $((NOW + 90000)) --timeout 1 >"$T/out" 2>"$T/err"
eq "$?" 0 "stdin"
has "$T/out" "$(base stall)"$'\ttimeout: '
has "$T/out" "$(base stall)"$'\ttimeout'
grep -F "$(base stall)" "$T/out" | grep -q 'disallow-all' && ok || bad "timeout: disallow-all"
has "$T/out" "$(base ok)"$'\tHTTP 200\tparse'
run "$R" store list "$DB" --verify
has "$T/out" "records: $((${#ALL[@]} + 1)) verified, 0 damaged"   # + stall
# `robotsc fetch` without --store is unchanged.
run "$R" fetch "$(base ok)/" -o "$T/one.rbc"
eq "$rc" 0 "plain fetch"; has "$T/out" "policy: parse"

# ---- a 304 renews the stored lifetime (RFC 9111 4.3.4) ----
# cc304: 200 with max-age=1000; its 304s carry no Cache-Control unless
# STATE/cc304.maxage says so.
DB2=$T/g.db; N2=1900000000
expires_is() {  # expires_is WANT: the `store get` output's expiry
  grep '^expires: ' "$T/out" | grep -qF "($1)" && ok || { bad "expires: want $1"; sed 's/^/  | /' "$T/out"; }
}
refetch304() {  # refetch304 AT: a forced revalidation of cc304 at AT, then its record
  run "$R" fetch --store "$DB2" --now "$1" --force "$(base cc304)/"
  eq "$rc" 0 "304 at $1"; has "$T/out" "$(base cc304)"$'\tHTTP 304\tnot modified: expiry refreshed'
  run "$R" store get "$DB2" "$(base cc304)"
}
run "$R" fetch --store "$DB2" --now $N2 "$(base cc304)/"
has "$T/out" "$(base cc304)"$'\tHTTP 200\tparse'
run "$R" store get "$DB2" "$(base cc304)"; expires_is $((N2 + 1000))
# No Cache-Control: the stored 1000 s again, not the 24 h default, and no growth.
refetch304 $((N2 + 100)); expires_is $((N2 + 100 + 1000))
grep '^fetched_at: ' "$T/out" | grep -qF "($N2)" && ok || bad "304: the blob's fetch time stays"
refetch304 $((N2 + 200)); expires_is $((N2 + 200 + 1000))
refetch304 $((N2 + 5000)); expires_is $((N2 + 5000 + 1000))
# A 304 with max-age=120: that lifetime, and it becomes the stored one.
echo 120 >"$RSC_TEST_STATE/cc304.maxage"
refetch304 $((N2 + 6000)); expires_is $((N2 + 6000 + 120))
rm "$RSC_TEST_STATE/cc304.maxage"
refetch304 $((N2 + 7000)); expires_is $((N2 + 7000 + 120))
run "$R" store check "$DB2" --agent Bot --now $((N2 + 7001)) "$(base cc304)/cc304"
verdict disallow "$(base cc304)/cc304"

# ---- a body that is not a robots.txt (rsc_classify's rule) ----
# body: serves STATE/body.bin. A blob or damaged blob is an error and the
# record stays; binary too, unless --text.
run "$R" fetch --store "$DB2" --now $N2 "$(base body)/"
has "$T/out" "$(base body)"$'\tHTTP 200\tparse'
printf 'User-agent: *\nAllow: /\n' >"$T/allow.txt"
"$R" compile "$T/allow.txt" -o "$RSC_TEST_STATE/body.bin" 2>/dev/null && ok || bad "compile allow.txt"
cp "$RSC_TEST_STATE/body.bin" "$T/allow.rbc"
still_old() {  # the record still answers as ROBOTS_OK does
  run "$R" store check "$DB2" --agent Bot --now $((N2 + 1)) "$(base body)/private/x" "$(base body)/x"
  verdict disallow "$(base body)/private/x"; verdict allow "$(base body)/x"
}
n0=$(requests body)
run "$R" fetch --store "$DB2" --now $N2 --force "$(base body)/"
eq "$rc" 2 "blob body"; has "$T/err" "$(base body)/robots.txt: body: robotsc blob, not read as a robots.txt"
eq "$(requests body)" $((n0 + 1)) "blob body fetched"
still_old
run "$R" fetch --store "$DB2" --now $N2 --force --text "$(base body)/"
eq "$rc" 2 "blob body, --text"; still_old
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[1] ^= 4; open(sys.argv[2], "wb").write(b)' \
  "$T/allow.rbc" "$RSC_TEST_STATE/body.bin"
run "$R" fetch --store "$DB2" --now $N2 --force "$(base body)/"
eq "$rc" 2 "damaged blob body"; has "$T/err" "body: damaged robotsc blob"; has "$T/err" "(--text reads it as one)"
still_old
printf 'User-agent: *\nAllow: /\n' | gzip -c >"$RSC_TEST_STATE/body.bin"
run "$R" fetch --store "$DB2" --now $N2 --force "$(base body)/"
eq "$rc" 2 "binary body"; has "$T/err" "body: binary content, not read as a robots.txt (--text reads it as one)"
still_old
run "$R" fetch --store "$DB2" --now $N2 --force --text "$(base body)/"
eq "$rc" 0 "binary body, --text"; has "$T/out" "$(base body)"$'\tHTTP 200\tparse'
run "$R" store check "$DB2" --agent Bot --now $((N2 + 1)) "$(base body)/private/x"
verdict allow "$(base body)/private/x"   # the gzip bytes read as a robots.txt: no rules

echo "store_fetch: $pass passed, $fail failed"
[ "$fail" = 0 ]
