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
# In A and B, the README's own snippets ("Install and use from your
# project": the quickstart program, its CMake project and its pkg-config
# line) are cut out of README.md and built against the installed package,
# and the installed headers, documents and man pages are checked.
# usage: install_test.sh SRC BUILD WORK SANITIZE GENERATOR VERSION
set -u
SRC=$1; BUILD=$2; W=$3; SAN=$4; GEN=$5; VER=$6
MAJOR=${VER%%.*}
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

# The first fenced block of language $1 in the README's section "Install
# and use from your project".
readme_block() {
  sed -n '/^## Install and use from your project/,/^## /p' "$SRC/README.md" |
    awk -v fence="\`\`\`$1" '!inb && $0 == fence { inb = 1; next }
      inb && $0 == "```" { exit }
      inb { print }'
}

# The README's snippets against the install in $1, in the directory $2:
# its quickstart program (the same text as examples/quickstart.c), built by
# its CMake project and by its pkg-config line, prints the expected output.
readme_snippets() {
  local d=$2; mkdir -p "$d"
  readme_block c > "$d/quickstart.c"
  readme_block cmake > "$d/CMakeLists.txt"
  readme_block sh > "$d/pkgconfig.sh"
  readme_block text > "$d/expected"
  for f in quickstart.c CMakeLists.txt pkgconfig.sh expected; do
    [ -s "$d/$f" ] && ok || bad "README: no snippet for $f"
  done
  cmp -s "$d/quickstart.c" "$SRC/examples/quickstart.c" && ok || bad "README's quickstart differs from examples/quickstart.c"
  cmp -s "$d/expected" "$SRC/examples/quickstart.expected" && ok ||
    bad "README's quickstart output differs from examples/quickstart.expected"
  # The version the README asks for is this release's MAJOR.MINOR.
  local want; want=$(echo "$VER" | cut -d. -f1,2)
  grep -q "find_package(robotsc $want " "$d/CMakeLists.txt" && ok ||
    bad "README's find_package does not ask for $want: $(grep find_package "$d/CMakeLists.txt")"
  if run "README CMake snippet: configure" cmake -S "$d" -B "$d/build" "${GENARGS[@]}" \
         -DCMAKE_PREFIX_PATH="$1" -DCMAKE_C_FLAGS="$CFL" -DCMAKE_EXE_LINKER_FLAGS="$CFL" &&
     run "README CMake snippet: build" cmake --build "$d/build"; then
    local exe; exe=$(find "$d/build" -maxdepth 1 -type f -perm -u+x -name app | head -1)
    if [ -n "$exe" ] && "$exe" > "$d/out.cmake" 2>&1 && cmp -s "$d/out.cmake" "$d/expected"; then ok
    else bad "README CMake snippet's program: $(head -3 "$d/out.cmake" 2>/dev/null)"; fi
  fi
  # The pkg-config line as written, run with cc standing for $CC (and the
  # sanitizer flags), plus an RPATH to the prefix for shared libraries.
  local pcdir libdir; pcdir=$(dirname "$(find "$1" -name robotsc.pc | head -1)")
  libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir robotsc)
  printf 'cc() { command "%s" %s "$@" -Wl,-rpath,"%s"; }\nset -e\n' "$CC" "$CFL" "$libdir" > "$d/run-pc.sh"
  cat "$d/pkgconfig.sh" >> "$d/run-pc.sh"
  if run "README pkg-config snippet" env -C "$d" PKG_CONFIG_PATH="$pcdir" bash "$d/run-pc.sh"; then
    if "$d/app" > "$d/out.pc" 2>&1 && cmp -s "$d/out.pc" "$d/expected"; then ok
    else bad "README pkg-config snippet's program: $(head -3 "$d/out.pc")"; fi
  fi
}

