#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
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
# Format 5.0's header: magic, Format_Major 5, Format_Minor 0, Flags 0 (google),
# the Checksum (Adler-32 with its own 4 bytes read as zero), then Total_Size,
# the shortest varint, equal to the file's size.
python3 - "$T/ex.rbc" <<'PY' && ok || bad "blob header (format 5.0)"
import sys, zlib
b = open(sys.argv[1], 'rb').read()
assert b[:7] == b'\x89RSC\x05\x00\x00', b[:7]
assert int.from_bytes(b[7:11], 'little') == zlib.adler32(b[:7] + bytes(4) + b[11:])
total, shift, i = 0, 0, 11
while True:
    total |= (b[i] & 0x7f) << shift; shift += 7; i += 1
    if b[i - 1] < 0x80: break
assert total == len(b) and b[i - 1] != 0 and (i - 11 == 1 or total >= 1 << (7 * (i - 12))), (total, i)
PY
# A blob of an older format (3.1: an 8-byte magic, so byte 4 is '\r', not
# Format_Major 4) is reported as a blob to compile again, not read as a
# robots.txt.
printf '\211RSC\r\n\032\n\003\001\000\023\000\000\000\000\000\000\000' > "$T/old31.rbc"
expect_rc 2 "$R" check --agent a "$T/old31.rbc" /x
grep -qi "version" "$T/err" && grep -q "old31.rbc" "$T/err" && ok || bad "a 3.1 blob: $(cat "$T/err")"
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
# stdin: one URL per line, CR dropped, blank lines skipped (never printed as
# 'allow<TAB>'); exit 0 regardless.
printf '/private/x\r\n\n\r\n/ok\n' | "$R" check --agent SomeBot "$T/ex.rbc" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && ok || bad "stdin rc $rc"
[ "$(wc -l < "$T/out")" = 2 ] && ok || bad "stdin: 2 lines expected: $(cat "$T/out")"
[ "$(sed -n 1p "$T/out")" = $'disallow\t/private/x' ] && ok || bad "stdin line 1"
[ "$(sed -n 2p "$T/out")" = $'allow\t/ok' ] && ok || bad "stdin blank lines skipped: $(cat "$T/out")"
# No URL at all is an error, not a silent exit 0: SOURCE '-' (stdin holds the
# robots.txt, so no URL can follow) or an empty URL list.
"$R" check --agent X - < "$EX/robots.txt" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "standard input" "$T/err" && ok || bad "check - without URL: rc $rc $(cat "$T/err")"
"$R" check --agent X - /private/x < "$EX/robots.txt" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] && ok || bad "check - with a URL argument: rc $rc $(cat "$T/err")"
printf '\n\n' | "$R" check --agent X "$T/ex.rbc" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ ! -s "$T/out" ] && grep -q "no URL" "$T/err" && ok || bad "check with no URL: rc $rc $(cat "$T/err")"
# The empty agent is an agent like any other (matched as given, as Google's
# library does), with a warning.
printf 'User-agent: *foo\nDisallow: /e\n' > "$T/e.txt"
expect_rc 1 "$R" check --agent "" "$T/e.txt" /e
grep -q "warning: agent '' is not a product token" "$T/err" && ok || bad "empty agent warning: $(cat "$T/err")"
expect_rc 1 "$R" check --exact-agent "" "$T/e.txt" /e
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

