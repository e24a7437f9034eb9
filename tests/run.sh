#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds robotsc twice (optimised, and with ASan+UBSan) and runs every test
# in both builds, then the JavaScript package's tests (js/test.sh), the Rust
# crates' (rust/test.sh: cargo test) and the Go module's (go/test.sh: go
# test, linking the optimised build's static libraries). Installs
# missing build tools first. ../shared (corpus and
# conformance data) is used when present; corpus tests skip without it.
set -euo pipefail
cd "$(dirname "$0")/.."
. cli/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
for cfg in release asan; do
  dir=build-test-$cfg
  flags="-DCMAKE_BUILD_TYPE=RelWithDebInfo -DRSC_WERROR=ON"
  [ $cfg = asan ] && flags="$flags -DRSC_SANITIZE=ON"
  echo "== $cfg build"
  cmake -S . -B $dir $GEN $flags >/dev/null
  cmake --build $dir -j "$jobs"
  echo "== $cfg tests"
  (cd $dir && ctest --output-on-failure -j "$jobs")
done
# The JavaScript package (WebAssembly build of the same sources, npm tests,
# compared with the release build's CLI on every corpus URL list).
echo "== js tests"
ROBOTSC_JS_CORPUS_ALL=1 ROBOTSC_CLI=build-test-release/robotsc bash js/test.sh
# The Rust crates (cargo test, offline: Debian's packaged crates) and the Go
# module (go test over cgo), each compared with the release build's CLI.
echo "== rust tests"
ROBOTSC_CLI=build-test-release/robotsc bash rust/test.sh
echo "== go tests"
ROBOTSC_BUILD=build-test-release ROBOTSC_CLI=build-test-release/robotsc bash go/test.sh
