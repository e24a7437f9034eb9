# SPDX-License-Identifier: Apache-2.0
# Sourced by cli/example.sh and tests/run.sh: installs the build tools that
# are missing (Debian packages; needs root or sudo) and sets $GEN for cmake.
need=""
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v cc >/dev/null 2>&1 || need="$need gcc"
# The install test builds C++ consumers of the public headers.
command -v c++ >/dev/null 2>&1 || need="$need g++"
command -v bison >/dev/null 2>&1 || need="$need bison"
command -v re2c >/dev/null 2>&1 || need="$need re2c"
command -v ninja >/dev/null 2>&1 || need="$need ninja-build"
# Libraries of crawl/ (robotsc fetch, robotsc url), found with pkg-config.
for p in libcurl4-openssl-dev libidn2-dev pkg-config; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
# The store (robotsc store, fetch --store): LMDB; zlib reads .warc.gz.
for p in liblmdb-dev zlib1g-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
# The Python binding and its tests (python/, tests/python): Debian's python3
# with setuptools and venv, pytest, and the frameworks the binding plugs into
# (robotsc.Store uses the store's LMDB, above).
for p in python3-dev python3-venv python3-pip python3-setuptools python3-wheel \
         python3-pytest python3-scrapy python3-protego python3-dask python3-distributed; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "${1:-}" ]; then
  for p in $1; do dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"; done
fi
if [ -n "$need" ]; then
  echo "installing:$need"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq $need >/dev/null
fi
GEN="-G Ninja"
command -v ninja >/dev/null 2>&1 || GEN=""