# ---- issue 11 -------------------------------------------------------------
DOC=$EX/..
# --version; every command in --help, in the README's command list and in
# the man page, each with its own --help.
expect_rc 0 "$R" --version
grep -Eq '^robotsc [0-9]+\.[0-9]+\.[0-9]+$' "$T/out" && ok || bad "--version: $(cat "$T/out")"
"$R" --help > "$T/help"
cmds=$(sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' "$T/help")
[ "$(echo "$cmds" | wc -w)" -ge 9 ] && ok || bad "--help lists commands: $cmds"
readme_cmds=$(sed -n '/^## Command line/,/^## /p' "$DOC/README.md" | sed -n 's/^    robotsc \([a-z][a-z]*\).*/\1/p' | sort -u)
for c in $cmds; do
  expect_rc 0 "$R" $c --help
  echo "$readme_cmds" | grep -qx "$c" && ok || bad "README's command list lacks $c"
  grep -q "^\.SS $c\b\|^\.B robotsc $c\b\|^robotsc $c\b\|^\\fBrobotsc $c\b" "$DOC/docs/man/robotsc.1" && ok || bad "robotsc.1 lacks $c"
done
# store is optional (RSC_BUILD_STORE, LMDB): a build without it lacks it.
for c in $readme_cmds; do
  echo "$cmds" | grep -qx "$c" || [ $c = store ] && ok || bad "README lists $c, --help does not"
done

# --agent NAME is matched as given, as Google's library matches it (spec F.2,
# docs/SEMANTICS.md "The crawler's name"): a product token selects its group
# (Googlebot: /search disallowed; '*' would allow it) in silence; anything
# else is answered by '*', never cut, with a warning on stderr.
# --user-agent UA reduces a User-Agent header or Name/version to its token.
expect_rc 1 "$R" check --agent Googlebot "$T/ex.rbc" /search
[ ! -s "$T/err" ] && ok || bad "a plain token gets a warning: $(cat "$T/err")"
for a in "Googlebot/2.1" "Googlebot " "" "*" "  " "2.1" "/x" \
         "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"; do
  expect_rc 0 "$R" check --agent "$a" "$T/ex.rbc" /search
  grep -q "warning: agent '.*' is not a product token" "$T/err" && ok || bad "no warning for '$a': $(cat "$T/err")"
  expect_rc 0 "$R" check --exact-agent "$a" "$T/ex.rbc" /search   # the alias
done
for a in "Googlebot/2.1" "Googlebot " \
         "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" \
         "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36"; do
  expect_rc 1 "$R" check --user-agent "$a" "$T/ex.rbc" /search
  [ ! -s "$T/err" ] && ok || bad "--user-agent '$a' warned: $(cat "$T/err")"
done
expect_rc 0 "$R" check --user-agent "Scrapy/2.11.2 (+https://scrapy.org)" "$T/ex.rbc" /search
for a in "" "*" "  " "2.1" "/x"; do
  expect_rc 2 "$R" check --user-agent "$a" "$T/ex.rbc" /search
  grep -q "no product token" "$T/err" && ok || bad "no-token message for '$a': $(cat "$T/err")"
done
# Never cut: a name with a digit is not the file's cut token (Google: the
# file's user-agent value is cut, the caller's name is not).
printf 'User-agent: AB42bot\nDisallow: /x\n\nUser-agent: AB\nDisallow: /y\n' > "$T/ab.txt"
expect_rc 0 "$R" check --agent AB42bot "$T/ab.txt" /y
expect_rc 0 "$R" check --agent AB42bot "$T/ab.txt" /x
expect_rc 1 "$R" check --agent AB "$T/ab.txt" /x
expect_rc 1 "$R" check --user-agent AB42bot/1.0 "$T/ab.txt" /y

# compile: the old file survives a failed write (file size limit), and no
# temporary file is left; a directory or missing input is named.
python3 -c "
print('User-agent: *')
for i in range(4000): print('Disallow: /p%d/' % i)" > "$T/big.txt"
mkdir "$T/w"; cp "$T/ex.rbc" "$T/w/out.rbc"
(ulimit -f 4; "$R" compile "$T/big.txt" -o "$T/w/out.rbc") >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && ok || bad "compile past ulimit -f: exit $rc"
grep -q "out.rbc" "$T/err" && ok || bad "write failure names the file: $(cat "$T/err")"
cmp -s "$T/ex.rbc" "$T/w/out.rbc" && ok || bad "a failed compile changed the old blob"
[ "$(ls -A "$T/w")" = out.rbc ] && ok || bad "files left behind: $(ls -A "$T/w")"
chmod 640 "$T/w/out.rbc"
expect_rc 0 "$R" compile "$T/big.txt" -o "$T/w/out.rbc"
[ "$(ls -A "$T/w")" = out.rbc ] && ok || bad "files left behind: $(ls -A "$T/w")"
[ "$(stat -c %a "$T/w/out.rbc")" = 640 ] && ok || bad "mode of the replaced file not kept: $(stat -c %a "$T/w/out.rbc")"
expect_rc 1 "$R" check --agent a "$T/w/out.rbc" /p3999/x; grep -q "^disallow" "$T/out" && ok || bad "new blob"
expect_rc 2 "$R" compile "$EX/robots.txt" -o "$T/nodir/out.rbc"
grep -q "nodir/out.rbc" "$T/err" && ok || bad "missing directory named"
expect_rc 2 "$R" compile "$EX" -o "$T/x.rbc"
grep -q "$EX: .*[Dd]irectory" "$T/err" && ok || bad "directory input: $(cat "$T/err")"
[ ! -e "$T/x.rbc" ] && ok || bad "directory input wrote a file"
expect_rc 2 "$R" check --agent a "$EX" /x; grep -q "$EX: .*[Dd]irectory" "$T/err" && ok || bad "check directory"
for c in info dump; do
  expect_rc 2 "$R" $c "$EX"; grep -q "$EX: .*[Dd]irectory" "$T/err" && ok || bad "$c directory: $(cat "$T/err")"
done
expect_rc 2 "$R" lint "$EX"; grep -q "$EX: .*[Dd]irectory" "$T/err" && ok || bad "lint directory"
# Unreadable even for root: reading /proc/self/mem at offset 0 fails (EIO).
expect_rc 2 "$R" compile /proc/self/mem -o "$T/x.rbc"
grep -q "/proc/self/mem: cannot read" "$T/err" && ok || bad "unreadable input: $(cat "$T/err")"
[ ! -e "$T/x.rbc" ] && ok || bad "unreadable input wrote a file"
if [ "$(id -u)" != 0 ]; then
  cp "$EX/robots.txt" "$T/noread.txt"; chmod 000 "$T/noread.txt"
  expect_rc 2 "$R" compile "$T/noread.txt" -o "$T/x.rbc"; grep -q "noread.txt" "$T/err" && ok || bad "unreadable named"
fi

# Whole-file warnings on stderr, still compiled (exit 0); --strict: exit 2
# and nothing written; a clean file is silent, with or without --strict.
expect_rc 0 "$R" compile --strict "$EX/robots.txt" -o "$T/clean.rbc"
[ ! -s "$T/err" ] && ok || bad "clean file warned: $(cat "$T/err")"
head -c 3000 /dev/urandom > "$T/bin.txt"; printf '\0\1\2\3' >> "$T/bin.txt"
printf '<!DOCTYPE html>\n<html><head><title>x</title></head><body>Not found</body></html>\n' > "$T/html.txt"
printf 'User-agent: *\nDisallow: /x\n' | python3 -c "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode().encode('utf-16'))" > "$T/u16bom.txt"
printf 'User-agent: *\nDisallow: /x\n' | python3 -c "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode().encode('utf-16-le'))" > "$T/u16.txt"
printf 'User-agent: *\nDisallow: /caf\xe9\n' > "$T/latin1.txt"
{ printf 'User-agent: *\nDisallow: /a\n'; head -c 600000 /dev/zero | tr '\0' '#'; printf '\nDisallow: /b\n'; } > "$T/huge.txt"
for f in bin:binary html:html u16bom:utf-16 u16:utf-16 latin1:encoding huge:body-too-large; do
  n=${f%%:*}; w=${f#*:}
  expect_rc 0 "$R" compile "$T/$n.txt" -o "$T/$n.rbc"
  grep -q "$n.txt: warning: .*\[$w\]" "$T/err" && ok || bad "$n: no [$w] warning: $(cat "$T/err")"
  [ "$(wc -l < "$T/err")" = 1 ] && ok || bad "$n: one warning expected: $(cat "$T/err")"
  [ -s "$T/$n.rbc" ] && ok || bad "$n: not compiled"
  expect_rc 2 "$R" compile --strict "$T/$n.txt" -o "$T/$n.strict.rbc"
  [ ! -e "$T/$n.strict.rbc" ] && ok || bad "$n: --strict wrote a blob"
done
expect_rc 1 "$R" check --agent a "$T/latin1.rbc" "/caf%E9"; grep -q "^disallow" "$T/out" && ok || bad "latin1 compiled as bytes"
expect_rc 0 "$R" check --agent a "$T/huge.rbc" /b; grep -q "^allow" "$T/out" && ok || bad "cut at 500 KiB"

# lint on binary input: exit 2 with the reason; --text reads it: one
# warning, exit 1.
expect_rc 2 "$R" lint "$T/bin.txt"
grep -q "bin.txt: binary content" "$T/err" && grep -q -- "--text" "$T/err" && ok || bad "lint binary: $(cat "$T/err")"
expect_rc 1 "$R" lint --text "$T/bin.txt"
[ "$(wc -l < "$T/out")" = 1 ] && grep -q "\[binary\]" "$T/out" && ok || bad "lint binary: $(head -5 "$T/out")"

# info and dump: bytes of the file that are control bytes or not ASCII are
# escaped (\xHH); info --agent gives crawl-delay and request-rate per agent.
printf 'User-agent: a\033[31mb\nCrawl-delay: 2.5\nRequest-rate: 1/10s\nDisallow: /x\nX-Evil: \033]0;pwned\007\377\nSitemap: http://e.com/\001s\n\nUser-agent: *\nCrawl-delay: soon\nDisallow: /y\n' > "$T/ctl.txt"
for c in info dump; do
  expect_rc 0 "$R" $c "$T/ctl.txt"
  LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f-\xff]' "$T/out" && bad "$c prints raw control bytes" || ok
done
expect_rc 0 "$R" info "$T/ctl.txt"
grep -qF 'X-Evil: \x1b]0;pwned\x07%FF' "$T/out" && ok || bad "info escapes: $(grep -a Evil "$T/out")"
grep -qF 'http://e.com/\x01s' "$T/out" && ok || bad "info escapes the sitemap"
expect_rc 0 "$R" dump "$T/ctl.txt"; grep -qF 'http://e.com/\x01s' "$T/out" && ok || bad "dump escapes the sitemap"
expect_rc 0 "$R" info --agent a --agent zed --user-agent "Mozilla/5.0 (compatible; a/1.0)" "$T/ctl.txt"
sed -n '/^agent a:/,/^agent zed:/p' "$T/out" > "$T/a.txt"
grep -q "crawl-delay: 2.5 s" "$T/a.txt" && grep -q "request-rate: 1 per 10 s" "$T/a.txt" && ok || bad "info --agent a: $(cat "$T/out")"
sed -n '/^agent zed:/,$p' "$T/out" > "$T/z.txt"
grep -q "crawl-delay: invalid (line 9: 'soon')" "$T/z.txt" && grep -q "request-rate: none" "$T/z.txt" && ok || bad "info --agent zed: $(cat "$T/z.txt")"
[ "$(grep -c '^agent a:' "$T/out")" = 2 ] && ok || bad "a whole User-Agent in info --agent"
expect_rc 0 "$R" info --agent Googlebot --agent other "$EX/robots.txt"
grep -A1 "^agent other:" "$T/out" | grep -q "crawl-delay: 5 s" && ok || bad "example: other's crawl-delay"
grep -A1 "^agent Googlebot:" "$T/out" | grep -q "crawl-delay: none" && ok || bad "example: Googlebot has none"
# info --agent says whether every URL gets one verdict (rsc_selection_uniform)
printf 'User-agent: *\nDisallow: /\n\nUser-agent: open\nDisallow:\n\nUser-agent: some\nDisallow: /x\n' > "$T/uni.txt"
expect_rc 0 "$R" info --agent nobody --agent open --agent some "$T/uni.txt"
grep -A3 "^agent nobody:" "$T/out" | grep -q "verdicts: every URL disallowed" && ok || bad "info: disallow-all: $(cat "$T/out")"
grep -A3 "^agent open:" "$T/out" | grep -q "verdicts: every URL allowed" && ok || bad "info: allow-all"
grep -A3 "^agent some:" "$T/out" | grep -q "verdicts: depend on the URL" && ok || bad "info: mixed"
expect_rc 0 "$R" info --agent "" "$EX/robots.txt"
grep -q "warning: agent '' is not a product token" "$T/err" && ok || bad "info: empty agent warning"
expect_rc 2 "$R" info --user-agent "" "$EX/robots.txt"


# ---- issue 26 ---------------------------------------------------------------
# .venv/ (the README's Python steps) is ignored by git.
grep -qx '\.venv/' "$EX/../.gitignore" && ok || bad ".venv/ not in .gitignore"

# docs/CRAWLER.md names Format_Major's byte as runtime/format.h places it.
hmajor=$(sed -n 's/^#define RSC_H_MAJOR \([0-9]*\)u.*/\1/p' "$EX/../runtime/format.h")
[ -n "$hmajor" ] && grep -q "blob Format_Major (byte $hmajor of the blob" "$EX/../docs/CRAWLER.md" && ok ||
  bad "docs/CRAWLER.md: Format_Major is byte $hmajor"

# Output to a full disk is an error, never a silent exit 0.
if [ -w /dev/full ]; then
  for c in "info $EX/robots.txt" "info --json $EX/robots.txt" "dump $T/ex.rbc" \
           "check --agent a $T/ex.rbc /x /y"; do
    $R $c >/dev/full 2>"$T/err"; rc=$?
    [ $rc = 2 ] && grep -q "cannot write output" "$T/err" && ok || bad "$c > /dev/full: rc $rc $(cat "$T/err")"
  done
fi

# Error messages escape raw bytes of names and values (\xHH), never echo them.
bad_name=$(printf '%s/bad\033[31m\377.rbc' "$T")
expect_rc 2 "$R" check --agent a "$bad_name" /x
grep -qF 'bad\x1b[31m\xff.rbc' "$T/err" && ! LC_ALL=C grep -q $'[\x1b\x80-\xff]' "$T/err" && ok ||
  bad "raw bytes in an error message: $(cat -v "$T/err")"
expect_rc 2 "$R" check --user-agent $'\377\033' "$T/ex.rbc" /x
grep -qF "'\xff\x1b'" "$T/err" && ! LC_ALL=C grep -q $'[\x1b\x80-\xff]' "$T/err" && ok || bad "raw agent: $(cat -v "$T/err")"
expect_rc 0 "$R" check --agent $'\377' "$T/ex.rbc" /x
! LC_ALL=C grep -q $'[\x80-\xff]' "$T/err" && grep -qF '\xff' "$T/err" && ok || bad "raw agent warning"

# --explain prints the deciding line as it reads, also when Google's
# index.html rule decided (the pattern /docs/$ is the compiler's).
printf 'User-agent: *\nDisallow: /docs/\nAllow: /docs/index.html   # the index\n' > "$T/idx.txt"
expect_rc 0 "$R" check --explain --agent a "$T/idx.txt" /docs/
[ "$(cat "$T/out")" = $'allow\t/docs/\tline 3: Allow: /docs/index.html   # the index' ] && ok || bad "explain index.html: $(cat "$T/out")"
expect_rc 1 "$R" check --explain --agent a "$T/idx.txt" /docs/x
grep -q $'\tline 2: Disallow: /docs/$' "$T/out" && ok || bad "explain line 2: $(cat "$T/out")"

# Damaged-blob and binary bytes: exit 2 with the reason from check, info,
# lint and dump; --text reads them as a robots.txt.
printf '\211RSB\004\nUser-agent: *\nDisallow: /\n' > "$T/near.txt"
head -c 600 /dev/urandom > "$T/rnd.bin"; printf '\0\1\2\3\4\5' >> "$T/rnd.bin"
for f in near.txt rnd.bin; do
  for c in "check --agent a" info lint dump; do
    if [ "$c" = "check --agent a" ]; then set -- /x; else set --; fi
    expect_rc 2 "$R" $c "$T/$f" "$@"
    grep -q "not read as a robots.txt (--text reads it as one)" "$T/err" && ok || bad "$c $f: $(cat "$T/err")"
    ! grep -q "allow" "$T/out" && ok || bad "$c $f printed a verdict"
  done
done
expect_rc 1 "$R" check --text --agent a "$T/near.txt" /x   # the '*' group disallows /
expect_rc 0 "$R" info --text "$T/rnd.bin"
expect_rc 2 "$R" lint "$T/ex.rbc"; grep -q "a robotsc blob" "$T/err" && ok || bad "lint of a blob: $(cat "$T/err")"
# Another major's header, whatever --text says, is a blob of that version.
python3 - "$T/ex.rbc" "$T/v9.rbc" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[4] = 9
open(sys.argv[2], 'wb').write(b)
PY
for c in "check --agent a" "check --text --agent a"; do
  expect_rc 2 "$R" $c "$T/v9.rbc" /x; grep -qi "version" "$T/err" && ok || bad "$c v9: $(cat "$T/err")"
done

# --json (JSON Lines): check, one object per URL; info, one object.
expect_rc 1 "$R" check --json --agent SomeBot "$T/ex.rbc" /private/x
printf '/private/x\n/private/press/x\n/\n' | "$R" check --json --agent SomeBot "$EX/robots.txt" >"$T/out" 2>"$T/err"
python3 - "$T/out" <<'PY' && ok || bad "check --json: $(cat "$T/out")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="ascii")]
assert [r["url"] for r in rows] == ["/private/x", "/private/press/x", "/"], rows
a, b, c = rows
assert a["allowed"] is False and a["decided"] is True and a["rule"] == "disallow" and a["line"] == 3, a
assert a["pattern"] == "/private/" and a["source"] == "Disallow: /private/" and a["priority"] == 9, a
assert b["allowed"] is True and b["rule"] == "allow", b
assert c == {"url": "/", "allowed": True, "decided": False, "line": 0, "rule": None, "priority": 0,
             "pattern": None, "source": None}, c
PY
# Strings are UTF-8 as they are (issue 37, item 11): a parser gets the
# characters back; a byte that is not UTF-8 becomes U+FFFD.
"$R" check --json --agent a "$T/ex.rbc" $'/caf\xc3\xa9"\\' 'https://例え.jp/ü' $'/x\xe9\x01' >"$T/out"
python3 - "$T/out" <<'PY' && ok || bad "check --json UTF-8: $(cat "$T/out")"
import json, sys
raw = open(sys.argv[1], "rb").read()
rows = [json.loads(l) for l in raw.decode("utf-8").splitlines()]
assert rows[0]["url"] == '/caf\u00e9"\\' and rows[0]["source"] is None, rows[0]
assert rows[1]["url"] == "https://例え.jp/ü", rows[1]
assert rows[2]["url"] == "/x\ufffd\x01", rows[2]
assert "例え".encode() in raw and b"\\u00" not in raw.split(b"\n")[1], raw
PY
expect_rc 0 "$R" info --json --agent Googlebot --agent other --user-agent "Mozilla/5.0 (compatible; x/1)" "$EX/robots.txt"
python3 - "$T/out" "$EX/robots.txt" <<'PY' && ok || bad "info --json: $(cat "$T/out")"
import json, os, sys
lines = open(sys.argv[1], encoding="ascii").read().splitlines()
assert len(lines) == 1
r = json.loads(lines[0])
assert r["profile"] == "google" and r["source_bytes"] == os.path.getsize(sys.argv[2]), r
assert r["blob_bytes"] > 0 and r["groups"] >= 2 and r["global_group"] is True and r["rules"] > 0, r
assert len(r["sitemaps"]) == 1 and r["sitemaps"][0]["url"].startswith("http"), r
g, o, x = r["crawlers"]
assert g["agent"] == "Googlebot" and g["token"] and g["named"] and g["crawl_delay"] is None, g
assert o["agent"] == "other" and o["crawl_delay"] == 5 and o["verdicts"] in ("mixed", "all-allowed", "all-disallowed"), o
assert x["agent"] == "x" and x["named"] is False, x
for k in ("rule_sets", "programs", "trie_nodes", "largest_trie", "globs", "directives", "agents"):
    assert k in r, k
PY
expect_rc 0 "$R" info --json "$T/ex.rbc"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['source_bytes'] is None and r['crawlers'] == []" "$T/out" && ok || bad "info --json of a blob"

# robotsc bench: its last line, on a rule set whose DFA is in the blob
# (engine=dfa, its bytes counted) and on one over the compiler's DFA budget
# (60 two-star rules: it keeps the programs, engine=programs, no DFA bytes),
# the verdicts of every engine alike (a signal fails it too); the 1.0
# figures of a run-time DFA and those of the dense rows (removed) are gone
printf 'http://h/a/1x7\nhttp://h/b/12/x\nhttp://h/zz\n/private/x\n' >"$T/bu.txt"
for i in $(seq 1 60); do echo "Disallow: /*$i*x$((i * 7))"; done | (echo "User-agent: *"; cat) >"$T/partial.txt"
for f in "$EX/robots.txt:dfa" "$T/partial.txt:programs"; do
  expect_rc 0 "$R" bench --rounds 1 --min-ms 1 "${f%:*}" "$T/bu.txt"
  last=$(tail -n 1 "$T/out")
  case "$last" in
    compile_us=*" engine=${f##*:} dfa_bytes="*" dfa_match_ns="*" dfa_ratio="*) ok ;;
    *) bad "bench ${f%:*}: $last" ;;
  esac
  case "${f##*:}:$last" in
    dfa:*" dfa_bytes=0 "*|programs:*" dfa_bytes="[1-9]*) bad "bench ${f%:*}: DFA bytes against the engine: $last" ;;
    *) ok ;;
  esac
  case "$last" in *accel*|*dfa_build*|*dfa_partial*) bad "bench ${f%:*}: a 1.0 figure: $last" ;; *) ok ;; esac
  case "$last" in *dense*) bad "bench ${f%:*}: a dense rows' figure: $last" ;; *) ok ;; esac
  grep -q "^dense:" "$T/out" && bad "bench ${f%:*}: a dense line" || ok
  grep -q "^engine:   ${f##*:} " "$T/out" && ok || bad "bench ${f%:*}: no engine line"
  grep -q "^verdicts:" "$T/out" && ok || bad "bench ${f%:*}: no verdicts line"
