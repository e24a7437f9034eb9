#!/usr/bin/env bash
# Command-line contract: exit codes, output formats, SOURCE detection, stdin
# handling, errors on bad input (exit 2 with a message, never a signal).
set -u
R=$1; EX=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
expect_rc() { # rc cmd...
  local want=$1; shift
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "exit $rc (want $want): $*"; cat "$T/err"; fi
}

expect_rc 0 "$R" --help
expect_rc 2 "$R"
expect_rc 2 "$R" frobnicate
for c in compile check lint parse dump info; do expect_rc 0 "$R" $c --help; done
expect_rc 2 "$R" compile
expect_rc 2 "$R" check "$EX/robots.txt" /x            # no --agent
expect_rc 2 "$R" check --agent a "$T/missing.txt" /x  # unreadable
grep -q "missing.txt" "$T/err" && ok || bad "error message names the file"
expect_rc 2 "$R" compile --profile bogus "$EX/robots.txt" -o "$T/x.rbc"

# compile, then check the blob and the text: same verdicts and exit codes.
expect_rc 0 "$R" compile "$EX/robots.txt" -o "$T/ex.rbc"
[ "$(head -c 4 "$T/ex.rbc" | od -An -tx1 | tr -d ' ')" = "89525343" ] && ok || bad "blob magic"
for src in "$T/ex.rbc" "$EX/robots.txt"; do
  expect_rc 1 "$R" check --agent Googlebot "$src" https://www.example.com/search?q=1
  grep -q $'^disallow\thttps://www.example.com/search?q=1$' "$T/out" && ok || bad "disallow line ($src)"
  expect_rc 0 "$R" check --agent Googlebot "$src" https://www.example.com/search/about
  expect_rc 1 "$R" check --agent SomeBot "$src" https://www.example.com/private/x
  expect_rc 0 "$R" check --agent SomeBot "$src" https://www.example.com/private/press/x
  expect_rc 1 "$R" check --agent badbot "$src" /anything
  expect_rc 0 "$R" check --agent Googlebot "$src" https://www.example.com/private/x   # named: * ignored
