#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Rust crates' tests (rust/README.md), offline: installs what is
# missing (Debian packages: Debian's packaged cc and pkg-config crates,
# bison and re2c for the parser, liblmdb and libidn2 for the store), then
# `cargo test --offline --features store` in rust/. ROBOTSC_CLI (a built
# robotsc) turns on the blob interchange and corpus tests; ../shared/corpus
# the comparison of every corpus URL list. Exit 77 (a skip) when no cargo
# can be installed.
set -euo pipefail
# A relative ROBOTSC_CLI names a file from the caller's directory.
if [ -n "${ROBOTSC_CLI:-}" ] && [ "${ROBOTSC_CLI#/}" = "$ROBOTSC_CLI" ]; then
  ROBOTSC_CLI=$PWD/$ROBOTSC_CLI
  export ROBOTSC_CLI
fi
cd "$(dirname "$0")"
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
need=""
# Without a cargo, Debian's (cargo and rustc 1.63 in Debian 12).
command -v cargo >/dev/null 2>&1 || need="cargo"
for p in librust-cc-dev librust-pkg-config-dev bison re2c pkg-config liblmdb-dev libidn2-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  echo "rust/test.sh: installing:$need"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -qq $need >/dev/null || { $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq $need >/dev/null; }
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "rust/test.sh: SKIP: no cargo, and Debian's could not be installed"
  exit 77
fi
if [ -z "${ROBOTSC_CLI:-}" ]; then
  echo "rust/test.sh: ROBOTSC_CLI not set: the interchange and corpus tests will say SKIP"
fi
# --nocapture: the tests' SKIP lines and counts reach the log.
cargo test --offline --features store -- --nocapture "$@"
