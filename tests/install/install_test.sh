#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install test (issue 11): robotsc installed into a temporary prefix and used
# from projects outside the tree, as a user would.
#  A. this build installed; consumers in C and C++ through find_package and
#     through pkg-config, runtime only, compiler and crawl; the installed CLI.
#  B. a shared build (BUILD_SHARED_LIBS): sonames carry the ABI major, the
#     exported symbols are the committed lists, the installed CLI and the
#     consumers run against the installed libraries.
#  C. the runtime alone (RSC_BUILD_COMPILER=OFF) with bison, re2c and
#     pkg-config replaced by programs that fail: configure looks for none of
#     them; it builds, installs and serves a runtime-only consumer.
#  D. robotsc through add_subdirectory: the parent's settings are untouched
#     (tests/install/parent/CMakeLists.txt checks them at configure time),
#     no robotsc binary or test lands in the parent's build.
# usage: install_test.sh SRC BUILD WORK SANITIZE GENERATOR
set -u
SRC=$1; BUILD=$2; W=$3; SAN=$4; GEN=$5
HERE=$SRC/tests/install
rm -rf "$W"; mkdir -p "$W"
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
log=$W/log.txt
# Runs a command quietly; on failure shows its output and counts it.
run() { # what cmd...
  local what=$1; shift
  if "$@" >"$log" 2>&1; then ok; return 0; fi
  bad "$what: $*"; tail -40 "$log"; return 1
}
expect_out() { # what want cmd...
  local what=$1 want=$2; shift 2
  local got; got=$("$@" 2>&1)
  if [ "$got" = "$want" ]; then ok; else bad "$what: got '$got', want '$want'"; fi
}
jobs=$(nproc 2>/dev/null || echo 2)
CFL=""; GENARGS=()
[ -n "$GEN" ] && GENARGS=(-G "$GEN")
if [ "$SAN" = ON ]; then
  CFL="-fsanitize=address,undefined -fno-sanitize-recover=all"
  export ASAN_OPTIONS=detect_leaks=0
fi
CC=${CC:-cc}; CXX=${CXX:-c++}
command -v "$CXX" >/dev/null || { echo "install_test: no C++ compiler ($CXX); cli/setup.sh installs g++"; exit 1; }
ROBOTS="User-agent: *
Disallow: /private"

# Consumers through find_package; $1 prefix, $2 build dir, $3 WITH_COMPILER.
# robotsc::store too when the install has it (RSC_BUILD_STORE).
cmake_consumer() {
  local store=OFF
  [ -e "$1/include/robotsc/store.h" ] && store=ON
  run "configure find_package consumer ($2)" cmake -S "$HERE/consumer" -B "$2" "${GENARGS[@]}" \
      -DCMAKE_PREFIX_PATH="$1" -DWITH_COMPILER="$3" -DWITH_STORE=$store -DCMAKE_C_FLAGS="$CFL" \
      -DCMAKE_CXX_FLAGS="$CFL" -DCMAKE_EXE_LINKER_FLAGS="$CFL" || return 1
  run "build find_package consumer ($2)" cmake --build "$2" || return 1
  if [ $store = ON ]; then run "use_store ($2)" "$2/use_store"; fi
}
# Consumers through pkg-config; $1 prefix, $2 output dir, $3 "all" or
# "runtime", $4 extra link flags. Shared libraries are found through an
# RPATH to the prefix's libdir.
pkgconfig_consumer() {
  local pcdir; pcdir=$(dirname "$(find "$1" -name robotsc-runtime.pc | head -1)")
  mkdir -p "$2"
  export PKG_CONFIG_PATH=$pcdir
  local libdir; libdir=$(pkg-config --variable=libdir robotsc-runtime)
  [ -d "$libdir" ] && ok || bad "pkg-config libdir $libdir"
  expect_out "pkg-config version" 0.3.0 pkg-config --modversion robotsc-runtime
  # shellcheck disable=SC2046
  run "pkg-config runtime consumer" "$CC" $CFL -o "$2/use_runtime" "$HERE/consumer/use_runtime.c" \
      $(pkg-config --cflags --libs robotsc-runtime) -Wl,-rpath,"$libdir" $4 && run "pkg-config use_runtime" "$2/use_runtime" "$W/ex.rbc"
  if [ "$3" = all ]; then
    run "pkg-config compiler consumer" "$CC" $CFL -o "$2/use_compiler" "$HERE/consumer/use_compiler.c" \
        $(pkg-config --cflags --libs robotsc) -Wl,-rpath,"$libdir" $4 && run "pkg-config use_compiler" "$2/use_compiler"
    run "pkg-config C++ consumer" "$CXX" $CFL -o "$2/use_cxx" "$HERE/consumer/use_cxx.cpp" \
        $(pkg-config --cflags --libs robotsc-crawl) -Wl,-rpath,"$libdir" $4 && run "pkg-config use_cxx" "$2/use_cxx"
    run "pkg-config crawl consumer" "$CC" $CFL -o "$2/use_crawl" "$HERE/consumer/use_crawl.c" \
        $(pkg-config --cflags --libs robotsc-crawl) -Wl,-rpath,"$libdir" $4 && run "pkg-config use_crawl" "$2/use_crawl"
  fi
  unset PKG_CONFIG_PATH
}

