#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `-o OUT` does to each kind of target (issue 37, item 6): a regular
# file is replaced in one step; a symbolic link is followed and the file it
# names replaced (the link survives, a dangling one gets its target
# created); a FIFO and a character device are written through, never
# replaced by a regular file; a directory or a socket is refused.
# compile -o, store get -o and fetch -o share rsc_cli_write_atomic; compile
# and store get are run here (fetch needs a server: tests/crawl).
# usage: output_targets.sh ROBOTSC EXAMPLES_DIR
set -u
R=$1; EX=$2
T=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
"$R" compile "$EX/robots.txt" -o "$T/want.rbc" || { echo "cannot compile the example"; exit 1; }
same() { cmp -s "$1" "$T/want.rbc"; }

# A regular file: replaced (a new inode, the old mode kept).
echo old >"$T/reg.rbc"; chmod 640 "$T/reg.rbc"; ino=$(stat -c %i "$T/reg.rbc")
"$R" compile "$EX/robots.txt" -o "$T/reg.rbc" && same "$T/reg.rbc" && [ "$(stat -c %a "$T/reg.rbc")" = 640 ] &&
  [ "$(stat -c %i "$T/reg.rbc")" != "$ino" ] && ok || bad "regular file"
# A missing file: created.
"$R" compile "$EX/robots.txt" -o "$T/new.rbc" && same "$T/new.rbc" && ok || bad "new file"

# A symlink to a regular file: the link survives, its target is replaced.
echo old >"$T/target.rbc"; ln -s target.rbc "$T/link.rbc"
"$R" compile "$EX/robots.txt" -o "$T/link.rbc" && [ -L "$T/link.rbc" ] &&
  [ "$(readlink "$T/link.rbc")" = target.rbc ] && same "$T/target.rbc" && ok || bad "symlink: $(ls -l "$T")"
# A chain of links across directories, relative targets.
mkdir -p "$T/a" "$T/b"; echo old >"$T/b/final.rbc"
ln -s ../b/final.rbc "$T/a/l2"; ln -s a/l2 "$T/l1"
"$R" compile "$EX/robots.txt" -o "$T/l1" && [ -L "$T/l1" ] && [ -L "$T/a/l2" ] && same "$T/b/final.rbc" &&
  ok || bad "symlink chain"
# A dangling symlink: the file it names is created, the link kept.
ln -s made.rbc "$T/dangling.rbc"
"$R" compile "$EX/robots.txt" -o "$T/dangling.rbc" && [ -L "$T/dangling.rbc" ] && same "$T/made.rbc" &&
  ok || bad "dangling symlink: $(ls -l "$T")"
# A symlink loop: an error, nothing replaced.
ln -s loop2 "$T/loop1"; ln -s loop1 "$T/loop2"
"$R" compile "$EX/robots.txt" -o "$T/loop1" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ -L "$T/loop1" ] && [ -L "$T/loop2" ] && ok || bad "symlink loop: exit $rc $(cat "$T/err")"

# A FIFO with a reader: written through, still a FIFO afterwards.
mkfifo "$T/fifo"
timeout 20 cat "$T/fifo" >"$T/fifo.out" & reader=$!
"$R" compile "$EX/robots.txt" -o "$T/fifo"; rc=$?
wait $reader
[ $rc = 0 ] && [ -p "$T/fifo" ] && same "$T/fifo.out" && ok || bad "FIFO: exit $rc, $(ls -l "$T/fifo")"
# A symlink to a FIFO: written through too.
ln -s fifo "$T/fifolink"
timeout 20 cat "$T/fifo" >"$T/fifo.out2" & reader=$!
"$R" compile "$EX/robots.txt" -o "$T/fifolink"; rc=$?
wait $reader
[ $rc = 0 ] && [ -p "$T/fifo" ] && [ -L "$T/fifolink" ] && same "$T/fifo.out2" && ok || bad "link to a FIFO"

# A character device of the test's own (a copy of /dev/null: 1,3), so that
# a regression replaces nothing the machine uses.
if mknod "$T/null" c 1 3 2>/dev/null && [ -c "$T/null" ]; then
  "$R" compile "$EX/robots.txt" -o "$T/null"; rc=$?
  [ $rc = 0 ] && [ -c "$T/null" ] && [ "$(stat -c %t,%T "$T/null")" = 1,3 ] && ok || bad "char device: exit $rc, $(ls -l "$T/null")"
  if "$R" store --help >/dev/null 2>&1; then
    "$R" store put "$T/s.db" https://e.com "$EX/robots.txt" >/dev/null &&
      "$R" store get "$T/s.db" https://e.com -o "$T/null" >/dev/null && [ -c "$T/null" ] && ok || bad "store get -o char device"
  fi
else
  echo "mknod not permitted here: the character device case is not run (the FIFO case covers write-through)"
