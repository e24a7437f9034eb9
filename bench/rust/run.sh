#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/rust: the Rust binding against C in one process (bench/rust/README.md).
#   sh bench/rust/run.sh OUT.tsv CORPUS_DIR LIST_NAME
#       bench/run.sh's step 8: the per-language rows (single, batch) of the
#       list LIST_NAME (the corpus median list) into OUT.tsv.
#   sh bench/rust/run.sh --all [ARGS...]
#       every list of the corpus (../shared/corpus), the summary on stdout;
#       ARGS go to the bench binary (--lists N, --per-list FILE, ...).
# Builds bench/rust in release mode, offline (Debian's cc crate, as rust/).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
command -v cargo >/dev/null 2>&1 || { echo "bench/rust: cargo not found: nothing measured" >&2; exit 77; }
dpkg -s librust-cc-dev >/dev/null 2>&1 || {
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq librust-cc-dev >/dev/null
}
(cd "$here" && cargo build --offline --release --quiet)
bin=${CARGO_TARGET_DIR:-$here/target}/release/robotsc-bench-rust
if [ "${1:-}" = --all ]; then
  shift
  exec "$bin" "$@"
fi
[ $# -eq 3 ] || { echo "usage: sh bench/rust/run.sh OUT.tsv CORPUS_DIR LIST_NAME | --all [ARGS]" >&2; exit 2; }
rounds=7 minms=5
[ "${RSC_BENCH_QUICK:-0}" = 1 ] && rounds=3 minms=2
"$bin" --corpus "$2" --list "$3" --rounds "$rounds" --min-ms "$minms" --lang-tsv "$1" >/dev/null
cat "$1"