# What an install holds besides libraries: $1 prefix. Each installed header
# compiles on its own (C and C++); every docs/*.md a header cites is
# installed under DOCDIR, and no header points elsewhere in the source tree;
# the man pages carry this version and document every command.
installed_files() {
  local h base
  for h in "$1"/include/robotsc/*.h; do
    base=robotsc/$(basename "$h")
    printf '#include <%s>\nint rsc_header_alone;\n' "$base" > "$W/alone.c"
    run "$base compiles alone (C)" "$CC" -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
        -I"$1/include" "$W/alone.c"
    run "$base compiles alone (C++)" "$CXX" -Wall -Wextra -Werror -fsyntax-only -x c++ -I"$1/include" "$W/alone.c"
    for doc in $(grep -o 'docs/[A-Za-z_]*\.md' "$h" | sort -u); do
      [ -f "$1/share/doc/robotsc/$doc" ] && ok || bad "$base cites $doc, not installed under share/doc/robotsc"
    done
    # (a file of the tree: a path with an extension, or anything in tests/)
    grep -nE '\.\./|/work/|(^|[^a-z])((bench|cli|compiler|grammar|runtime|crawl|store|python|examples)/[A-Za-z_]+\.[a-z]+|tests/[a-z])' \
      "$h" > "$W/refs" &&
      bad "$base cites files that are not installed: $(cat "$W/refs")" || ok
  done
  for m in man1/robotsc.1 man5/robotsc-format.5; do
    grep -q "^\.TH .*\"robotsc $VER\"" "$1/share/man/$m" && ok || bad "$m: $(grep '^\.TH' "$1/share/man/$m")"
  done
  # Every command of --help, and every store subcommand, has its own
  # section in robotsc(1) (nothing deferred to --help).
  local cmds; cmds=$("$1/bin/robotsc" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
  for c in $cmds; do
    grep -q "^\.SS $c\$" "$1/share/man/man1/robotsc.1" && ok || bad "robotsc.1 has no section for $c"
  done
  if echo "$cmds" | grep -qx store; then
    for c in $("$1/bin/robotsc" store --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
      grep -q "^\.B robotsc store $c\b" "$1/share/man/man1/robotsc.1" && ok || bad "robotsc.1 does not document store $c"
    done
  fi
  grep -q 'SEE ALSO' "$1/share/man/man1/robotsc.1" && ! grep -qE '[a-z_]+\(3\)' "$1/share/man/man1/robotsc.1" && ok ||
    bad "robotsc.1 cites section-3 pages, which are not installed"
  if command -v groff >/dev/null; then
    for m in man1/robotsc.1 man5/robotsc-format.5; do
      groff -man -ww -z "$1/share/man/$m" > "$W/groff" 2>&1 && [ ! -s "$W/groff" ] && ok ||
        bad "groff warns on $m: $(head -5 "$W/groff")"
    done
  fi
}

# Consumers through find_package; $1 prefix, $2 build dir, $3 WITH_COMPILER.
# robotsc::store too when the install has it (RSC_BUILD_STORE).
cmake_consumer() {
  local store=OFF
  [ -e "$1/include/robotsc/store.h" ] && store=ON
  run "configure find_package consumer ($2)" cmake -S "$HERE/consumer" -B "$2" "${GENARGS[@]}" \
      -DCMAKE_PREFIX_PATH="$1" -DWITH_COMPILER="$3" -DWITH_STORE=$store -DCMAKE_C_FLAGS="$CFL" \
      -DCMAKE_CXX_FLAGS="$CFL" -DCMAKE_EXE_LINKER_FLAGS="$CFL" || return 1
  run "build find_package consumer ($2)" cmake --build "$2" || return 1
  if [ $store = ON ]; then run "use_store ($2)" "$2/use_store" "$2/store.db"; fi
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
  expect_out "pkg-config version" "$VER" pkg-config --modversion robotsc-runtime
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
    # The store through its own .pc (it requires robotsc-crawl; liblmdb is
    # named for a static library).
    if [ -e "$1/include/robotsc/store.h" ]; then
      expect_out "pkg-config robotsc-store version" "$VER" pkg-config --modversion robotsc-store
      run "pkg-config store consumer" "$CC" $CFL -o "$2/use_store" "$HERE/consumer/use_store.c" \
          $(pkg-config --cflags --libs robotsc-store) -Wl,-rpath,"$libdir" $4 &&
        run "pkg-config use_store" "$2/use_store" "$2/store.db"
    fi
  fi
  unset PKG_CONFIG_PATH
}

echo "== A: this build, installed"
P=$W/prefix-a
run "install this build" cmake --install "$BUILD" --prefix "$P"
for f in include/robotsc/runtime.h include/robotsc/compiler.h include/robotsc/ir.h include/robotsc/crawl.h \
         include/robotsc/store.h bin/robotsc share/man/man1/robotsc.1 share/man/man5/robotsc-format.5 \
         share/doc/robotsc/LICENSE share/doc/robotsc/CHANGELOG.md; do
  [ -f "$P/$f" ] && ok || bad "not installed: $f"
done
for f in cmake/robotsc/robotscConfig.cmake cmake/robotsc/robotscConfigVersion.cmake \
         cmake/robotsc/robotscTargets.cmake pkgconfig/robotsc-runtime.pc pkgconfig/robotsc.pc \
         pkgconfig/robotsc-crawl.pc pkgconfig/robotsc-store.pc; do
  [ -n "$(find "$P" -path "*/$f")" ] && ok || bad "not installed: $f"
done
expect_out "robotsc --version" "robotsc $VER" "$P/bin/robotsc" --version
installed_files "$P"
printf '%s\n' "$ROBOTS" > "$W/ex.txt"
run "installed robotsc compile" "$P/bin/robotsc" compile "$W/ex.txt" -o "$W/ex.rbc"
if cmake_consumer "$P" "$W/cons-a" ON; then
  run "use_runtime" "$W/cons-a/use_runtime" "$W/ex.rbc"
  run "use_compiler" "$W/cons-a/use_compiler"
  run "use_cxx" "$W/cons-a/use_cxx"
  run "use_crawl" "$W/cons-a/use_crawl"
