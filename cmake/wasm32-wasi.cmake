# SPDX-License-Identifier: Apache-2.0
# Cross-compiling robotsc to WebAssembly (wasm32-wasi) with Debian's clang,
# lld (wasm-ld), llvm (llvm-ar) and wasi-libc (headers and libc.a in the
# multiarch directories, which clang finds without a sysroot). js/setup.sh
# installs them. Used by the "wasm" preset (CMakePresets.json):
#   cmake --preset wasm && cmake --build --preset wasm
# bison and re2c still run on the host: the generated sources are the same.
# CMake has no WASI platform module before 3.31: Generic is the bare target.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(RSC_WASM_TRIPLE wasm32-wasi)

find_program(RSC_WASM_CLANG NAMES clang clang-14 REQUIRED)
find_program(RSC_WASM_AR NAMES llvm-ar llvm-ar-14 REQUIRED)
find_program(RSC_WASM_RANLIB NAMES llvm-ranlib llvm-ranlib-14 REQUIRED)
set(CMAKE_C_COMPILER ${RSC_WASM_CLANG})
set(CMAKE_C_COMPILER_TARGET ${RSC_WASM_TRIPLE})
# SIMD128 (Node >= 16.4, Chrome 91, Firefox 89, Safari 16.4): the runtime's
# sixteen-bytes-a-step scans use the compiler's vector extension, which
# without it is split into byte operations, several times slower.
set(CMAKE_C_FLAGS_INIT "-msimd128")
set(CMAKE_AR ${RSC_WASM_AR} CACHE FILEPATH "llvm-ar: GNU ar cannot index wasm objects")
set(CMAKE_RANLIB ${RSC_WASM_RANLIB} CACHE FILEPATH "llvm-ranlib")

# Host programs (bison, re2c) from the host; libraries and headers from the target.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
