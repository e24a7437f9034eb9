#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# robotsc upgrade and robotsc store upgrade on the golden format-4 blobs of
# tests/upgrade/data (written by robotsc 1.0.0):
# - upgrade writes exactly what compile writes for the blob's source, and
#   says what it did; an upgraded (current) blob is copied unchanged;
# - errors (text, truncated, damaged, missing arguments) exit 2 and leave the
#   output untouched;
# - store upgrade rebuilds a store of format-4 records in place: every record
#   then is the current compile of its source, metadata kept, and store check
#   answers as check does on the source; a second run has nothing to do;
#   --dry-run writes nothing; a path that is not a store is refused and
#   nothing is created there (not even LMDB's lock file).
# Usage: upgrade_cli.sh ROBOTSC TEST_UPGRADE DATA_DIR
set -u
R=$1
T=$2
D=$3
fails=0
checks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { checks=$((checks + 1)); }
bad() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
expect() { # expect CODE WHAT CMD...
  want=$1; what=$2; shift 2
  "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  if [ "$got" -eq "$want" ]; then ok; else bad "$what: exit $got, expected $want ($(cat "$tmp/err"))"; fi
}

# Format 4 is current until format 5 lands; then the blobs rebuild without --force.
"$R" compile "$D/empty.txt" -o "$tmp/cur.rbc" || exit 2
cur=$(od -An -tu1 -j4 -N1 "$tmp/cur.rbc" | tr -d ' ')
force=
[ "$cur" = 4 ] && force=--force

for v4 in "$D"/*.v4.rbc; do
  name=$(basename "$v4" .v4.rbc)
  profile=google
  case $name in rfc_*) profile=rfc ;; esac
  expect 0 "$name: upgrade" "$R" upgrade $force "$v4" -o "$tmp/$name.rbc"
  grep -q "rebuilt as format $cur" "$tmp/err" && ok || bad "$name: upgrade says: $(cat "$tmp/err")"
  "$R" compile --profile "$profile" "$D/$name.txt" -o "$tmp/$name.direct.rbc" 2>/dev/null
  cmp -s "$tmp/$name.rbc" "$tmp/$name.direct.rbc" && ok || bad "$name: upgrade is not the compile of its source"
  # --explain through the CLI: the rebuilt blob against the source itself.
  "$R" check --explain --agent googlebot "$tmp/$name.rbc" < "$D/urls.txt" > "$tmp/a" 2>/dev/null
  "$R" check --explain --profile "$profile" --agent googlebot "$D/$name.txt" < "$D/urls.txt" > "$tmp/b" 2>/dev/null
  cut -f1,2 "$tmp/a" > "$tmp/a2"; cut -f1,2 "$tmp/b" > "$tmp/b2"
  # Lines as compiled (a blob) and as read (a source) differ in form only:
  # compare the verdicts and the deciding line numbers.
  sed 's/.*line \([0-9]*\).*/\1/;s/.*no rule applies.*/-/' "$tmp/a" | paste "$tmp/a2" - > "$tmp/a3"
  sed 's/.*line \([0-9]*\).*/\1/;s/.*no rule applies.*/-/' "$tmp/b" | paste "$tmp/b2" - > "$tmp/b3"
  [ -s "$tmp/a3" ] && cmp -s "$tmp/a3" "$tmp/b3" && ok || bad "$name: check --explain differs"
  # Already current: copied, and said so.
  expect 0 "$name: upgrade of a current blob" "$R" upgrade "$tmp/$name.rbc" -o "$tmp/$name.again.rbc"
  grep -q "already format $cur" "$tmp/err" && ok || bad "$name: second upgrade says: $(cat "$tmp/err")"
  cmp -s "$tmp/$name.rbc" "$tmp/$name.again.rbc" && ok || bad "$name: a current blob was changed"
done

# Errors: exit 2, output untouched.
echo keep > "$tmp/keep"
expect 2 "text input" "$R" upgrade "$D/example.txt" -o "$tmp/keep"
head -c 100 "$D/example.v4.rbc" > "$tmp/trunc.rbc"
expect 2 "truncated input" "$R" upgrade $force "$tmp/trunc.rbc" -o "$tmp/keep"
grep -q "offset" "$tmp/err" && ok || bad "truncated: no offset in: $(cat "$tmp/err")"
cp "$D/example.v4.rbc" "$tmp/flip.rbc"
printf '\377' | dd of="$tmp/flip.rbc" bs=1 seek=40 conv=notrunc 2>/dev/null
expect 2 "damaged input" "$R" upgrade $force "$tmp/flip.rbc" -o "$tmp/keep"
grep -q -i "checksum" "$tmp/err" && ok || bad "damaged: $(cat "$tmp/err")"
[ "$(cat "$tmp/keep")" = keep ] && ok || bad "a failed upgrade changed its output"
expect 2 "no -o" "$R" upgrade "$D/example.v4.rbc"
expect 2 "missing input" "$R" upgrade "$tmp/none.rbc" -o "$tmp/x.rbc"
[ ! -e "$tmp/x.rbc" ] && ok || bad "a failed upgrade created its output"
expect 2 "unknown option" "$R" upgrade --what "$D/example.v4.rbc" -o "$tmp/x.rbc"
expect 0 "help" "$R" upgrade --help
# OLD may be NEW.
cp "$D/example.v4.rbc" "$tmp/inplace.rbc"
expect 0 "in place" "$R" upgrade $force "$tmp/inplace.rbc" -o "$tmp/inplace.rbc"
cmp -s "$tmp/inplace.rbc" "$tmp/example.rbc" && ok || bad "in-place upgrade differs"