done

# robotsc check: 80 URLs from standard input, every verdict equal to
# --explain's (the programs), on a rule set with a DFA in the blob and on one
# over the DFA budget, both verdicts present
for i in $(seq 1 40); do echo "http://h/$((i % 7))/x$((i * 7))"; echo "http://h/search/$i"; done >"$T/many.txt"
for f in "$EX/robots.txt" "$T/partial.txt"; do
  "$R" check --agent Googlebot "$f" <"$T/many.txt" | cut -f1 >"$T/v1"
  "$R" check --explain --agent Googlebot "$f" <"$T/many.txt" | cut -f1 >"$T/v2"
  [ "$(wc -l <"$T/v1")" = 80 ] && cmp -s "$T/v1" "$T/v2" && grep -q '^allow$' "$T/v1" && grep -q '^disallow$' "$T/v1" &&
    ok || bad "check of 80 URLs (${f##*/}): the DFA and the programs differ, or one verdict only"
done

# ---- issue 37 --------------------------------------------------------------
# Item 3: compile refuses a blob (it would compile to allow-all), and a
# damaged one; --text compiles the bytes as Google reads them.
rm -f "$T/again.rbc"
expect_rc 2 "$R" compile "$T/ex.rbc" -o "$T/again.rbc"
grep -q "already a compiled blob" "$T/err" && [ ! -e "$T/again.rbc" ] && ok || bad "compile of a blob: $(cat "$T/err")"
cp "$T/ex.rbc" "$T/dmg.rbc"; printf '\210' | dd of="$T/dmg.rbc" bs=1 seek=0 conv=notrunc 2>/dev/null
expect_rc 2 "$R" compile "$T/dmg.rbc" -o "$T/again.rbc"
grep -q "damaged" "$T/err" && [ ! -e "$T/again.rbc" ] && ok || bad "compile of a damaged blob: $(cat "$T/err")"
expect_rc 0 "$R" compile --text "$T/ex.rbc" -o "$T/again.rbc"
expect_rc 0 "$R" check --agent BadBot "$T/again.rbc" /x   # the blob's bytes as text: no rules
expect_rc 1 "$R" check --agent BadBot "$T/ex.rbc" /x      # the blob itself: disallowed

