#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The JavaScript package's tests on a fresh machine: Debian packages
# (js/setup.sh), the npm dev dependencies (npm ci: Crawlee, puppeteer-core,
# robots-parser), the .wasm rebuilt from the C sources (the committed
# js/dist/robotsc.wasm is replaced by the fresh one, with a note when they
# differ), then `npm test`. The CLI compared with is $ROBOTSC_CLI, else
# build/robotsc (built here when missing); the corpus is ../shared.
#   bash js/test.sh            (from anywhere)
#   ROBOTSC_CLI=build-test-release/robotsc bash js/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. js/setup.sh
if [ -z "${ROBOTSC_CLI:-}" ]; then
  if [ ! -x build/robotsc ]; then
    echo "== building build/robotsc (the CLI the tests compare with)"
    cmake -S . -B build $GEN -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build build --target robotsc -j "$(nproc 2>/dev/null || echo 2)"
  fi
  export ROBOTSC_CLI=$root/build/robotsc
else
  case $ROBOTSC_CLI in /*) ;; *) export ROBOTSC_CLI=$root/$ROBOTSC_CLI ;; esac
fi
echo "== wasm (cmake --preset wasm)"
bash js/build-wasm.sh >/dev/null
if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1 &&
   ! git diff --quiet -- js/dist/robotsc.wasm 2>/dev/null; then
  echo "note: js/dist/robotsc.wasm rebuilt from the current C sources differs from the committed one: commit it"
fi
cd js
echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error
echo "== npm test"
npm test
