#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# robotsc diff and the semantic part of robotsc lint, end to end: exit
# statuses, witnesses, group-level changes, --urls, --json (parsed back
# with python3 when there is one), damaged blobs, --no-warn.
R="$1"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
rc() { "$@" > "$T/out" 2> "$T/err"; echo $?; }

printf 'User-agent: *\nDisallow: /private\nAllow: /private/ok\nCrawl-delay: 5\nSitemap: https://x/s.xml\n\nUser-agent: googlebot\nDisallow: /g\n' > "$T/a.txt"
printf 'User-agent: *\nDisallow: /private\nDisallow: /tmp\nCrawl-delay: 10\n\nUser-agent: googlebot\nDisallow: /g\nUser-agent: bingbot\nDisallow: /\n' > "$T/b.txt"

[ "$(rc "$R" diff "$T/a.txt" "$T/a.txt")" = 0 ] && grep -q "^\* (any other agent): same" "$T/out" && ok || bad "same file: exit 0"
[ "$(rc "$R" diff "$T/a.txt" "$T/b.txt")" = 1 ] && ok || bad "different: exit 1"
grep -q "^  /tmp: allow (no rule) -> disallow (line 3: Disallow: /tmp)" "$T/out" && ok || bad "witness /tmp: $(cat "$T/out")"
grep -q "^  /private/ok: allow (line 3: Allow: /private/ok) -> disallow (line 2: Disallow: /private)" "$T/out" && ok || bad "witness /private/ok"
grep -q "crawl-delay: 5 -> 10" "$T/out" && ok || bad "crawl-delay change"
grep -q "^bingbot: different" "$T/out" && grep -q "group appeared" "$T/out" && ok || bad "bingbot group appeared"
grep -q "^googlebot: same" "$T/out" && ok || bad "googlebot same"
grep -q "sitemap removed: https://x/s.xml" "$T/out" && ok || bad "sitemap removed"
# only a sitemap differs: still different
printf 'User-agent: *\nDisallow: /private\nAllow: /private/ok\nCrawl-delay: 5\n\nUser-agent: googlebot\nDisallow: /g\n' > "$T/c.txt"
[ "$(rc "$R" diff "$T/a.txt" "$T/c.txt")" = 1 ] && ok || bad "sitemap only: exit 1"
# --agent: a single selection
[ "$(rc "$R" diff --agent googlebot "$T/a.txt" "$T/b.txt")" = 1 ] && [ "$(head -1 "$T/out")" = "googlebot: same" ] &&
  [ "$(wc -l < "$T/out")" = 2 ] && ok || bad "--agent googlebot: same rules, a sitemap removed"
[ "$(rc "$R" diff --agent googlebot "$T/a.txt" "$T/c.txt")" = 1 ] && ok || bad "--agent: sitemaps are file-wide"
[ "$(rc "$R" diff --agent Googlebot/2.1 "$T/b.txt" "$T/b.txt")" = 0 ] && ok || bad "--agent: a product token"
# blobs, and a robots.txt against its blob
"$R" compile "$T/a.txt" -o "$T/a.rbc" && "$R" compile "$T/b.txt" -o "$T/b.rbc" || bad "compile"
[ "$(rc "$R" diff "$T/a.rbc" "$T/a.txt")" = 0 ] && ok || bad "blob against its source: same"
[ "$(rc "$R" diff "$T/a.rbc" "$T/b.rbc")" = 1 ] && grep -q "/tmp" "$T/out" && ok || bad "two blobs"
# a damaged blob: error, exit 2
cp "$T/a.rbc" "$T/bad.rbc"; printf 'X' | dd of="$T/bad.rbc" bs=1 seek=20 conv=notrunc 2>/dev/null
[ "$(rc "$R" diff "$T/bad.rbc" "$T/b.rbc")" = 2 ] && grep -q "not a valid blob" "$T/err" && ok || bad "damaged blob: exit 2"
head -c 9 "$T/a.rbc" > "$T/trunc.rbc"
[ "$(rc "$R" diff "$T/a.txt" "$T/trunc.rbc")" = 2 ] && ok || bad "truncated blob: exit 2"
[ "$(rc "$R" diff "$T/a.txt")" = 2 ] && ok || bad "one file: exit 2"
[ "$(rc "$R" diff --bogus "$T/a.txt" "$T/b.txt")" = 2 ] && ok || bad "unknown option: exit 2"
[ "$(rc "$R" diff "$T/a.txt" /nonexistent)" = 2 ] && ok || bad "missing file: exit 2"
# profiles of two blobs must agree
"$R" compile --profile rfc "$T/b.txt" -o "$T/b-rfc.rbc"
[ "$(rc "$R" diff "$T/a.rbc" "$T/b-rfc.rbc")" = 2 ] && grep -q "profiles" "$T/err" && ok || bad "profiles differ: exit 2"
# --urls
printf '/private/ok/1\nhttps://x.example/tmp/a\n/x\n' > "$T/u.txt"
"$R" diff --urls "$T/u.txt" "$T/a.txt" "$T/b.txt" > "$T/out"
grep -q "^url /private/ok/1 (\*): allow -> disallow" "$T/out" && grep -q "^url https://x.example/tmp/a (\*): allow -> disallow" "$T/out" &&
  grep -q "^url /x (bingbot)" "$T/out" && ! grep -q "^url /x (\*)" "$T/out" && ok || bad "--urls: $(cat "$T/out")"
