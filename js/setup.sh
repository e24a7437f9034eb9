# SPDX-License-Identifier: Apache-2.0
# Sourced by js/test.sh: installs the Debian packages the JavaScript package's
# build and tests need when they are missing (needs root or sudo), on top of
# cli/setup.sh's (cmake, bison, re2c, ninja and the CLI's libraries: the
# tests compare with build/robotsc). Idempotent: installs nothing when all
# are there.
#   clang lld llvm wasi-libc libclang-rt-dev-wasm32: the wasm32-wasi build
#     (cmake/wasm32-wasi.cmake; llvm gives llvm-ar, the runtime library
#     package compiler-rt's builtins for wasm32)
#   chromium: the tester page's test (puppeteer-core drives /usr/bin/chromium;
#     no browser is downloaded)
#   nodejs npm: when no node >= 18 is on the PATH
js_need="clang lld llvm wasi-libc libclang-rt-dev-wasm32 chromium"
if ! command -v node >/dev/null 2>&1 ||
   [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 18 ]; then
  js_need="$js_need nodejs"
fi
command -v npm >/dev/null 2>&1 || js_need="$js_need npm"
. "$(dirname "${BASH_SOURCE[0]}")/../cli/setup.sh" "$js_need"
