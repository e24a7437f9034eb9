#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `robotsc store` end to end: build from a directory, a TSV and WARC files
# (.warc, .warc.gz), idempotent re-runs, check (routing, --missing, --now,
# errors), get, put, del, list, stat, gc. Verdicts are compared with
# `robotsc check` on the same files.
set -u
R=$1
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
expect_rc() { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] && ok || { bad "exit $rc (want $want): $*"; sed 's/^/  | /' "$T/err"; }; }
has() { grep -qF -- "$2" "$1" && ok || { bad "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }
eq() { [ "$1" = "$2" ] && ok || bad "$3: '$1' != '$2'"; }
verdict() { grep -qxF "$1"$'\t'"$2" "$T/out" && ok || { bad "want '$1 $2'"; sed 's/^/  | /' "$T/out"; }; }
DB=$T/s.db
PYTHON3=$(command -v python3 || echo false)

# ---- usage ----
expect_rc 0 "$R" store --help
expect_rc 2 "$R" store
expect_rc 2 "$R" store nope
for s in build check get put del list stat gc; do expect_rc 0 "$R" store $s --help; done
expect_rc 2 "$R" store build "$DB"
expect_rc 2 "$R" store build "$DB" "$T/missing-dir"
expect_rc 2 "$R" store build "$DB" "$T" -j 0
expect_rc 2 "$R" store build "$DB" "$T" --scheme gopher
expect_rc 2 "$R" store check "$DB" https://a.example/
expect_rc 2 "$R" store check "$DB" --agent A --missing maybe
expect_rc 2 "$R" store check "$T/no/such.db" --agent A https://a.example/

# ---- a directory of host-named files ----
mkdir -p "$T/d"
printf 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: FooBot\nDisallow: /\n' >"$T/d/a.example.txt"
printf 'User-agent: *\nDisallow: /*.pdf$\n' >"$T/d/www.b.example.txt"
printf 'User-agent: *\nDisallow:\n' >"$T/d/c.example.txt"
printf '<html><body>nothing</body></html>' >"$T/d/html.example.txt"
printf 'not a robots file name\n' >"$T/d/README"
expect_rc 0 "$R" store build "$DB" "$T/d" -j 2
has "$T/out" "compiled: 4, written: 4, unchanged: 0, failed: 0"
[ -s "$T/err" ] && bad "no progress line when not a terminal: $(cat "$T/err")" || ok
URLS=(https://a.example/private/x https://a.example/private/ok/y https://a.example/pub https://www.b.example/x.pdf
      https://www.b.example/x.pdfs https://c.example/anything https://html.example/)
for agent in Googlebot FooBot; do
  for h in a.example www.b.example c.example html.example; do
    for u in "${URLS[@]}"; do
      case $u in https://$h/*) ;; *) continue ;; esac
      want=$("$R" check --agent $agent "$T/d/$h.txt" "$u")
      got=$("$R" store check "$DB" --agent $agent "$u")
      eq "$got" "$want" "store check $agent $u"
    done
  done
done
# Re-running changes nothing; a changed file is recompiled alone.
expect_rc 0 "$R" store build "$DB" "$T/d"
has "$T/out" "compiled: 0, written: 0, unchanged: 4, failed: 0"
printf 'User-agent: *\nDisallow: /\n' >"$T/d/c.example.txt"
expect_rc 0 "$R" store build "$DB" "$T/d" -j1
has "$T/out" "compiled: 1, written: 1, unchanged: 3, failed: 0"
expect_rc 0 "$R" store check "$DB" --agent X https://c.example/anything
verdict disallow https://c.example/anything
# --scheme: the same files as http origins.
expect_rc 0 "$R" store build "$DB" "$T/d" --scheme http
has "$T/out" "compiled: 4"
expect_rc 0 "$R" store check "$DB" --agent X http://a.example/private/x https://a.example/private/x
verdict disallow http://a.example/private/x
verdict disallow https://a.example/private/x
# A file whose name is no host name is a failure with a reason (exit 1).
mkdir -p "$T/d2"; printf 'User-agent: *\n' >"$T/d2/bad host.txt"; printf 'User-agent: *\n' >"$T/d2/ok.example.txt"
expect_rc 1 "$R" store build "$DB" "$T/d2"
has "$T/out" "failed: 1 not a valid origin"
has "$T/err" "bad host.txt"

# ---- check: routing, stdin, missing, errors ----
printf '%s\n' https://a.example/private/x https://A.EXAMPLE:443/pub 'https://zzz.example/x' \
  'http://c.example/anything' mailto:a@b.example https://a.example/private/ok/1 >"$T/urls"
run "$R" store check "$DB" --agent Googlebot <"$T/urls"
eq "$rc" 2 "an error line makes exit 2"
verdict disallow https://a.example/private/x
verdict allow https://A.EXAMPLE:443/pub
verdict unknown https://zzz.example/x
verdict disallow http://c.example/anything  # changed above
verdict error mailto:a@b.example
verdict allow https://a.example/private/ok/1
eq "$(wc -l <"$T/out")" 6 "one line per URL"
has "$T/err" "no robots.txt"
run "$R" store check "$DB" --agent Googlebot --missing disallow https://zzz.example/x
verdict disallow https://zzz.example/x
run "$R" store check "$DB" --agent Googlebot --missing allow https://zzz.example/x
verdict allow https://zzz.example/x
run "$R" store check "$DB" --agent Googlebot --no-cache https://a.example/private/x
verdict disallow https://a.example/private/x

# ---- the crawler's name, --json (issue 26) ----
# --agent is matched as given (a warning for a name that is not a token);
# --user-agent reduces a User-Agent header to its token; as robotsc check.
expect_rc 0 "$R" store check "$DB" --agent FooBot https://a.example/pub
verdict disallow https://a.example/pub
[ ! -s "$T/err" ] && ok || bad "a token warned: $(cat "$T/err")"
expect_rc 0 "$R" store check "$DB" --agent FooBot/1.0 https://a.example/pub
verdict allow https://a.example/pub           # FooBot/1.0 names no group: '*'
grep -q "warning: agent 'FooBot/1.0' is not a product token" "$T/err" && ok || bad "no warning: $(cat "$T/err")"
expect_rc 0 "$R" store check "$DB" --user-agent "Mozilla/5.0 (compatible; FooBot/1.0)" https://a.example/pub
verdict disallow https://a.example/pub
expect_rc 2 "$R" store check "$DB" --user-agent "2.0" https://a.example/pub
# store check --json: one object per URL.
run "$R" store check "$DB" --json --agent FooBot --missing unknown https://a.example/pub https://zz.example/ mailto:x@y
[ "$rc" = 2 ] && ok || bad "store check --json rc $rc"
"$PYTHON3" - "$T/out" <<'PY' && ok || bad "store check --json: $(cat "$T/out")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="ascii")]
assert rows[0] == {"url": "https://a.example/pub", "origin": "https://a.example", "verdict": "disallow",
                   "allowed": False, "error": None}, rows[0]
assert rows[1] == {"url": "https://zz.example/", "origin": "https://zz.example", "verdict": "unknown",
                   "allowed": None, "error": None}, rows[1]
assert rows[2]["verdict"] == "error" and rows[2]["allowed"] is None and rows[2]["origin"] is None, rows[2]
assert rows[2]["error"] == "URL has no robots.txt", rows[2]
PY
# store get --json: the record as one object.
# Its format is the stored blob's Format_Major (byte 4), whatever this
# release's format is.
"$R" store get "$DB" https://a.example/x -o "$T/a_get.rbc" >/dev/null 2>&1
expect_rc 0 "$R" store get "$DB" --json https://a.example/x
"$PYTHON3" - "$T/out" "$T/a_get.rbc" <<'PY' && ok || bad "store get --json: $(cat "$T/out")"
import json, sys
lines = open(sys.argv[1], encoding="ascii").read().splitlines()
blob = open(sys.argv[2], "rb").read()
assert len(lines) == 1
r = json.loads(lines[0])
assert r["origin"] == "https://a.example" and r["source"].endswith("a.example.txt"), r
assert r["expires"] is None and r["error_since"] is None and r["status"] == 200, r  # files never expire
assert r["policy"] == "parse" and r["has_copy"] is True and r["profile"] == "google", r
assert r["etag"] is None and r["last_modified"] is None and r["format"] == blob[4], r
assert r["blob_bytes"] == len(blob), r
assert len(r["source_hash"]) == 16 and r["blob_bytes"] > 0 and r["record_bytes"] > r["blob_bytes"], r
assert isinstance(r["fetched_at"], int) and r["source_bytes"] > 0, r
PY
expect_rc 1 "$R" store get "$DB" --json https://zz.example
[ ! -s "$T/out" ] && ok || bad "no record printed JSON"
if [ -w /dev/full ]; then
  "$R" store get "$DB" https://a.example >/dev/full 2>"$T/err"; rc=$?
  [ $rc = 2 ] && ok || bad "store get > /dev/full: rc $rc"
fi
# store put: a binary file is refused unless --text; nothing stored.
head -c 400 /dev/urandom > "$T/rnd.bin"; printf '\0\1\2\3\4\5\6' >> "$T/rnd.bin"
expect_rc 2 "$R" store put "$DB" https://bin.example "$T/rnd.bin"
grep -q "binary content, not read as a robots.txt" "$T/err" && ok || bad "put binary: $(cat "$T/err")"
expect_rc 1 "$R" store get "$DB" https://bin.example
expect_rc 0 "$R" store put "$DB" https://bin.example "$T/rnd.bin" --text
expect_rc 0 "$R" store get "$DB" https://bin.example
expect_rc 0 "$R" store del "$DB" https://bin.example

# ---- TSV ----
mkdir -p "$T/t/sub"
printf 'User-agent: *\nDisallow: /tsv1\n' >"$T/t/sub/one.txt"
printf 'User-agent: *\nDisallow: /tsv2\n' >"$T/t/two.txt"
printf '# origin or URL, tab, path\nhttps://one.example\tsub/one.txt\nhttp://Two.Example:8080/some/page\t%s\n\nnot a url\tx.txt\nhttps://three.example\tmissing.txt\n' \
  "$T/t/two.txt" >"$T/t/list.tsv"
expect_rc 1 "$R" store build "$DB" "$T/t/list.tsv" --ttl 3600 --now 1000000
has "$T/out" "compiled: 2"
has "$T/out" "failed: 1 cannot read file"
has "$T/out" "failed: 1 not a valid origin"
run "$R" store check "$DB" --agent X https://one.example/tsv1 http://two.example:8080/tsv2 http://two.example:8080/x --now 1000001
verdict disallow https://one.example/tsv1
verdict disallow http://two.example:8080/tsv2
verdict allow http://two.example:8080/x
# --ttl: expired records are unknown at --now past the expiry.
run "$R" store check "$DB" --agent X https://one.example/tsv1 --now 1003600
verdict unknown https://one.example/tsv1
run "$R" store get "$DB" https://one.example
has "$T/out" "lifetime: 3600"

# ---- WARC (plain and gzip) ----
PY=$(command -v python3 || true)
if [ -n "$PY" ]; then
  for w in warc warc.gz; do
    W=$T/cc.$w; WDB=$T/$w.db
    "$PY" "$HERE/make_warc.py" "$W"
    expect_rc 1 "$R" store build "$WDB" "$W"
    has "$T/out" "compiled: 8"
    has "$T/out" "superseded by a later one of the same origin"
    has "$T/out" "failed: 1 WARC record not a robots.txt URL"
    NOW=1727776900 # 100 s after the captures' WARC-Date
    run "$R" store check "$WDB" --agent Googlebot --now $NOW https://ok.example/private https://ok.example/x \
      https://gone.example/private https://down.example/x https://limited.example/x http://chunk.example/chunked \
      http://chunk.example/x http://gz.example:8080/gzipped http://gz.example:8080/x https://moved.example/x \
      https://twice.example/first https://twice.example/second https://page.example/
    verdict disallow https://ok.example/private; verdict allow https://ok.example/x
    verdict allow https://gone.example/private     # 404: allow all
    verdict disallow https://down.example/x        # 503: disallow all
    verdict disallow https://limited.example/x     # 429: disallow all
    verdict disallow http://chunk.example/chunked; verdict allow http://chunk.example/x
    verdict disallow http://gz.example:8080/gzipped; verdict allow http://gz.example:8080/x
    verdict allow https://moved.example/x          # a redirect not followed: as 404
    verdict allow https://twice.example/first; verdict disallow https://twice.example/second
    verdict unknown https://page.example/
    # Expiry from the WARC-Date and the default lifetime (24 h).
    run "$R" store check "$WDB" --agent Googlebot --now $((1727776800 + 86400)) https://ok.example/private
    verdict unknown https://ok.example/private
    expect_rc 0 "$R" store get "$WDB" https://ok.example/any/page
    has "$T/out" 'etag: "e1"'
    has "$T/out" "last_modified: Tue, 01 Oct 2024 10:00:00 GMT"
    has "$T/out" "fetched_at: 2024-10-01T10:00:00Z"
    has "$T/out" "status: 200"
    expect_rc 0 "$R" store get "$WDB" https://down.example
    has "$T/out" "status: 503"; has "$T/out" "policy: disallow-all"; has "$T/out" "has_copy: 0"
    # A 503 (and a 429) lives as long as fetch gives it: retried after
    # 15 minutes (rsc_cache_decide's retry_ttl), not a 24 h answer.
    has "$T/out" "expires: 2024-10-01T10:15:00Z (1727777700)"
    expect_rc 0 "$R" store get "$WDB" https://limited.example
    has "$T/out" "expires: 2024-10-01T10:15:00Z"
    run "$R" store check "$WDB" --agent Googlebot --now 1727777700 https://down.example/x
    verdict unknown https://down.example/x
    expect_rc 0 "$R" store get "$WDB" https://gone.example
    has "$T/out" "expires: 2024-10-02T10:00:00Z"   # 404: a definite answer, 24 h
    expect_rc 0 "$R" store get "$WDB" https://gone.example
    has "$T/out" "policy: allow-all"; has "$T/out" "has_copy: 1"
  done
  printf 'WARC/1.0\r\nWARC-Type: response\r\n\r\n' >"$T/broken.warc"
  expect_rc 2 "$R" store build "$T/b.db" "$T/broken.warc"
  has "$T/err" "Content-Length"
else
  echo "python3 not found: WARC part skipped"
fi

# ---- progress line (forced: the tests have no terminal) ----
expect_rc 0 "$R" store build "$T/p.db" "$T/d" --progress
has "$T/err" "ETA"
has "$T/err" "4/4"

# ---- a damaged record: an error for its origin, never a verdict ----
if [ -n "$PY" ]; then
  cp "$T/p.db" "$T/dmg.db"
  "$PY" - "$T/dmg.db" "$T/d/a.example.txt" <<'PYEOF'
import sys
path, marker = sys.argv[1], sys.argv[2].encode()
data = bytearray(open(path, "rb").read())
i = data.find(marker)          # the record's source URL (covered by its checksum)
assert i >= 0 and data.find(marker, i + 1) < 0
data[i + len(marker) - 1] ^= 0x20
open(path, "wb").write(data)
PYEOF
  run "$R" store check "$T/dmg.db" --agent X https://a.example/pub https://c.example/x
  eq "$rc" 2 "damaged: exit 2"
  verdict error https://a.example/pub
  verdict disallow https://c.example/x
  has "$T/err" "https://a.example: damaged record"
  expect_rc 2 "$R" store get "$T/dmg.db" https://a.example
  has "$T/err" "damaged record"
  run "$R" store list "$T/dmg.db" --verify
  eq "$rc" 2 "list --verify: exit 2"
  has "$T/out" $'https://a.example\terror: damaged record'
  has "$T/out" "records: 3 verified, 1 damaged"
fi

# ---- get, put, del, list, stat, gc ----
expect_rc 0 "$R" store get "$DB" https://a.example -o "$T/a.rbc"
has "$T/out" "origin: https://a.example"
has "$T/out" "policy: parse"
has "$T/out" "expires: never"
run "$R" check --agent FooBot "$T/a.rbc" https://a.example/pub
eq "$rc" 1 "blob from get is the compiled file"
expect_rc 1 "$R" store get "$DB" https://zzz.example
expect_rc 2 "$R" store get "$DB" not-a-url
printf 'User-agent: *\nDisallow: /put\n' >"$T/p.txt"
expect_rc 0 "$R" store put "$DB" 'HTTPS://Put.Example/x' "$T/p.txt" --ttl 100 --now 5000 --etag '"p1"'
run "$R" store check "$DB" --agent X https://put.example/put --now 5050
verdict disallow https://put.example/put
# The record keeps its lifetime (what a 304 without Cache-Control renews).
run "$R" store get "$DB" https://put.example
has "$T/out" "lifetime: 100"
expect_rc 0 "$R" store put "$DB" https://blob.example "$T/a.rbc"
run "$R" store check "$DB" --agent FooBot https://blob.example/pub
verdict disallow https://blob.example/pub
expect_rc 0 "$R" store put "$DB" https://e503.example "$T/p.txt" --status 503
run "$R" store check "$DB" --agent X https://e503.example/other
verdict disallow https://e503.example/other
expect_rc 2 "$R" store put "$DB" https://x.example "$T/none.txt"
run "$R" store list "$DB"
eq "$rc" 0 "list"
has "$T/out" $'https://put.example\t200\tparse\t5100\t'
# a 503 is a failed fetch: retried after 15 minutes, never stored for ever (issue 37)
has "$T/out" $'https://e503.example\t503\tdisallow-all\t'
grep -q $'^https://e503.example\t503\tdisallow-all\tnever' "$T/out" && bad "a 503 record never expires" || ok
n_list=$(wc -l <"$T/out")
run "$R" store stat "$DB"
has "$T/out" "records: $n_list"
expect_rc 0 "$R" store list "$DB" --verify
has "$T/out" "records: $n_list verified, 0 damaged"
expect_rc 0 "$R" store gc "$DB" --now 5100
has "$T/out" "removed: 1"   # put.example; the TSV records live until 1003600
expect_rc 0 "$R" store gc "$DB" --now 1003000 --grace 0
has "$T/out" "removed: 0"
expect_rc 0 "$R" store gc "$DB" --now 1003700 --grace 100
has "$T/out" "removed: 2"
expect_rc 1 "$R" store get "$DB" https://put.example
expect_rc 0 "$R" store del "$DB" https://blob.example https://e503.example/x
expect_rc 1 "$R" store del "$DB" https://blob.example
expect_rc 2 "$R" store del "$DB" not-a-url
run "$R" store stat "$DB"
has "$T/out" "records: $((n_list - 5))"   # 3 collected, 2 deleted

# A file that cannot grow (disk full, or here a file size limit): the
# build fails with a message and exit 2, every earlier commit is kept, and
# the store still answers.
FB=$T/full.db
mkdir -p "$T/few" "$T/more"
for i in 1 2 3; do printf 'User-agent: *\nDisallow: /p%d\n' $i > "$T/few/h$i.example.txt"; done
for i in $(seq 1 300); do
  { printf 'User-agent: *\n'; for k in $(seq 1 40); do printf 'Disallow: /q%d/*x%d$\n' $i $k; done; } > "$T/more/m$i.example.txt"
done
expect_rc 0 "$R" store build "$FB" "$T/few" -j 1
fsize=$(stat -c %s "$FB")
run sh -c "ulimit -f $(( (fsize + 4096) / 512 )); exec \"\$0\" store build \"\$1\" \"\$2\" -j 1" "$R" "$FB" "$T/more"
[ "$rc" = 2 ] && ok || bad "store build past the file size limit: exit $rc"
grep -q "every earlier commit is kept" "$T/err" && ok || bad "no message on a store that cannot grow: $(cat "$T/err")"
run "$R" store stat "$FB"
has "$T/out" "records: 3"
run "$R" store check "$FB" --agent a https://h2.example/p2
has "$T/out" "disallow	https://h2.example/p2"

echo "store_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
