#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The source release and the Python wheel, with bison and re2c hidden.
#  dist:  cmake/dist.cmake makes robotsc-VERSION.tar.gz; it holds the
#         generated parser and lexer and no build output; unpacked, it
#         configures, builds and runs (the CLI compiles and checks) with
#         bison and re2c replaced by programs that fail and CMake pointed at
#         nonexistent ones; a changed parser.y makes configure refuse the
#         stale generated files.
#  wheel: in the unpacked release, `pip wheel --no-build-isolation ./python`
#         with the tools still hidden; the wheel installs into a fresh venv
#         (--system-site-packages) with CC=false, imports from the venv and
#         gives Google's verdicts.
# usage: release_test.sh dist  WORK VERSION GENERATOR PYTHON -- DIST_ARGS...
#        release_test.sh wheel WORK VERSION GENERATOR PYTHON
# (wheel uses the tree dist unpacked in WORK: ctest fixture "release").
set -u
MODE=$1; W=$2; VER=$3; GEN=$4; PY=$5
shift 5
[ "${1:-}" = -- ] && shift
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
log=$W/$MODE.log
run() { # what cmd...
  local what=$1; shift
  if "$@" >"$log" 2>&1; then ok; return 0; fi
  bad "$what: $*"; tail -40 "$log"; return 1
}
jobs=$(nproc 2>/dev/null || echo 2)
GENARGS=()
[ -n "$GEN" ] && GENARGS=(-G "$GEN")
name=robotsc-$VER
TREE=$W/$name
FAKE=$W/fakebin
NOTOOLS=(-DBISON_EXECUTABLE=/nonexistent/bison -DRE2C_EXECUTABLE=/nonexistent/re2c)
hide_tools() {
  mkdir -p "$FAKE"
  rm -f "$W/tools-run"
  for t in bison re2c yacc; do
    printf '#!/bin/sh\necho "%s run: $*" >> "%s/tools-run"\nexit 1\n' "$t" "$W" > "$FAKE/$t"
    chmod +x "$FAKE/$t"
  done
}
no_tool_ran() { # what
  [ ! -e "$W/tools-run" ] && ok || bad "$1 ran $(cat "$W/tools-run")"
}

if [ "$MODE" = dist ]; then
  rm -rf "$W"; mkdir -p "$W"
  run "make the tarball" cmake -DOUT="$W" "$@" || { echo "release: $pass passed, $fail failed"; exit 1; }
  tarball=$W/$name.tar.gz
  [ -f "$tarball" ] && ok || bad "no $tarball"
  tar tzf "$tarball" > "$W/list"
  for f in CMakeLists.txt LICENSE NOTICE README.md CHANGELOG.md include/robotsc/runtime.h grammar/parser.y \
           grammar/generated/parser.c grammar/generated/parser.h grammar/generated/lexer.c \
           grammar/generated/SOURCES.sha256 python/setup.py examples/quickstart.c; do
    grep -qx "$name/$f" "$W/list" && ok || bad "the tarball lacks $f"
  done
  grep -v "^$name/" "$W/list" | head -3 | grep -q . && bad "files outside $name/: $(grep -v "^$name/" "$W/list" | head -3)" || ok
  grep -E "^$name/(build[^/]*|\.git|python/build)/" "$W/list" | head -3 | grep -q . &&
    bad "build output or .git in the tarball" || ok
  tar xzf "$tarball" -C "$W"
  grep -l '^#line [0-9]* "/' "$TREE"/grammar/generated/* > "$W/abs" && bad "absolute paths in $(cat "$W/abs")" || ok

  hide_tools
  B=$W/build
  if run "configure the release without bison and re2c" env PATH="$FAKE:$PATH" cmake -S "$TREE" -B "$B" \
         "${GENARGS[@]}" -DCMAKE_BUILD_TYPE=Release -DRSC_BUILD_TESTS=OFF -DRSC_BUILD_CLI=ON "${NOTOOLS[@]}"; then
    grep -q "pre-generated parser and lexer" "$log" && ok || bad "configure did not use grammar/generated/"
    if run "build the release" env PATH="$FAKE:$PATH" cmake --build "$B" -j "$jobs"; then
      no_tool_ran "building the release"
      out=$("$B/robotsc" --version 2>&1)
      [ "$out" = "robotsc $VER" ] && ok || bad "release robotsc --version: $out"
      printf 'User-agent: *\nDisallow: /private\n' > "$W/robots.txt"
      if run "release robotsc compile" "$B/robotsc" compile "$W/robots.txt" -o "$W/r.rbc"; then
        out=$("$B/robotsc" check --agent FooBot "$W/r.rbc" /private/x /public 2>&1)
        [ "$out" = $'disallow\t/private/x\nallow\t/public' ] && ok || bad "release robotsc check: $out"
      fi
    fi
  fi
  # A grammar edited after the release was made: the generated files are
  # refused (a parser that is not the grammar's is never built).
  cp -r "$TREE" "$W/edited"
  printf '\n/* edited */\n' >> "$W/edited/grammar/parser.y"
  if env PATH="$FAKE:$PATH" cmake -S "$W/edited" -B "$W/build-edited" "${GENARGS[@]}" -DRSC_BUILD_CRAWL=OFF \
       -DRSC_BUILD_STORE=OFF "${NOTOOLS[@]}" > "$log" 2>&1; then
    bad "configure accepted generated files of another parser.y"
  else
    grep -q "parser.y changed since grammar/generated/" "$log" && ok || bad "no reason given: $(tail -5 "$log")"
  fi
  rm -rf "$W/edited" "$W/build-edited"
