#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds js/dist/robotsc.wasm from the C sources with the CMake "wasm"
# preset (cmake/wasm32-wasi.cmake: Debian's clang, lld, llvm, wasi-libc;
# js/setup.sh installs them). The build tree is build-wasm/ at the root.
set -euo pipefail
cd "$(dirname "$0")/.."
# binaryen is optional and not used: js/CMakeLists.txt keeps clang from
# running a wasm-opt it finds (the module is the same with or without it).
cmake --preset wasm >/dev/null
cmake --build --preset wasm