# a tiny budget: unknown, exit 2, never "same" (a2 has one rule more that
# changes no verdict, so the lists differ and must be walked)
printf 'User-agent: *\nDisallow: /private\nAllow: /private/ok\nAllow: /zz$\nCrawl-delay: 5\nSitemap: https://x/s.xml\n\nUser-agent: googlebot\nDisallow: /g\n' > "$T/a2.txt"
[ "$(rc "$R" diff --max-states 1 "$T/a.txt" "$T/a2.txt")" = 2 ] && grep -q "unknown beyond" "$T/out" && ok || bad "budget: unknown"
[ "$(rc "$R" diff "$T/a.txt" "$T/a2.txt")" = 0 ] && ok || bad "a2: same as a"
# equal rule lists need no walk: the same under any budget
[ "$(rc "$R" diff --max-states 1 "$T/a.txt" "$T/a.txt")" = 0 ] && ok || bad "equal lists: same"
# --witnesses 1
"$R" diff --witnesses 1 --agent x "$T/a.txt" "$T/b.txt" > "$T/out"
[ "$(grep -c '^  /' "$T/out")" = 1 ] && grep -q "more kinds of change" "$T/out" && ok || bad "--witnesses 1: $(cat "$T/out")"
# JSON
if command -v python3 > /dev/null; then
  "$R" diff --json --urls "$T/u.txt" "$T/a.txt" "$T/b.txt" > "$T/j";
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["outcome"]=="different"; assert any(f["path"]=="/tmp" for a in d["agents"] for f in a["flips"]); assert d["sitemaps"]["removed"]==["https://x/s.xml"]; assert len(d["urls"])==5' "$T/j" && ok || bad "diff --json"
fi