fi
# /dev/stdout is a link to /proc/self/fd/1, which names a pipe ("pipe:[N]")
# or the file standard output was redirected to. A link of the test's own
# of the same kind, so that a regression (a rename over the link) replaces
# nothing the machine uses: the blob goes through it.
if [ -e /proc/self/fd/1 ]; then
  ln -s /proc/self/fd/1 "$T/stdout"
  "$R" compile "$EX/robots.txt" -o "$T/stdout" | cmp -s - "$T/want.rbc" && [ -L "$T/stdout" ] &&
    ok || bad "-o a link to /proc/self/fd/1 (a pipe)"
  ln -s /proc/self/fd/1 "$T/stdout2"
  "$R" compile "$EX/robots.txt" -o "$T/stdout2" >"$T/redirected.rbc" && same "$T/redirected.rbc" && [ -L "$T/stdout2" ] &&
    ok || bad "-o a link to /proc/self/fd/1 (a file)"
fi

# A directory and a socket: refused (exit 2, a message), left as they were.
mkdir "$T/dir"
"$R" compile "$EX/robots.txt" -o "$T/dir" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ -d "$T/dir" ] && grep -q "dir" "$T/err" && ok || bad "directory: exit $rc"
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$T/sock" 2>/dev/null
if [ -S "$T/sock" ]; then
  "$R" compile "$EX/robots.txt" -o "$T/sock" 2>"$T/err"; rc=$?
  [ $rc = 2 ] && [ -S "$T/sock" ] && grep -q "not a regular file, FIFO or character device" "$T/err" &&
    ok || bad "socket: exit $rc $(cat "$T/err")"
fi
# store get -o through a link: the link survives.
if "$R" store --help >/dev/null 2>&1; then
  "$R" store put "$T/s.db" https://e.com "$EX/robots.txt" >/dev/null
  echo old >"$T/got.rbc"; ln -s got.rbc "$T/gotlink"
  "$R" store get "$T/s.db" https://e.com -o "$T/gotlink" >/dev/null && [ -L "$T/gotlink" ] &&
    "$R" check --agent a "$T/got.rbc" /x >/dev/null; [ $? -le 1 ] && [ -L "$T/gotlink" ] && ok || bad "store get -o link"
fi

# OUT is the robots.txt being compiled (by its name, a symbolic link, a
# hard link, or standard input's file): refused (exit 2), the source kept.
cp "$EX/robots.txt" "$T/src.txt"; ln -s src.txt "$T/srclink"; ln "$T/src.txt" "$T/srchard"
for o in "$T/src.txt" "$T/srclink" "$T/srchard"; do
  "$R" compile "$T/src.txt" -o "$o" 2>"$T/err"; rc=$?
  [ $rc = 2 ] && cmp -s "$T/src.txt" "$EX/robots.txt" && grep -q "would be destroyed" "$T/err" && ok ||
    bad "compile -o its own source ($o): exit $rc $(cat "$T/err")"
done
"$R" compile - -o "$T/src.txt" <"$T/src.txt" 2>"$T/err"; rc=$?
[ $rc = 2 ] && cmp -s "$T/src.txt" "$EX/robots.txt" && ok || bad "compile - -o the file on stdin: exit $rc"
# ... while another file, and stdin from a pipe, still compile.
cat "$T/src.txt" | "$R" compile - -o "$T/piped.rbc" && same "$T/piped.rbc" && ok || bad "compile - from a pipe"

# fetch -o: the same writer, from a local server. A FIFO gets the blob and
# no OUT.meta record beside it; a link keeps its link and gets the record.
mkdir -p "$T/www"; cp "$EX/robots.txt" "$T/www/robots.txt"
python3 - "$T/www" >"$T/port" 2>/dev/null <<'PY' &
import functools, http.server, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
h.log_message = lambda *a: None
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
server=$!
for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
if [ -s "$T/port" ] && "$R" fetch --help >/dev/null 2>&1; then
  U="http://127.0.0.1:$(cat "$T/port")/x"
  mkfifo "$T/ffifo"
  timeout 20 cat "$T/ffifo" >"$T/ffifo.out" & reader=$!
  "$R" fetch "$U" -o "$T/ffifo" --agent a >/dev/null 2>"$T/err"; rc=$?
  wait $reader
  [ $rc = 0 ] && [ -p "$T/ffifo" ] && same "$T/ffifo.out" && [ ! -e "$T/ffifo.meta" ] && ok ||
    bad "fetch -o FIFO: exit $rc $(cat "$T/err"); $(ls -l "$T" | grep ffifo)"
  echo old >"$T/ftarget.rbc"; ln -s ftarget.rbc "$T/flink.rbc"
  "$R" fetch "$U" -o "$T/flink.rbc" >/dev/null 2>"$T/err"; rc=$?
  [ $rc = 0 ] && [ -L "$T/flink.rbc" ] && same "$T/ftarget.rbc" && [ -f "$T/flink.rbc.meta" ] && ok ||
    bad "fetch -o link: exit $rc $(cat "$T/err")"
else
  echo "no local HTTP server (or fetch not built): fetch -o not run"
fi
kill $server 2>/dev/null

echo "output_targets: $pass passed, $fail failed"
[ $fail = 0 ]
