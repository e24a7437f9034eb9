#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/baseline.sh: builds 1.0.0 (git ref RSC_BENCH_BASE_REF, default
# 3a05c31) and this tree side by side, with the same compiler and flags, for
# issue 36's comparison (bench/run.sh step 8).
#
#   bench/baseline.sh OUT
#
# The old tree is `git archive`d into OUT/old-src (the repository's .git,
# index and work tree are never touched; extracted again only when the ref
# changes) and built in OUT/old-build; this tree is built in OUT/new-build
# (or RSC_BASELINE_NEW_BUILD, an existing build directory configured as
# bench/run.sh configures its own). Each side gets OUT/old/ and OUT/new/:
#   robotsc        the CLI
#   bench_compile  the corpus compile benchmark (that tree's source)
#   bench_store    the store benchmark (when the tree builds the store)
#   bench_worker   bench/bench_worker.c of THIS tree compiled against that
#                  tree's headers and static libraries, -DRSC_BW_USE_API
#                  set by a test link of rsc_selection_use
#   py/            Python's robotsc package built against that tree
#                  (setup.py build; skipped when it fails)
#   js/            that tree's js/ (src/ and dist/: the committed WASM)
#   tree           a symlink to the tree's sources
# and OUT/old.txt, OUT/new.txt: what was built (key=value lines).
# Exit 0 when both CLIs and bench_workers were built, 1 otherwise (the
# logs are OUT/*.log). RSC_BENCH_REPO: the repository holding the ref when
# this tree is an export (default: this tree); RSC_BENCH_REV: this tree's
# revision as the report shows it (default: git's HEAD, marked when the
# tree has uncommitted changes).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: bench/baseline.sh OUT}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
REF=${RSC_BENCH_BASE_REF:-3a05c31}
JOBS=${RSC_BENCH_JOBS:-2}
PY=/usr/bin/python3
CC=${CC:-cc}
FLAGS="-O2 -DNDEBUG"
log() { printf '[baseline %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# RSC_BENCH_REPO: the git repository holding REF when this tree is not a
# checkout (bench/run.sh run from a `git archive` of HEAD)
REPO=${RSC_BENCH_REPO:-$ROOT}
commit=$(git -C "$REPO" rev-parse --verify -q "$REF^{commit}" 2>/dev/null || true)
[ -n "$commit" ] || { log "git ref $REF not found"; exit 1; }
SRC=$OUT/old-src
if [ "$(cat "$SRC/.rsc_ref" 2>/dev/null)" != "$commit" ]; then
    log "extracting $REF ($commit) into $SRC"
    rm -rf "$SRC" "$OUT/old-build" "$OUT/old-pybuild" "$OUT/old-pycmake"
    mkdir -p "$SRC"
    git -C "$REPO" archive "$commit" | tar -x -C "$SRC"
    echo "$commit" >"$SRC/.rsc_ref"
fi

GEN=
command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"

# build TAG TREE BUILD_DIR: the CLI, the libraries and the C benchmarks.
build() {
    tag=$1 tree=$2 b=$3 d=$OUT/$1
    rm -rf "$d"
    mkdir -p "$d"
    ln -s "$tree" "$d/tree"
    g=$GEN
    [ -f "$b/CMakeCache.txt" ] && g=
    log "$tag: building $tree in $b"
    # shellcheck disable=SC2086
    if ! cmake -S "$tree" -B "$b" $g -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$FLAGS" \
        -DRSC_BUILD_BENCH=ON -DRSC_BUILD_TESTS=OFF -DRSC_SANITIZE=OFF >"$OUT/$tag.log" 2>&1; then
        log "$tag: cmake failed (see $OUT/$tag.log)"
        return 1
    fi
    targets="robotsc-cli robotsc robotsc_runtime bench_compile"
    grep -q '^RSC_BUILD_STORE:BOOL=ON' "$b/CMakeCache.txt" && targets="$targets bench_store"
    # shellcheck disable=SC2086
    if ! cmake --build "$b" -j "$JOBS" --target $targets >>"$OUT/$tag.log" 2>&1; then
        # the store is optional: retry without it
        cmake --build "$b" -j "$JOBS" --target robotsc-cli robotsc robotsc_runtime bench_compile \
            >>"$OUT/$tag.log" 2>&1 || { log "$tag: build failed (see $OUT/$tag.log)"; return 1; }
    fi
    ln -s "$b/robotsc" "$d/robotsc"
    ln -s "$b/bench/bench_compile" "$d/bench_compile"
    [ -x "$b/bench/store/bench_store" ] && ln -s "$b/bench/store/bench_store" "$d/bench_store"
    # This build's own libraries, where CMake puts them (never a search of
    # $b: bench/run.sh's build dir holds other builds, f2build/ and side/)
    libs="$b/librobotsc.a $b/runtime/librobotsc_runtime.a"
    for l in $libs; do
        [ -f "$l" ] || { log "$tag: $l missing"; return 1; }
    done
    # Can the programs be timed apart from the blob's DFA (format 5's
    # rsc_selection_use)? A test link says. (The run-time DFA calls follow
    # RSC_FORMAT_MAJOR in bench_worker.c: format 5 keeps them as wrappers
    # that build nothing.)
    printf '%s\n' '#include <string.h>' '#include "robotsc/runtime.h"' \
        'int main(void) { rsc_selection s; memset(&s, 0, sizeof s); return (int)rsc_selection_use(&s, RSC_ENGINE_PROGRAMS); }' \
        >"$d/probe.c"
    use=0
    # shellcheck disable=SC2086
    $CC -std=c11 -I"$tree/include" "$d/probe.c" $libs -o "$d/probe" >>"$OUT/$tag.log" 2>&1 && use=1
    # shellcheck disable=SC2086
    if ! $CC $FLAGS -std=c11 -Wall -Wextra -Wpedantic -DRSC_BW_USE_API=$use -I"$tree/include" -I"$ROOT/bench" \
        "$ROOT/bench/bench_worker.c" "$ROOT/bench/bench_util.c" $libs -o "$d/bench_worker" >>"$OUT/$tag.log" 2>&1; then
        log "$tag: bench_worker failed to build (see $OUT/$tag.log)"
        return 1
    fi
    # Python's package, against this tree (its own PIC build of the libraries).
    py=0
    if [ "${RSC_BENCH_NO_PYTHON:-0}" != 1 ] && [ -f "$tree/python/setup.py" ] &&
       (cd "$tree/python" && ROBOTSC_SOURCE_DIR=$tree ROBOTSC_CMAKE_BUILD_DIR=$OUT/$tag-pycmake ROBOTSC_JOBS=$JOBS \
        "$PY" setup.py build --build-base "$OUT/$tag-pybuild" >>"$OUT/$tag.py.log" 2>&1); then
        lib=$(find "$OUT/$tag-pybuild" -maxdepth 1 -type d -name 'lib*' | head -1)
        [ -n "$lib" ] && ln -s "$lib" "$d/py" && py=1
    fi
    [ "$py" = 1 ] || log "$tag: Python package not built (see $OUT/$tag.py.log)"
    ln -s "$tree/js" "$d/js"
    {
        echo "tree=$tree"
        if [ -n "${RSC_BENCH_REV:-}" ]; then
            echo "commit=$RSC_BENCH_REV"
        else
            echo "commit=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet HEAD -- \
                include runtime compiler grammar cli store python js 2>/dev/null || echo ' (with uncommitted changes)')"
        fi
        [ "$tag" = old ] && echo "ref=$REF ($commit)"
        echo "version=$(sed -n 's/^#define RSC_VERSION_STRING "\(.*\)"/\1/p' "$tree/include/robotsc/runtime.h")"
        echo "format=$(sed -n 's/^#define RSC_FORMAT_MAJOR \([0-9]*\).*/\1/p' "$tree/include/robotsc/runtime.h")"
        echo "use_api=$use"
        echo "python=$py"
        echo "store=$([ -x "$d/bench_store" ] && echo 1 || echo 0)"
    } >"$OUT/$tag.txt"
    [ "$tag" = old ] && sed -i "s/^commit=.*/commit=$commit/" "$OUT/$tag.txt"
    log "$tag: built ($("$d/bench_worker" 2>&1 | tail -1), Python: $py)"
}

ok=0
build old "$SRC" "$OUT/old-build" || ok=1
build new "$ROOT" "${RSC_BASELINE_NEW_BUILD:-$OUT/new-build}" || ok=1
exit $ok