# ---- store upgrade -------------------------------------------------------
if ! "$R" store --help > /dev/null 2>&1; then
  echo "upgrade_cli: $checks checks passed, $fails failed (no store: store upgrade not tested)"
  [ "$fails" -eq 0 ] || exit 1
  exit 0
fi
db=$tmp/v4.db
"$T" --mkstore "$db" "$D" > "$tmp/map" || { bad "mkstore"; exit 1; }
n=$(wc -l < "$tmp/map")
expect 0 "store upgrade --dry-run" "$R" store upgrade --dry-run $force "$db"
grep -q "$n records: $n would be rebuilt" "$tmp/out" && ok || bad "dry run: $(cat "$tmp/out")"
# A format-4 record is stale for the current runtime (once format 5 is current).
[ "$cur" = 4 ] || { expect 2 "store get of a format-4 record" "$R" store get "$db" https://g0.example; }
expect 0 "store upgrade" "$R" store upgrade $force "$db"
grep -q "$n records: $n rebuilt, 0 already current" "$tmp/out" && ok || bad "store upgrade: $(cat "$tmp/out")"
# Every record: the current compile of its source; its metadata kept.
while IFS="$(printf '\t')" read -r key name; do
  profile=google
  case $name in rfc_*) profile=rfc ;; esac
  expect 0 "$key: store get" "$R" store get "$db" "$key" -o "$tmp/got.rbc"
  cmp -s "$tmp/got.rbc" "$tmp/$name.direct.rbc" && ok || bad "$key ($name): stored blob is not the compile of its source"
  grep -q "^format: $cur" "$tmp/out" && ok || bad "$key: format $(grep format "$tmp/out")"
  grep -q "^source: $key" "$tmp/out" && ok || bad "$key: metadata lost"
  # store check answers as check on the source.
  # (the URLs of example.com's https origin: the others have no record here)
  grep '^https://example.com/' "$D/urls.txt" > "$tmp/urls0"
  sed "s#^https://example.com#$key#" "$tmp/urls0" > "$tmp/urls"
  "$R" store check "$db" --agent foobot < "$tmp/urls" 2>/dev/null | cut -f1 > "$tmp/s"
  "$R" check --profile "$profile" --agent foobot "$D/$name.txt" < "$tmp/urls0" 2>/dev/null | cut -f1 > "$tmp/c"
  [ -s "$tmp/s" ] && cmp -s "$tmp/s" "$tmp/c" && ok || bad "$key ($name): store check differs from check"
done < "$tmp/map"
# The metadata test_upgrade --mkstore wrote (g1: the second name) is kept.
"$R" store get "$db" https://g1.example --json > "$tmp/meta1" 2>/dev/null
for f in '"fetched_at":1700000001' '"expires":null' '"status":200' '"has_copy":true' '"profile":"google"' \
         '"source":"https://g1.example"'; do
  tr ',' '\n' < "$tmp/meta1" | grep -q -F "$f" && ok || bad "metadata $f lost: $(cat "$tmp/meta1")"
done
expect 0 "store upgrade again" "$R" store upgrade "$db"
grep -q "$n records: 0 rebuilt, $n already current" "$tmp/out" && ok || bad "second store upgrade: $(cat "$tmp/out")"
# Not stores: refused, nothing created.
expect 2 "store upgrade of a missing path" "$R" store upgrade "$tmp/nostore.db"
[ ! -e "$tmp/nostore.db" ] && [ ! -e "$tmp/nostore.db-lock" ] && ok || bad "store upgrade created a store"
cp "$D/example.txt" "$tmp/text.db"
expect 2 "store upgrade of a text file" "$R" store upgrade "$tmp/text.db"
cmp -s "$tmp/text.db" "$D/example.txt" && [ ! -e "$tmp/text.db-lock" ] && ok || bad "store upgrade touched a text file"
expect 2 "store upgrade of a directory" "$R" store upgrade "$tmp"
expect 2 "store upgrade without DB" "$R" store upgrade
expect 0 "store upgrade help" "$R" store upgrade --help

echo "upgrade_cli: $checks checks passed, $fails failed"
[ "$fails" -eq 0 ]