# Item 2: diff of a damaged blob, binary or UTF-16 is an error (exit 2),
# never "disallow -> allow" of an empty robots.txt; --text reads it as text.
printf 'User-agent: *\nDisallow: /private/\n' >"$T/old.txt"
printf 'User-agent: *\nDisallow: /private/\n' | iconv -f UTF-8 -t UTF-16 >"$T/u16.txt"
head -c 300 /dev/urandom | tr -d '\n' | tr '\000-\010' '\001' >"$T/bin.dat"; printf '\000\001\002\003\004\005\006' >>"$T/bin.dat"
for f in dmg.rbc u16.txt; do
  expect_rc 2 "$R" diff "$T/old.txt" "$T/$f"; [ -s "$T/err" ] && ! grep -q "allow" "$T/out" && ok || bad "diff NEW $f: $(cat "$T/out")"
  expect_rc 2 "$R" diff "$T/$f" "$T/old.txt"
done
grep -q "looks like UTF-16" "$T/err" && ok || bad "diff names UTF-16: $(cat "$T/err")"
expect_rc 1 "$R" diff --text "$T/old.txt" "$T/u16.txt"

# Item 9: UTF-16 is named the same by check, info, lint, dump and compile;
# lint gives compile's [encoding] warning for bytes that are not UTF-8.
for c in "check --agent a" info lint dump; do
  expect_rc 2 "$R" $c "$T/u16.txt" $( [ "$c" = "check --agent a" ] && echo /x )
  grep -q "looks like UTF-16 text" "$T/err" && ok || bad "$c of UTF-16: $(cat "$T/err")"
