# SPDX-License-Identifier: Apache-2.0
# Sourced by go/test.sh and bench/go/run.sh: makes the C libraries
# findable by the Go packages' `#cgo pkg-config:` lines (robotsc.pc,
# robotsc-store.pc), then exports PKG_CONFIG_PATH, CGO_ENABLED=1 and
# GOPROXY=off (the module has no dependencies). Two ways:
# - ROBOTSC_BUILD=DIR names a CMake build of this tree with static
#   libraries (the default): pkg-config files for them are written into
#   go/.build/pc (no second build);
# - otherwise the libraries and the CLI are built with CMake into
#   go/.build/cmake (again when a C source is newer) and installed into
#   go/.build/prefix, as a user's program finds an installed robotsc.
# Needs cmake, a C compiler, bison, re2c, pkg-config and the store's
# liblmdb, libcurl and libidn2 (cli/setup.sh installs them).
#   . go/env.sh    (from the repository's root)
rsc_go_root=$PWD
rsc_go_build=$rsc_go_root/go/.build
if [ -n "${ROBOTSC_BUILD:-}" ]; then
  case $ROBOTSC_BUILD in /*) rsc_b=$ROBOTSC_BUILD ;; *) rsc_b=$rsc_go_root/$ROBOTSC_BUILD ;; esac
  for rsc_f in librobotsc.a runtime/librobotsc_runtime.a crawl/librobotsc_crawl.a store/librobotsc_store.a; do
    if [ ! -f "$rsc_b/$rsc_f" ]; then
      echo "go/env.sh: ROBOTSC_BUILD=$ROBOTSC_BUILD has no $rsc_f (a static build of this tree is needed)" >&2
      return 1 2>/dev/null || exit 1
    fi
  done
  mkdir -p "$rsc_go_build/pc"
  printf 'Name: robotsc\nDescription: robotsc from %s\nVersion: 1\nLibs: -L%s -L%s/runtime -lrobotsc -lrobotsc_runtime\nCflags: -I%s/include\n' \
    "$rsc_b" "$rsc_b" "$rsc_b" "$rsc_go_root" > "$rsc_go_build/pc/robotsc.pc"
  printf 'Name: robotsc-store\nDescription: robotsc store from %s\nVersion: 1\nRequires: robotsc libcurl libidn2\nLibs: -L%s/store -L%s/crawl -lrobotsc_store -lrobotsc_crawl -llmdb\nCflags: -I%s/include\n' \
    "$rsc_b" "$rsc_b" "$rsc_b" "$rsc_go_root" > "$rsc_go_build/pc/robotsc-store.pc"
  export PKG_CONFIG_PATH=$rsc_go_build/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  echo "== the C libraries of $rsc_b"
else
  if [ ! -f "$rsc_go_build/cmake/CMakeCache.txt" ]; then
    echo "== configuring the C build (go/.build/cmake)"
    cmake -S "$rsc_go_root" -B "$rsc_go_build/cmake" ${GEN:-} -DCMAKE_BUILD_TYPE=Release \
      -DRSC_BUILD_TESTS=OFF -DRSC_BUILD_CLI=ON -DRSC_INSTALL=ON \
      -DCMAKE_INSTALL_PREFIX="$rsc_go_build/prefix" -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
  fi
  echo "== building the C libraries and the CLI (go/.build/cmake)"
  cmake --build "$rsc_go_build/cmake" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
  cmake --install "$rsc_go_build/cmake" >/dev/null
  export PKG_CONFIG_PATH=$rsc_go_build/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
fi
export CGO_ENABLED=1 GOPROXY=off
unset rsc_go_root rsc_go_build rsc_b rsc_f
