# SPDX-License-Identifier: Apache-2.0
# Sourced by go/test.sh and bench/go/run.sh: builds the C libraries and the
# CLI with CMake into go/.build/cmake (once; again when a C source is newer),
# installs the libraries into go/.build/prefix and points pkg-config there,
# so that `go build` / `go test` in go/ link them. No
# module proxy: the module has no dependencies. Needs cmake, a C compiler,
# bison, re2c, pkg-config and the store's liblmdb, libcurl and libidn2
# (cli/setup.sh installs them).
#   . go/env.sh    (from the repository's root)
rsc_go_root=$PWD
rsc_go_build=$rsc_go_root/go/.build
if [ ! -f "$rsc_go_build/cmake/CMakeCache.txt" ]; then
  echo "== configuring the C build (go/.build/cmake)"
  cmake -S "$rsc_go_root" -B "$rsc_go_build/cmake" ${GEN:-} -DCMAKE_BUILD_TYPE=Release \
    -DRSC_BUILD_TESTS=OFF -DRSC_BUILD_CLI=ON -DRSC_INSTALL=ON \
    -DCMAKE_INSTALL_PREFIX="$rsc_go_build/prefix" -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
fi
echo "== building the C libraries and the CLI"
cmake --build "$rsc_go_build/cmake" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
cmake --install "$rsc_go_build/cmake" >/dev/null
export PKG_CONFIG_PATH=$rsc_go_build/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export CGO_ENABLED=1 GOPROXY=off
unset rsc_go_root rsc_go_build