done
"$R" compile "$T/u16.txt" -o "$T/u16.rbc" 2>"$T/err"; grep -q "looks like UTF-16 text" "$T/err" && ok || bad "compile UTF-16: $(cat "$T/err")"
expect_rc 1 "$R" lint --text "$T/u16.txt"; grep -q "\[utf-16\]" "$T/out" && ok || bad "lint --text UTF-16: $(cat "$T/out")"
printf 'User-agent: *\nDisallow: /caf\351\n' >"$T/latin1.txt"
"$R" compile "$T/latin1.txt" -o "$T/latin1.rbc" 2>"$T/cerr"
expect_rc 1 "$R" lint "$T/latin1.txt"
grep -q "not UTF-8 from line 2.*\[encoding\]" "$T/out" && grep -q "not UTF-8 from line 2.*\[encoding\]" "$T/cerr" &&
  ok || bad "lint [encoding]: $(cat "$T/out") / compile: $(cat "$T/cerr")"
expect_rc 1 "$R" lint --json "$T/latin1.txt"
python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['diagnostics']; assert any(x['code']=='encoding' for x in d), d" "$T/out" && ok || bad "lint --json [encoding]"
"$R" lint --no-warn encoding "$T/latin1.txt" >"$T/out"; ! grep -q "encoding" "$T/out" && ok || bad "lint --no-warn encoding"
expect_rc 0 "$R" lint "$T/old.txt"   # UTF-8 text: no encoding warning

