# Sourced by cli/example.sh and tests/run.sh: installs the build tools that
# are missing (Debian packages; needs root or sudo) and sets $GEN for cmake.
need=""
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v bison >/dev/null 2>&1 || need="$need bison"
command -v re2c >/dev/null 2>&1 || need="$need re2c"
command -v ninja >/dev/null 2>&1 || need="$need ninja-build"
# Libraries of crawl/ (robotsc fetch, robotsc url), found with pkg-config.
for p in libcurl4-openssl-dev libidn2-dev pkg-config; do
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
