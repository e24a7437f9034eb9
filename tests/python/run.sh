#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# usage: run.sh PYTHON WORKDIR SOURCE_DIR
# Makes WORKDIR/venv (--system-site-packages, so Debian's scrapy, protego
# and dask are seen), installs SOURCE_DIR/python offline with Debian's
# setuptools, and runs pytest on SOURCE_DIR/tests/python. Nothing is written
# into the source tree: the package is built from a copy.
set -euo pipefail
py=$1 work=$2 src=$3
venv=$work/venv
[ -x "$venv/bin/python" ] || "$py" -m venv --system-site-packages "$venv"
rm -rf "$work/pkg"
mkdir -p "$work/pkg"
cp -r "$src/python/." "$work/pkg/"
rm -rf "$work/pkg/build" "$work/pkg/"*.egg-info
export ROBOTSC_SOURCE_DIR=$src ROBOTSC_CMAKE_BUILD_DIR=$work/ext-cmake ROBOTSC_WERROR=1
export PYTHONDONTWRITEBYTECODE=1
"$venv/bin/python" -m pip install -q --no-build-isolation --no-deps --no-index \
  --disable-pip-version-check "$work/pkg"
cd "$work"
rc=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$src/tests/python" \
  "$src/tests/python" || rc=$?
if [ "$rc" = 5 ]; then
  echo "pytest collected no tests" >&2
  exit 1
fi
exit "$rc"