# Item 11: info --json and lint --json give UTF-8 a parser reads back.
printf 'User-agent: *\nDisallow: /x\nSitemap: https://例え.jp/s.xml\n' >"$T/idn.txt"
expect_rc 0 "$R" info --json "$T/idn.txt"
python3 -c "import json,sys; r=json.loads(open(sys.argv[1],'rb').read().decode()); assert r['sitemaps'][0]['url']=='https://例え.jp/s.xml', r" "$T/out" && ok || bad "info --json UTF-8: $(cat "$T/out")"

if "$R" store --help >/dev/null 2>&1; then
  # Item 7: a command that only reads or changes a store never creates one.
  for c in "del $T/nosuch.db https://e.com" "gc $T/nosuch.db" "list $T/nosuch.db" "stat $T/nosuch.db" \
           "get $T/nosuch.db https://e.com" "check $T/nosuch.db --agent a https://e.com/x" \
           "diff $T/nosuch.db https://e.com $T/old.txt"; do
    expect_rc 2 "$R" store $c
    grep -q "no such store" "$T/err" && [ ! -e "$T/nosuch.db" ] && ok || bad "store $c: $(cat "$T/err"); $(ls "$T" | grep nosuch)"
  done
  mkdir -p "$T/adir"; expect_rc 2 "$R" store gc "$T/adir"; grep -q "not a store" "$T/err" && ok || bad "store gc DIR: $(cat "$T/err")"
  # Item 8: put of robots.txt text compiles it (never "damaged blob")
  expect_rc 0 "$R" store put "$T/s37.db" https://e.com "$T/old.txt" --now 1000
  expect_rc 0 "$R" store check "$T/s37.db" --now 1000 --agent a https://e.com/private/x
  grep -q "^disallow" "$T/out" && ok || bad "store put of text: $(cat "$T/out")"
  # Item 10: --status 503 is disallow-all retried after 15 minutes, not for ever;
  # a status outside 100..599 is refused.
  expect_rc 0 "$R" store put "$T/s37.db" https://f.com "$T/old.txt" --status 503 --now 1000
  expect_rc 0 "$R" store get --json "$T/s37.db" https://f.com
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['policy']=='disallow-all' and r['expires']==1900 and r['error_since']==1000, r" "$T/out" && ok || bad "put --status 503: $(cat "$T/out")"
  expect_rc 2 "$R" store put "$T/s37.db" https://f.com "$T/old.txt" --status 503 --ttl 0
  expect_rc 0 "$R" store put "$T/s37.db" https://f.com "$T/old.txt" --status 503 --ttl 60 --now 1000
  "$R" store get --json "$T/s37.db" https://f.com >"$T/out"; grep -q '"expires":1060' "$T/out" && ok || bad "put 503 --ttl 60: $(cat "$T/out")"
  for st in 99 999 600 -1 abc; do expect_rc 2 "$R" store put "$T/s37.db" https://g.com "$T/old.txt" --status $st; done
  expect_rc 0 "$R" store put "$T/s37.db" https://g.com "$T/old.txt" --status 404 --now 1000
  "$R" store get --json "$T/s37.db" https://g.com >"$T/out"; grep -q '"expires":null' "$T/out" && ok || bad "put 404: never expires"
  # store build DIR: skipped files counted, the summary adds up, the scheme said.
  mkdir -p "$T/bd/sub"; cp "$T/old.txt" "$T/bd/a.example.txt"; cp "$T/old.txt" "$T/bd/b.example"
  cp "$T/old.txt" "$T/bd/.c.example.txt"; cp "$T/old.txt" "$T/bd/sub/d.example.txt"; cp "$T/old.txt" "$T/bd/bad host.txt"
  expect_rc 1 "$R" store build "$T/b37.db" "$T/bd"
  python3 - "$T/out" <<'PY' && ok || bad "store build summary: $(cat "$T/out")"
import re, sys
t = open(sys.argv[1]).read()
n = lambda pat: int(re.search(pat, t, re.M).group(1))
src, comp, unch, fail, skip = n(r"^sources: (\d+)"), n(r"compiled: (\d+)"), n(r"unchanged: (\d+)"), n(r"failed: (\d+)$"), n(r"^skipped: (\d+)")
assert (src, comp, fail, skip) == (5, 1, 1, 3), (src, comp, fail, skip)
assert src == comp + unch + fail + skip
assert "1 not named HOST.txt" in t and "1 hidden" in t and "1 subfolders" in t, t
assert "https://HOST only" in t and "--scheme http" in t, t
PY
  expect_rc 2 "$R" store build "$T/b37.db" "$T/bd" --scheme ftp
fi

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
