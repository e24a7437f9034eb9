#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Go module's tests on a fresh machine, offline: Debian's golang-go (and
# the C build tools, cli/setup.sh), the C libraries built with CMake and
# installed into go/.build/prefix (static: the packages link them through
# pkg-config, as a user's program links an installed robotsc), the CLI the
# tests compare with, then `go vet` and `go test ./...` (with -race where
# the toolchain has it).
#   bash go/test.sh                  (from anywhere)
#   ROBOTSC_CLI=build/robotsc bash go/test.sh    (compare with that CLI)
#   ROBOTSC_BUILD=build ROBOTSC_CLI=build/robotsc bash go/test.sh
#                                    (that static build's libraries: no C build here)
#   bash go/test.sh -run Conformance -v          (arguments go to go test)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# cli/setup.sh reads its own $1 (extra packages to install): source it
# without this script's arguments, which are go test's.
args=("$@")
set --
. cli/setup.sh
set -- ${args[@]+"${args[@]}"}
if ! command -v go >/dev/null 2>&1; then
  echo "installing: golang-go"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq golang-go >/dev/null
fi
. go/env.sh
if [ -z "${ROBOTSC_CLI:-}" ]; then
  export ROBOTSC_CLI=$root/go/.build/cmake/robotsc
  if [ -n "${ROBOTSC_BUILD:-}" ]; then
    ROBOTSC_CLI=$ROBOTSC_BUILD/robotsc
    case $ROBOTSC_CLI in /*) ;; *) ROBOTSC_CLI=$root/$ROBOTSC_CLI ;; esac
  fi
else
  case $ROBOTSC_CLI in /*) ;; *) export ROBOTSC_CLI=$root/$ROBOTSC_CLI ;; esac
fi
cd go
echo "== go vet ./..."
go vet ./...
race=""
# -race needs the race runtime (linux/amd64 and arm64 ship it) and cgo.
if go env GOOS GOARCH | tr '\n' ' ' | grep -Eq '^linux (amd64|arm64) '; then
  race="-race"
fi
echo "== go test $race ./... (CLI: $ROBOTSC_CLI)"
go test $race -count=1 ./... "$@"
# The DFA run in Go (dfa.go) against C under Go's fuzzer for a while (its
# seeds already ran as tests above).
if [ $# -eq 0 ]; then
  echo "== go test -fuzz FuzzDFAGoEqualsC (${ROBOTSC_GO_FUZZTIME:-20s})"
  go test -run '^$' -fuzz '^FuzzDFAGoEqualsC$' -fuzztime "${ROBOTSC_GO_FUZZTIME:-20s}" .
fi
# The opt-in build that calls the check through runtime.asmcgocall
# (call_fast.go): the same verdicts, without the CLI comparisons.
if [ $# -eq 0 ] && go env GOARCH | grep -Eq '^(amd64|arm64)$'; then
  echo "== go test $race -tags robotsc_fastcall (the checks' tests)"
  go test $race -count=1 -tags robotsc_fastcall \
    -run 'Conformance|Damaged|InputKinds|API|Close|NoAllocation|Goroutines|Empty|Long|Shared|Google|UserAgent|Paths|DFA' . ./robotstxt
fi