echo "== A: this build, installed"
P=$W/prefix-a
run "install this build" cmake --install "$BUILD" --prefix "$P"
for f in include/robotsc/runtime.h include/robotsc/compiler.h include/robotsc/ir.h include/robotsc/crawl.h \
         bin/robotsc share/man/man1/robotsc.1 share/man/man5/robotsc-format.5; do
  [ -f "$P/$f" ] && ok || bad "not installed: $f"
done
for f in cmake/robotsc/robotscConfig.cmake cmake/robotsc/robotscConfigVersion.cmake \
         cmake/robotsc/robotscTargets.cmake pkgconfig/robotsc-runtime.pc pkgconfig/robotsc.pc \
         pkgconfig/robotsc-crawl.pc; do
  [ -n "$(find "$P" -path "*/$f")" ] && ok || bad "not installed: $f"
done
expect_out "robotsc --version" "robotsc 0.3.0" "$P/bin/robotsc" --version
printf '%s\n' "$ROBOTS" > "$W/ex.txt"
run "installed robotsc compile" "$P/bin/robotsc" compile "$W/ex.txt" -o "$W/ex.rbc"
if cmake_consumer "$P" "$W/cons-a" ON; then
  run "use_runtime" "$W/cons-a/use_runtime" "$W/ex.rbc"
  run "use_compiler" "$W/cons-a/use_compiler"
  run "use_cxx" "$W/cons-a/use_cxx"
  run "use_crawl" "$W/cons-a/use_crawl"
fi
pkgconfig_consumer "$P" "$W/pc-a" all ""

echo "== B: shared libraries"
B=$W/build-b; P=$W/prefix-b
if run "configure shared build" cmake -S "$SRC" -B "$B" "${GENARGS[@]}" -DCMAKE_BUILD_TYPE=Release \
       -DBUILD_SHARED_LIBS=ON -DRSC_BUILD_TESTS=OFF -DRSC_BUILD_CLI=ON -DRSC_SANITIZE="$SAN" &&
   run "build shared" cmake --build "$B" -j "$jobs" && run "install shared" cmake --install "$B" --prefix "$P"; then
  for lib in robotsc_runtime robotsc robotsc_crawl; do
    so=$(find "$P" -name "lib$lib.so.0" | head -1)
    if [ -z "$so" ]; then bad "lib$lib.so.0 not installed"; continue; fi
    soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
    [ "$soname" = "lib$lib.so.0" ] && ok || bad "soname of lib$lib: '$soname'"
    run "exported symbols of lib$lib.so" cmake -DLIB="$so" -DLIST="$HERE/symbols/$lib.txt" \
        -DINCLUDE="$SRC/include" -DNM=nm -DREADELF=readelf -P "$HERE/symbols.cmake"
  done
  [ -z "$(find "$P" -name '*.a')" ] && ok || bad "a shared build installed static archives"
  expect_out "shared robotsc --version" "robotsc 0.3.0" env -u LD_LIBRARY_PATH "$P/bin/robotsc" --version
  expect_out "shared robotsc check" $'disallow\t/private/1' "$P/bin/robotsc" check --agent x "$W/ex.rbc" /private/1
  if cmake_consumer "$P" "$W/cons-b" ON; then
    run "shared use_runtime" "$W/cons-b/use_runtime" "$W/ex.rbc"
    run "shared use_compiler" "$W/cons-b/use_compiler"
    run "shared use_cxx" "$W/cons-b/use_cxx"
    run "shared use_crawl" "$W/cons-b/use_crawl"
    ldd "$W/cons-b/use_compiler" | grep -q "$P/.*librobotsc.so.0" && ok ||
      bad "use_compiler does not load the installed librobotsc.so.0: $(ldd "$W/cons-b/use_compiler")"
  fi
  pkgconfig_consumer "$P" "$W/pc-b" all ""