elif [ "$MODE" = wheel ]; then
  [ -d "$TREE/python" ] || { echo "wheel: no unpacked release in $W (run the dist test first)"; exit 1; }
  hide_tools
  rm -rf "$W/wheels" "$W/venv" "$TREE/python/build"
  if run "pip wheel without bison and re2c" env PATH="$FAKE:$PATH" ROBOTSC_JOBS="$jobs" PIP_NO_INDEX=1 \
         "$PY" -m pip wheel --no-build-isolation --no-deps --disable-pip-version-check -w "$W/wheels" "$TREE/python"; then
    no_tool_ran "pip wheel"
    whl=$(ls "$W"/wheels/robotsc-"$VER"-*.whl 2>/dev/null | head -1)
    if [ -z "$whl" ]; then
      bad "no robotsc-$VER wheel: $(ls "$W/wheels")"
    else
      case $whl in *-none-any.whl) bad "the wheel is not platform-specific: $whl" ;; *) ok ;; esac
      "$PY" -m zipfile -l "$whl" | grep -q 'robotsc/_robotsc.*\.so' && ok || bad "no extension in $whl"
      run "fresh venv" "$PY" -m venv --system-site-packages "$W/venv"
      # No compiler: installing must not build anything.
      if run "install the wheel with CC=false" env CC=false CXX=false PATH="$FAKE:$PATH" \
             "$W/venv/bin/python" -m pip install --no-index --no-deps --disable-pip-version-check "$whl"; then
        cat > "$W/check.py" <<'EOF'
import sys
import robotsc
assert robotsc.__file__.startswith(sys.prefix), robotsc.__file__
assert robotsc.__version__ == sys.argv[1], robotsc.__version__
r = robotsc.Robots.parse("User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nDisallow: /\nAllow: /public/\n")
got = [r.allowed(u, a) for a in ("FooBot", "BarBot")
       for u in ("https://example.com/public/x", "https://example.com/private/y", "https://example.com/z")]
assert got == [True, False, False, True, False, True], got
print("ok", robotsc.__version__, robotsc.__file__)
EOF
        out=$(cd / && env CC=false PYTHONNOUSERSITE=1 "$W/venv/bin/python" "$W/check.py" "$VER" 2>&1)
        case $out in ok*) ok ;; *) bad "the installed wheel: $out" ;; esac
      fi
    fi
  fi
else
  echo "usage: release_test.sh dist|wheel WORK VERSION GENERATOR PYTHON [-- DIST_ARGS...]"; exit 2
fi
echo "release $MODE: $pass passed, $fail failed"
[ $fail = 0 ]