fi
pkgconfig_consumer "$P" "$W/pc-a" all ""
readme_snippets "$P" "$W/readme-a"
# This install is static. find_package(robotsc COMPONENTS runtime) needs
# libc only: a consumer configures, builds and runs with a pkg-config that
# fails for libcurl, libidn2 and lmdb (and logs every query), and none of
# them is asked for. The same pkg-config makes COMPONENTS crawl fail, so it
# does hide them.
FAKEPC=$W/fake-pkg-config
REALPC=$(command -v pkg-config)
cat > "$FAKEPC" <<EOF
#!/bin/sh
echo "\$*" >> "$W/pc-queries"
case " \$* " in *libcurl*|*libidn2*|*lmdb*) echo "fake pkg-config: \$* hidden" >&2; exit 1;; esac
exec "$REALPC" "\$@"
EOF
chmod +x "$FAKEPC"
rm -f "$W/pc-queries"
if run "runtime-only consumer of the static install, libcurl/libidn2/lmdb hidden: configure" \
       env PKG_CONFIG="$FAKEPC" cmake -S "$HERE/consumer" -B "$W/cons-a-rt" "${GENARGS[@]}" \
       -DCMAKE_PREFIX_PATH="$P" -DWITH_COMPILER=OFF -DWITH_STORE=OFF -DPKG_CONFIG_EXECUTABLE="$FAKEPC" \
       -DCMAKE_C_FLAGS="$CFL" -DCMAKE_CXX_FLAGS="$CFL" -DCMAKE_EXE_LINKER_FLAGS="$CFL" &&
   run "runtime-only consumer of the static install: build" cmake --build "$W/cons-a-rt"; then
  run "runtime-only consumer of the static install: use_runtime" "$W/cons-a-rt/use_runtime" "$W/ex.rbc"
fi
if grep -qE 'libcurl|libidn2|lmdb' "$W/pc-queries" 2>/dev/null; then
  bad "COMPONENTS runtime looked for crawl's or store's libraries: $(tr '\n' ';' < "$W/pc-queries")"
else ok; fi
if env PKG_CONFIG="$FAKEPC" cmake -S "$HERE/consumer" -B "$W/cons-a-crawl" "${GENARGS[@]}" -DCMAKE_PREFIX_PATH="$P" \
     -DWITH_COMPILER=ON -DWITH_STORE=OFF -DPKG_CONFIG_EXECUTABLE="$FAKEPC" >"$log" 2>&1; then
  bad "COMPONENTS crawl configured with libcurl and libidn2 hidden"
else
  grep -qE 'libidn2|libcurl' "$log" && ok || bad "COMPONENTS crawl failed without naming libidn2/libcurl: $(tail -5 "$log")"
fi

echo "== B: shared libraries"
B=$W/build-b; P=$W/prefix-b
if run "configure shared build" cmake -S "$SRC" -B "$B" "${GENARGS[@]}" -DCMAKE_BUILD_TYPE=Release \
       -DBUILD_SHARED_LIBS=ON -DRSC_BUILD_TESTS=OFF -DRSC_BUILD_CLI=ON -DRSC_SANITIZE="$SAN" &&
   run "build shared" cmake --build "$B" -j "$jobs" && run "install shared" cmake --install "$B" --prefix "$P"; then
  # The soname is the ABI major (README, "Compatibility").
  for lib in robotsc_runtime robotsc robotsc_crawl robotsc_store; do
    so=$(find "$P" -name "lib$lib.so.$MAJOR" | head -1)
    if [ -z "$so" ]; then bad "lib$lib.so.$MAJOR not installed"; continue; fi
    soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
    [ "$soname" = "lib$lib.so.$MAJOR" ] && ok || bad "soname of lib$lib: '$soname'"
    run "exported symbols of lib$lib.so" cmake -DLIB="$so" -DLIST="$HERE/symbols/$lib.txt" \
        -DINCLUDE="$SRC/include" -DNM=nm -DREADELF=readelf -P "$HERE/symbols.cmake"
  done
  [ -z "$(find "$P" -name '*.a')" ] && ok || bad "a shared build installed static archives"
  expect_out "shared robotsc --version" "robotsc $VER" env -u LD_LIBRARY_PATH "$P/bin/robotsc" --version
  expect_out "shared robotsc check" $'disallow\t/private/1' "$P/bin/robotsc" check --agent x "$W/ex.rbc" /private/1
  if cmake_consumer "$P" "$W/cons-b" ON; then
    run "shared use_runtime" "$W/cons-b/use_runtime" "$W/ex.rbc"
    run "shared use_compiler" "$W/cons-b/use_compiler"
    run "shared use_cxx" "$W/cons-b/use_cxx"
    run "shared use_crawl" "$W/cons-b/use_crawl"
    ldd "$W/cons-b/use_compiler" | grep -q "$P/.*librobotsc.so.$MAJOR" && ok ||
      bad "use_compiler does not load the installed librobotsc.so.$MAJOR: $(ldd "$W/cons-b/use_compiler")"
  fi
  pkgconfig_consumer "$P" "$W/pc-b" all ""
  readme_snippets "$P" "$W/readme-b"
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