fi

echo "== C: the runtime alone, no front-end tools"
B=$W/build-c; P=$W/prefix-c; FAKE=$W/fakebin
mkdir -p "$FAKE"
for t in bison re2c pkg-config yacc; do
  printf '#!/bin/sh\necho "%s run" >> "%s/tools-run"\nexit 1\n' "$t" "$W" > "$FAKE/$t"
  chmod +x "$FAKE/$t"
done
if run "configure runtime only" env PATH="$FAKE:$PATH" cmake -S "$SRC" -B "$B" "${GENARGS[@]}" \
       -DRSC_BUILD_COMPILER=OFF -DRSC_SANITIZE="$SAN"; then
  [ ! -e "$W/tools-run" ] && ok || bad "runtime-only configure ran: $(cat "$W/tools-run")"
  for v in BISON_EXECUTABLE RE2C_EXECUTABLE PKG_CONFIG_EXECUTABLE CMAKE_CXX_COMPILER; do
    grep -q "^$v:" "$B/CMakeCache.txt" && bad "runtime-only configure looked for $v" || ok
  done
  if run "build runtime only" env PATH="$FAKE:$PATH" cmake --build "$B" -j "$jobs" &&
     run "install runtime only" cmake --install "$B" --prefix "$P"; then
    [ -e "$P/include/robotsc/runtime.h" ] && ok || bad "runtime.h not installed"
    [ ! -e "$P/include/robotsc/compiler.h" ] && [ -z "$(find "$P" -name robotsc.pc)" ] && [ ! -e "$P/bin/robotsc" ] &&
      ok || bad "runtime-only install holds compiler parts"
    if cmake_consumer "$P" "$W/cons-c" OFF; then
      run "runtime-only use_runtime" "$W/cons-c/use_runtime" "$W/ex.rbc"
    fi
    # Asking this install for the compiler fails at configure time.
    if cmake -S "$HERE/consumer" -B "$W/cons-c2" "${GENARGS[@]}" -DCMAKE_PREFIX_PATH="$P" \
         -DWITH_COMPILER=ON >"$log" 2>&1; then
      bad "find_package(robotsc COMPONENTS compiler) succeeded on a runtime-only install"
    else
      grep -q "compiler" "$log" && ok || bad "missing component not named: $(tail -5 "$log")"
    fi
    pkgconfig_consumer "$P" "$W/pc-c" runtime ""
  fi
fi

echo "== D: add_subdirectory"
B=$W/build-d
if run "configure parent (its own checks)" cmake -S "$HERE/parent" -B "$B" "${GENARGS[@]}" -DRSC_SRC="$SRC" \
       -DPARENT_BUILD_TYPE= && run "build parent" cmake --build "$B" -j "$jobs"; then
  expect_out "parent bin/ holds the parent's program only" parent_app ls "$B/bin"
  [ -z "$(find "$B" -type f -name robotsc)" ] && ok || bad "a robotsc binary in the parent's build"
  (cd "$B" && ctest -N) | grep -q "Total Tests: 0" && ok || bad "tests registered in the parent: $(cd "$B" && ctest -N | tail -3)"
  run "parent_app" "$B/bin/parent_app"
fi

echo "install: $pass passed, $fail failed"
[ $fail = 0 ]
