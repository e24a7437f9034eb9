#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds js/dist/robotsc.wasm from the C sources with the CMake "wasm"
# preset (cmake/wasm32-wasi.cmake: Debian's clang, lld, llvm, wasi-libc;
# js/setup.sh installs them). The build tree is build-wasm/ at the root.
set -euo pipefail
cd "$(dirname "$0")/.."
# clang 14 runs a wasm-opt it finds on the PATH after linking, without the
# SIMD feature flag, and binaryen's then rejects the module: shadow it (the
# module is the one the linker writes, as on a machine without binaryen).
if command -v wasm-opt >/dev/null 2>&1; then
  shadow=$(mktemp -d)
  trap 'rm -rf "$shadow"' EXIT
  printf '#!/bin/sh\nexit 0\n' >"$shadow/wasm-opt"
  chmod +x "$shadow/wasm-opt"
  PATH=$shadow:$PATH
fi
cmake --preset wasm >/dev/null
cmake --build --preset wasm