# store diff: the stored record against a new file (when store/ is built)
if "$R" store --help 2>/dev/null | grep -q "^  diff"; then
  "$R" store put "$T/st.db" https://example.com "$T/a.txt" > /dev/null || bad "store put"
  [ "$(rc "$R" store diff "$T/st.db" https://example.com/x "$T/b.txt" --agent bingbot)" = 1 ] &&
    grep -q "^bingbot: different" "$T/out" && ok || bad "store diff: $(cat "$T/out" "$T/err")"
  [ "$(rc "$R" store diff --agent x "$T/st.db" https://example.com "$T/a.txt")" = 0 ] && ok || bad "store diff same"
  [ "$(rc "$R" store diff "$T/st.db" https://nothere.example "$T/a.txt")" = 2 ] && grep -q "no record" "$T/err" &&
    ok || bad "store diff: no record"
  # put --report-changes: the flips of the record it replaces
  [ "$(rc "$R" store put --report-changes "$T/st.db" https://new.example "$T/a.txt")" = 0 ] &&
    grep -q "^changes https://new.example: new record" "$T/out" && ok || bad "put --report-changes: new record"
  [ "$(rc "$R" store put "$T/st.db" https://example.com "$T/b.txt" --report-changes)" = 0 ] &&
    grep -q "^changes https://example.com:" "$T/out" && grep -q "^  /tmp: allow (no rule) -> disallow" "$T/out" &&
    ok || bad "put --report-changes: $(cat "$T/out" "$T/err")"
  [ "$(rc "$R" store put "$T/st.db" https://example.com "$T/b.txt")" = 0 ] && [ ! -s "$T/out" ] && ok ||
    bad "put without --report-changes prints nothing"
  # build --report-changes: each record a re-run replaces (a directory of host files)
  mkdir -p "$T/hosts"
  cp "$T/a.txt" "$T/hosts/one.example.txt"
  [ "$(rc "$R" store build "$T/bd.db" "$T/hosts" --report-changes)" = 0 ] &&
    grep -q "^changes https://one.example: new record" "$T/out" && ok || bad "build --report-changes: new record"
  cp "$T/b.txt" "$T/hosts/one.example.txt"
  [ "$(rc "$R" store build "$T/bd.db" "$T/hosts" --report-changes)" = 0 ] &&
    grep -q "^changes https://one.example:" "$T/out" && grep -q "^  /tmp: allow (no rule) -> disallow" "$T/out" &&
    ok || bad "build --report-changes: $(cat "$T/out" "$T/err")"
  cp "$T/a.txt" "$T/hosts/one.example.txt"
  [ "$(rc "$R" store build "$T/bd.db" "$T/hosts")" = 0 ] && ! grep -q "^changes" "$T/out" && ok ||
    bad "build without --report-changes reports nothing"
fi

# lint: semantic warnings after the syntax ones
printf 'User-agent: *\nDisallow: /search\nDisallow: /search/\nAllow: /search*\nDisallow: /tmp\nCrawl-delay: 1 sec\nRequest-rate: 1/x\nNoindex: /private\nSitemap: sitemap.xml\n\nUser-agent: 123\nDisallow: /\n' > "$T/l.txt"
[ "$(rc "$R" lint "$T/l.txt")" = 1 ] && ok || bad "lint: exit 1"
grep -q "l.txt:2: warning: rule never decides a path: equivalent to line 4, Allow: /search\*, which outranks it \[dead-rule\]" "$T/out" && ok || bad "lint dead-rule equivalent: $(cat "$T/out")"
grep -q "l.txt:3: .*shadowed by line 4.*\[dead-rule\]" "$T/out" && ok || bad "lint shadowed"
! grep -q "l.txt:5:" "$T/out" && ok || bad "lint: a live rule reported"
grep -q "l.txt:6: .*\[bad-crawl-delay\]" "$T/out" && grep -q "l.txt:7: .*\[bad-request-rate\]" "$T/out" && ok || bad "lint values"
grep -q "l.txt:8: .*Noindex \[unsupported-directive\]" "$T/out" && grep -q "l.txt:9: .*\[sitemap-not-url\]" "$T/out" && ok || bad "lint noindex, sitemap"
grep -q "l.txt:11: .*\[unselectable-group\]" "$T/out" && ok || bad "lint unselectable"
"$R" lint --no-warn dead-rule --no-warn sitemap-not-url "$T/l.txt" > "$T/out"
! grep -q "dead-rule\|sitemap-not-url" "$T/out" && grep -q "bad-crawl-delay" "$T/out" && ok || bad "--no-warn"
[ "$(rc "$R" lint --no-warn bogus "$T/l.txt")" = 2 ] && ok || bad "--no-warn unknown code: exit 2"
[ "$(rc "$R" lint --no-semantic "$T/l.txt")" = 0 ] && ok || bad "--no-semantic: syntax only, clean"
printf 'User-agent: *\nDisallow: /\nAllow: /a\n' > "$T/clean.txt"
[ "$(rc "$R" lint "$T/clean.txt")" = 0 ] && ok || bad "clean file: exit 0: $(cat "$T/out")"
if command -v python3 > /dev/null; then
  "$R" lint --json "$T/l.txt" > "$T/j"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=[x["code"] for x in d["diagnostics"]]; assert "dead-rule" in c and "unselectable-group" in c, c; assert [x for x in d["diagnostics"] if x["line"]==2][0]["other_line"]==4' "$T/j" && ok || bad "lint --json"
fi
echo "cli_diff: $pass passed, $fail failed"
[ "$fail" = 0 ]