done
# Two agents at once (spec F.7): Googlebot-News is named, so * is ignored.
expect_rc 1 "$R" check --agent Googlebot-News --agent Googlebot "$T/ex.rbc" /search
# --explain names the line and the rule.
expect_rc 1 "$R" check --explain --agent SomeBot "$T/ex.rbc" /private/x
grep -q $'\tline 3: Disallow: /private/' "$T/out" && ok || { bad "explain: $(cat "$T/out")"; }
# stdin: one URL per line, CR dropped, empty line = "/"; exit 0 regardless.
printf '/private/x\r\n\n/ok\n' | "$R" check --agent SomeBot "$T/ex.rbc" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && ok || bad "stdin rc $rc"
[ "$(wc -l < "$T/out")" = 3 ] && ok || bad "stdin: 3 lines expected: $(cat "$T/out")"
[ "$(sed -n 1p "$T/out")" = $'disallow\t/private/x' ] && ok || bad "stdin line 1"
[ "$(sed -n 2p "$T/out")" = $'allow\t' ] && ok || bad "stdin empty line"
# The empty agent is an agent like any other.
printf 'User-agent: *foo\nDisallow: /e\n' > "$T/e.txt"
expect_rc 1 "$R" check --agent "" "$T/e.txt" /e
expect_rc 0 "$R" check --agent x "$T/e.txt" /e
# Damaged blobs are errors (exit 2 with a message), never signals.
head -c 40 "$T/ex.rbc" > "$T/trunc.rbc"
expect_rc 2 "$R" check --agent a "$T/trunc.rbc" /x
grep -q "trunc.rbc" "$T/err" && ok || bad "corrupt blob message names the file"
python3 - "$T/ex.rbc" "$T/flip.rbc" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[len(b)//2] ^= 0x10
open(sys.argv[2], 'wb').write(b)
PY
expect_rc 2 "$R" check --agent a "$T/flip.rbc" /x
expect_rc 2 "$R" dump "$T/flip.rbc"
# A blob compiled with one profile cannot be used as the other.
expect_rc 2 "$R" check --profile rfc --agent a "$T/ex.rbc" /x
# dump and info.
expect_rc 0 "$R" dump "$T/ex.rbc"
[ -s "$T/out" ] && ok || bad "dump prints something"
expect_rc 0 "$R" info "$EX/robots.txt"
grep -q "sitemaps: 1" "$T/out" && ok || bad "info sitemaps: $(cat "$T/out")"
grep -qi "crawl-delay: 5" "$T/out" && ok || bad "info crawl-delay"
# lint: the example is clean apart from crawl-delay (a known, unused key).
expect_rc 0 "$R" lint "$EX/robots.txt"
printf 'Disalow: /x\nuser-agent: *\nfoo bar baz\n' > "$T/l.txt"
expect_rc 1 "$R" lint "$T/l.txt"
grep -q "l.txt:1: warning:" "$T/out" && ok || bad "lint format: $(cat "$T/out")"
# docs/FORMAT.md's Example section: for each of its examples (### Example
# K), the hex dump is exactly the blob the compiler writes for that example's
# file (addresses consecutive, the size it states), and its `robotsc dump`
# block is exactly what `robotsc dump` prints.
FMT=$EX/../docs/FORMAT.md
fmt_example() { # K body
  local k=$1
  printf '%b' "$2" > "$T/fmt$k.txt"
  expect_rc 0 "$R" compile "$T/fmt$k.txt" -o "$T/fmt$k.rbc"
  expect_rc 0 "$R" dump "$T/fmt$k.rbc"; cp "$T/out" "$T/fmt$k.dump"
  python3 - "$FMT" "$k" "$T/fmt$k.hex" "$T/fmt$k.dumpdoc" <<'PY'
import re, sys
doc = open(sys.argv[1]).read()
sec = doc.split("\n## Example\n")[1].split("\n## ")[0]   # the section only
subs = sec.split("\n### Example ")[1:]                    # its examples, in order
k = int(sys.argv[2])
if len(subs) < k or not subs[k - 1].startswith("%d:" % k):
    sys.exit("no '### Example %d:' in the Example section" % k)
sub = subs[k - 1]
blocks = sub.split("```")[1::2]                            # fenced blocks, in order
hexb, dump = blocks[0], [b for b in blocks if b.lstrip().startswith("robotsc blob")][0]
out = bytearray()
for i, l in enumerate(hexb.strip().splitlines()):
    addr, data = l.split(":")
    if int(addr, 16) != 16 * i or len(data.split()) > 16:
        sys.exit("bad hex dump line %d: %s" % (i, l))
    out += bytes(int(x, 16) for x in data.split())
said = re.search(r"(\d+)\s+bytes:", sub.split("```")[0])
if not said or int(said.group(1)) != len(out):
    sys.exit("the example states %s bytes, the hex dump has %d" % (said and said.group(1), len(out)))
open(sys.argv[3], "wb").write(out)
open(sys.argv[4], "w").write(dump.lstrip("\n"))
PY
  [ $? = 0 ] && ok || bad "FORMAT.md Example $k malformed"
  cmp -s "$T/fmt$k.hex" "$T/fmt$k.rbc" && ok || bad "FORMAT.md example $k hex differs from the compiler's blob"
  cmp -s "$T/fmt$k.dumpdoc" "$T/fmt$k.dump" && ok || { bad "FORMAT.md example $k dump differs from robotsc dump"; diff "$T/fmt$k.dumpdoc" "$T/fmt$k.dump" | head; }
}
fmt_example 1 'User-agent: *\nDisallow: /a\n'
fmt_example 2 'User-agent: *\nDisallow: /*.pdf$\n'
echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
