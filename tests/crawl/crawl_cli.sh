#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `robotsc url` and `robotsc fetch` end to end, against the local server
# (run through with_server.sh: RSC_TEST_PORTS, RSC_TEST_LOG, RSC_TEST_STATE).
# Only 127.0.0.1 is contacted.
set -u
R=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
port() { awk -v s="$1" '$1==s{print $2}' "$RSC_TEST_PORTS"; }
base() { echo "http://127.0.0.1:$(port "$1")"; }
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
expect_rc() { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] && ok || { bad "exit $rc (want $want): $*"; cat "$T/err"; }; }
has() { grep -qF -- "$2" "$1" && ok || { bad "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }
hasnt() { grep -qF -- "$2" "$1" && { bad "$1 has '$2'"; sed 's/^/  | /' "$1"; } || ok; }
meta() { sed -n "s/^$2=//p" "$T/$1.rbc.meta"; }
eq() { [ "$1" = "$2" ] && ok || bad "$3: '$1' != '$2'"; }
# fetch SCENARIO [ARGS...]: fetch the robots.txt of a page of SCENARIO into $T/SCENARIO.rbc
fetch() { local s=$1; shift; run "$R" fetch "$(base "$s")/some/page" -o "$T/$s.rbc" "$@"; }
verdict() { grep -qxF "$1"$'\t'"$2" "$T/out" && ok || { bad "want '$1 $2'"; sed 's/^/  | /' "$T/out"; }; }

# ---- robotsc url ----
expect_rc 0 "$R" url --help
expect_rc 0 "$R" url 'HTTPS://User:pw@WWW.Exämple.COM:443/folder/robots.txt?x#y'
eq "$(cat "$T/out")" $'https://www.xn--exmple-cua.com/robots.txt\nhttps://www.xn--exmple-cua.com' "url idn"
expect_rc 0 "$R" url 'http://example.com:8181/a/b'
eq "$(cat "$T/out")" $'http://example.com:8181/robots.txt\nhttp://example.com:8181' "url port"
expect_rc 0 "$R" url 'http://[0::1]:8080/'
eq "$(sed -n 2p "$T/out")" 'http://[::1]:8080' "url ipv6"
expect_rc 0 "$R" url 'ftp://Example.com:21/pub'
eq "$(cat "$T/out")" $'ftp://example.com/robots.txt\nftp://example.com' "url ftp"
for u in 'mailto:a@example.com' 'data:text/plain,x' '/relative/path' 'example.com/x' 'http:///x' 'http://' \
         'https://:443/' 'http://example.com:70000/' 'http://[::1/' ''; do
  expect_rc 2 "$R" url "$u"
  [ -s "$T/out" ] && bad "url '$u' printed something" || ok
  grep -q '^robotsc url: ' "$T/err" && ok || bad "url '$u': message"
done
expect_rc 2 "$R" url
expect_rc 2 "$R" url a b

# ---- fetch: usage errors ----
expect_rc 0 "$R" fetch --help
expect_rc 2 "$R" fetch
expect_rc 2 "$R" fetch mailto:x@example.com
has "$T/err" "no robots.txt"
expect_rc 2 "$R" fetch "$(base ok)/" --timeout 0
expect_rc 2 "$R" fetch "$(base ok)/" --timeout abc
expect_rc 2 "$R" fetch "$(base ok)/" --bogus
expect_rc 2 "$R" fetch "$(base ok)/" --profile nope
expect_rc 2 "$R" fetch "$(base ok)/" -o "$T/no/such/dir/x.rbc"

# ---- 200 ----
B=$(base ok)
fetch ok --agent Other --check "$B/private/a" "$B/public" --check "$B/"
eq "$rc" 0 "ok rc"; cat "$T/err"
has "$T/out" "outcome: HTTP 200"
has "$T/out" "policy: parse"
has "$T/out" "robots_url: $B/robots.txt"
verdict disallow "$B/private/a"; verdict allow "$B/public"; verdict allow "$B/"
eq "$(meta ok origin)" "$B" "meta origin"
eq "$(meta ok robots_url)" "$B/robots.txt" "meta robots_url"
eq "$(meta ok final_url)" "$B/robots.txt" "meta final_url"
eq "$(meta ok status)" 200 "meta status"
eq "$(meta ok policy)" parse "meta policy"
eq "$(meta ok has_copy)" 1 "meta has_copy"
eq "$(meta ok error_since)" 0 "meta error_since"
eq "$(meta ok bytes)" 65 "meta bytes"
eq "$(( $(meta ok expires) - $(meta ok fetched_at) ))" 86400 "default lifetime 24 h"
now=$(date +%s); fa=$(meta ok fetched_at)
[ "$fa" -le "$now" ] && [ "$fa" -gt $((now - 3600)) ] && ok || bad "fetched_at $fa is now"
# The blob is an ordinary blob for `robotsc check`.
expect_rc 1 "$R" check --agent Other "$T/ok.rbc" /private/a
expect_rc 1 "$R" check --agent FooBot "$T/ok.rbc" /anything
expect_rc 0 "$R" check --agent Other "$T/ok.rbc" /public
# Without -o: nothing written, checks still work; the default agent is the
# product token of --user-agent.
run "$R" fetch "$B/" --user-agent "FooBot/2.0" --check "$B/x"
eq "$rc" 0 "no -o rc"; verdict disallow "$B/x"
run "$R" fetch "$B/" --user-agent "Other/2.0" --check "$B/x"
verdict allow "$B/x"
# A URL of another origin is checked, with a warning.
run "$R" fetch "$B/" --agent Other --check "http://other.example/private/a"
verdict disallow "http://other.example/private/a"; has "$T/err" "governed by http://other.example/robots.txt"
# rfc profile: /robots.txt itself stays allowed even under Disallow: /.
fetch ok --profile rfc --agent FooBot --check "$B/robots.txt" "$B/x"
verdict allow "$B/robots.txt"; verdict disallow "$B/x"; eq "$(meta ok profile)" rfc "meta profile"

# ---- BOM, HTML ----
fetch bom --agent a --check "$(base bom)/bom" "$(base bom)/ok"
eq "$rc" 0 "bom rc"; verdict disallow "$(base bom)/bom"; verdict allow "$(base bom)/ok"
fetch html --agent a --check "$(base html)/" "$(base html)/private"
eq "$rc" 0 "html rc"; has "$T/out" "policy: parse"
verdict allow "$(base html)/"; verdict allow "$(base html)/private"

# ---- redirects: 1..5 followed, 6 treated as 404 ----
for n in 1 2 3 4 5; do
  s=redir$n; b=$(base $s)
  fetch $s --agent a --check "$b/redirected" "$b/x"
  eq "$rc" 0 "$s rc"; has "$T/out" "policy: parse"
  verdict disallow "$b/redirected"; verdict allow "$b/x"
  eq "$(meta $s redirects)" $n "$s redirects"
  eq "$(meta $s final_url)" "$b/final" "$s final_url"
done
b=$(base redir6)
fetch redir6 --agent a --check "$b/redirected"
eq "$rc" 0 "redir6 rc"; has "$T/out" "too many redirects"; has "$T/out" "policy: allow-all"
verdict allow "$b/redirected"; eq "$(meta redir6 policy)" allow-all "redir6 meta"
fetch loop --agent a --check "$(base loop)/x"
has "$T/out" "policy: allow-all"; verdict allow "$(base loop)/x"
fetch redirx --agent Other --check "$(base redirx)/private/a"
has "$T/out" "final_url: $(base ok)/robots.txt"; verdict disallow "$(base redirx)/private/a"

# ---- 4xx: allow all; 429, 5xx, network errors: disallow all ----
for s in notfound gone forbidden; do
  b=$(base $s)
  fetch $s --agent Googlebot --agent FooBot --check "$b/" "$b/private/a"
  eq "$rc" 0 "$s rc"; has "$T/out" "policy: allow-all"
  verdict allow "$b/"; verdict allow "$b/private/a"
  expect_rc 0 "$R" check --agent AnyBot "$T/$s.rbc" /x
done
eq "$(meta notfound status)" 404 "404 meta"; eq "$(meta gone status)" 410 "410 meta"
for s in toomany err500 unavail close; do
  b=$(base $s)
  fetch $s --agent Googlebot --check "$b/" "$b/private/a"
  eq "$rc" 0 "$s rc"; has "$T/out" "policy: disallow-all"
  verdict disallow "$b/"; verdict disallow "$b/private/a"
  [ $s = close ] && has "$T/out" "network error"
  expect_rc 1 "$R" check --agent AnyBot "$T/$s.rbc" /x
  eq "$(meta $s has_copy)" 0 "$s is no good copy"
  [ "$(meta $s error_since)" -gt 0 ] && ok || bad "$s error_since"
  eq "$(( $(meta $s expires) - $(meta $s attempted_at) ))" 900 "$s retried in 15 min"
done
# Disallow-all holds for every agent (no group names any agent, spec F.6.3).
for a in Googlebot FooBot '*' 'x y' ''; do expect_rc 1 "$R" check --exact-agent "$a" "$T/unavail.rbc" /x; done
eq "$(meta toomany status)" 429 "429 meta"; eq "$(meta err500 status)" 500 "500 meta"
eq "$(meta unavail status)" 503 "503 meta"; eq "$(meta close status)" 0 "close meta"
# A stalled server and the timeout.
fetch stall --timeout 1 --agent a --check "$(base stall)/"
eq "$rc" 0 "stall rc"; has "$T/out" "timeout"; has "$T/out" "policy: disallow-all"
verdict disallow "$(base stall)/"
# Nothing listening (port 1 of the loopback).
run "$R" fetch "http://127.0.0.1:1/" -o "$T/refused.rbc" --agent a --check "http://127.0.0.1:1/x"
eq "$rc" 0 "refused rc"; has "$T/out" "network error"; verdict disallow "http://127.0.0.1:1/x"
[ -s "$T/refused.rbc" ] && ok || bad "refused: blob written"

# ---- the 500 KiB cap ----
b=$(base big)
fetch big --agent a --check "$b/early" "$b/late"
eq "$rc" 0 "big rc"; has "$T/out" "512000 bytes"; has "$T/out" "500 KiB cap"
eq "$(meta big bytes)" 512000 "big bytes"; eq "$(meta big truncated)" 1 "big truncated"
verdict disallow "$b/early"; verdict allow "$b/late"
sent=$(awk -F'\t' '$1=="out" && $2=="big"{print $7}' "$RSC_TEST_LOG" | tail -1)
echo "big: the server managed to send $sent of 2097152 bytes before the client stopped reading"
fetch exact --agent a --check "$(base exact)/exact"
eq "$(meta exact bytes)" 512000 "exact bytes"; eq "$(meta exact truncated)" 0 "exact not truncated"
verdict disallow "$(base exact)/exact"

# ---- Cache-Control ----
for c in cc_maxage:3600 cc_nostore:60 cc_nocache:60 cc_long:2592000 cc_multi:7200 cc_bad:86400 \
         cc_small:60 cc_quoted:120; do
  s=${c%%:*}; want=${c#*:}
  fetch $s
  eq "$rc" 0 "$s rc"
  eq "$(( $(meta $s expires) - $(meta $s fetched_at) ))" "$want" "$s lifetime"
done
eq "$(meta cc_multi cache_control)" "public, max-age=7200" "cc_multi header"

# ---- User-Agent header ----
fetch ua --user-agent "CliBot/3.0 (+http://127.0.0.1/)"
grep -qF $'in\tua\t/robots.txt\t-\t-\tCliBot/3.0 (+http://127.0.0.1/)\t' "$RSC_TEST_LOG" && ok || bad "User-Agent sent"
fetch ua
grep -qE $'^in\tua\t/robots.txt\t-\t-\trobotsc/' "$RSC_TEST_LOG" && ok || bad "default User-Agent"

# ---- the last good copy through errors (spec I) ----
b=$(base flip)
t0=1700000000
fetch flip --now $t0 --agent a --check "$b/flip" "$b/x"
has "$T/out" "policy: parse"; verdict disallow "$b/flip"; verdict allow "$b/x"
eq "$(meta flip expires)" $((t0 + 300)) "flip max-age=300"
cp "$T/flip.rbc" "$T/flip.good"
touch "$RSC_TEST_STATE/flip.fail"
fetch flip --now $((t0 + 400)) --agent a --check "$b/flip" "$b/x"
eq "$rc" 0 "flip 503 rc"; has "$T/out" "outcome: HTTP 503"; has "$T/out" "kept copy"
verdict disallow "$b/flip"; verdict allow "$b/x"
cmp -s "$T/flip.rbc" "$T/flip.good" && ok || bad "copy kept unchanged"
eq "$(meta flip policy)" parse "kept policy"; eq "$(meta flip status)" 200 "kept status"
eq "$(meta flip fetched_at)" $t0 "kept fetched_at"; eq "$(meta flip error_since)" $((t0 + 400)) "error_since"
eq "$(meta flip expires)" $((t0 + 400 + 900)) "retry"; has "$T/flip.rbc.meta" "attempt=HTTP 503"
# 40 days later, still failing: still the copy (spec I), error_since unchanged.
fetch flip --now $((t0 + 40 * 86400)) --agent a --check "$b/x"
has "$T/out" "kept copy"; verdict allow "$b/x"; eq "$(meta flip error_since)" $((t0 + 400)) "error_since kept"
rm -f "$RSC_TEST_STATE/flip.fail"
fetch flip --now $((t0 + 41 * 86400))
has "$T/out" "policy: parse"; hasnt "$T/out" "kept copy"
eq "$(meta flip error_since)" 0 "recovered"; eq "$(meta flip fetched_at)" $((t0 + 41 * 86400)) "refetched"
# A stored blob of another origin is never used as the copy.
cp "$T/ok.rbc" "$T/other.rbc"; cp "$T/ok.rbc.meta" "$T/other.rbc.meta"
run "$R" fetch "$(base unavail)/" -o "$T/other.rbc"
has "$T/out" "policy: disallow-all"; hasnt "$T/out" "kept copy"
eq "$(sed -n 's/^origin=//p' "$T/other.rbc.meta")" "$(base unavail)" "origin replaced"
# Errors with no good copy: disallow all again, not kept.
fetch unavail
has "$T/out" "policy: disallow-all"; hasnt "$T/out" "kept copy"

# ---- the options fetch and fetch --store share: one parser, one meaning ----
ver=$("$R" --version | sed 's/^robotsc //')
forms=("plain")
"$R" --help | grep -q '^  store  ' && forms+=("store")
for f in "${forms[@]}"; do
  if [ $f = plain ]; then pre=("$R" fetch "$(base ua)/x" -o "$T/shared.rbc"); else pre=("$R" fetch --store "$T/shared.db" "$(base ua)/x"); fi
  for bad_opt in "--timeout 0|--timeout" "--timeout=abc|--timeout" "--profile=x|unknown profile 'x'" \
                 "--now 12x|--now: Unix seconds, not '12x'" "--user-agent|--user-agent needs a value"; do
    o=${bad_opt%%|*}; msg=${bad_opt#*|}
    # shellcheck disable=SC2086
    expect_rc 2 "${pre[@]}" $o
    has "$T/err" "robotsc fetch: $msg"
  done
  : > "$RSC_TEST_LOG"
  expect_rc 0 "${pre[@]}" --now 1800000000 --profile rfc --timeout 5
  [ $f = plain ] && eq "$(sed -n 's/^profile=//p' "$T/shared.rbc.meta")" rfc "--profile rfc"
  # The default User-Agent is robotsc/VERSION for both.
  grep -qF $'in\tua\t/robots.txt\t-\t-\trobotsc/'"$ver"$'\t' "$RSC_TEST_LOG" && ok || bad "$f: default User-Agent robotsc/$ver: $(cat "$RSC_TEST_LOG")"
  # (--force: the store's record is fresh)
  if [ $f = plain ]; then expect_rc 0 "${pre[@]}" --user-agent=ShareBot/2; else expect_rc 0 "${pre[@]}" --user-agent=ShareBot/2 --force; fi
  grep -qF $'in\tua\t/robots.txt\t-\t-\tShareBot/2\t' "$RSC_TEST_LOG" && ok || bad "$f: --user-agent= form"
done

# ---- a body that is not a robots.txt (rsc_classify's rule) ----
# body: serves STATE/body.bin. A blob or damaged blob is an error; binary too,
# unless --text. On an error nothing is written: OUT and its record stay.
fetch body
eq "$rc" 0 "body: robots.txt"; has "$T/out" "policy: parse"
cp "$T/body.rbc" "$T/body.keep"; cp "$T/body.rbc.meta" "$T/body.meta.keep"
unchanged() { cmp -s "$T/body.rbc" "$T/body.keep" && cmp -s "$T/body.rbc.meta" "$T/body.meta.keep" && ok || bad "$1: OUT or its record changed"; }
printf 'User-agent: *\nAllow: /\n' >"$T/allow.txt"
"$R" compile "$T/allow.txt" -o "$RSC_TEST_STATE/body.bin" 2>/dev/null && ok || bad "compile allow.txt"
cp "$RSC_TEST_STATE/body.bin" "$T/allow.rbc"
fetch body --now 1800000000
eq "$rc" 2 "blob body"; has "$T/err" "robotsc fetch: $(base body)/robots.txt: body: robotsc blob, not read as a robots.txt"
unchanged "blob body"
fetch body --text --agent Bot --check "$(base body)/private/x"
eq "$rc" 2 "blob body, --text"; hasnt "$T/out" "allow"$'\t'; unchanged "blob body, --text"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[2] ^= 1; open(sys.argv[2], "wb").write(b)' \
  "$T/allow.rbc" "$RSC_TEST_STATE/body.bin"
fetch body
eq "$rc" 2 "damaged blob body"; has "$T/err" "body: damaged robotsc blob"; has "$T/err" "(--text reads it as one)"
unchanged "damaged blob body"
printf 'User-agent: *\nAllow: /\n' | gzip -c >"$RSC_TEST_STATE/body.bin"
fetch body --agent Bot --check "$(base body)/private/x"
eq "$rc" 2 "binary body"; has "$T/err" "body: binary content, not read as a robots.txt (--text reads it as one)"
hasnt "$T/out" "allow"$'\t'; unchanged "binary body"
fetch body --text --agent Bot --check "$(base body)/private/x"
eq "$rc" 0 "binary body, --text"; verdict allow "$(base body)/private/x"
# Every truncation, a bit flip of every byte and headers of other major
# versions of a blob: never compiled as text, never a verdict, OUT untouched.
rm -f "$RSC_TEST_STATE/body.bin"; fetch body; eq "$rc" 0 "body: robots.txt again"
cp "$T/body.rbc" "$T/body.keep"; cp "$T/body.rbc.meta" "$T/body.meta.keep"
python3 - "$T/allow.rbc" "$T/variants" <<'PY'
import os, sys
b = open(sys.argv[1], "rb").read()
os.makedirs(sys.argv[2])
vs = [b[:n] for n in range(1, len(b))]
for i in range(len(b)):
    v = bytearray(b); v[i] ^= 1 << (i % 8); vs.append(bytes(v))
for major in (0, 1, 2, 3, 5, 9, 11, 255):
    if major != b[4]:
        v = bytearray(b); v[4] = major; vs.append(bytes(v))
for k, v in enumerate(vs):
    open(os.path.join(sys.argv[2], "%03d" % k), "wb").write(v)
PY
nv=0; nbad=0
for v in "$T"/variants/*; do
  cp "$v" "$RSC_TEST_STATE/body.bin"; nv=$((nv + 1))
  run "$R" fetch "$(base body)/" -o "$T/body.rbc" --agent Bot --check "$(base body)/private/x"
  if [ "$rc" != 2 ] || grep -q 'allow'$'\t' "$T/out" || ! grep -q 'not read as a robots.txt' "$T/err" ||
     ! cmp -s "$T/body.rbc" "$T/body.keep" || ! cmp -s "$T/body.rbc.meta" "$T/body.meta.keep"; then
    nbad=$((nbad + 1)); echo "variant $(basename "$v"): exit $rc"; cat "$T/err"
  fi
done
[ "$nv" -gt 100 ] && [ "$nbad" = 0 ] && ok || bad "blob variants: $nbad of $nv read or written"
# Without -o the same rule holds.
printf 'User-agent: *\nAllow: /\n' | gzip -c >"$RSC_TEST_STATE/body.bin"
run "$R" fetch "$(base body)/" --agent Bot --check "$(base body)/private/x"
eq "$rc" 2 "binary body, no -o"

echo "crawl_cli: $pass passed, $fail failed"
[ $fail = 0 ]
