#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts tests/crawl/server.py on 127.0.0.1 (free ports), runs the given
# command with RSC_TEST_PORTS (the "scenario port" file), RSC_TEST_LOG and
# RSC_TEST_STATE set, then stops the server. Proxies are disabled so no
# request can leave 127.0.0.0/8.
set -u
SERVER=$1; shift
T=$(mktemp -d)
unset http_proxy https_proxy ftp_proxy all_proxy HTTP_PROXY HTTPS_PROXY FTP_PROXY ALL_PROXY
export NO_PROXY='*' no_proxy='*'
PY=$(command -v python3 || echo /usr/bin/python3)
if [ ! -x "$PY" ]; then echo "python3 not found: skipping"; exit 77; fi
"$PY" "$SERVER" "$T/ports" "$T/log" "$T" 2>"$T/server.err" &
SPID=$!
cleanup() { kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
for _ in $(seq 1 200); do
  [ -f "$T/ports" ] && break
  kill -0 "$SPID" 2>/dev/null || break
  sleep 0.05
done
if [ ! -f "$T/ports" ]; then echo "test server did not start:"; cat "$T/server.err"; exit 1; fi
touch "$T/log"
export RSC_TEST_PORTS="$T/ports" RSC_TEST_LOG="$T/log" RSC_TEST_STATE="$T"
"$@"
