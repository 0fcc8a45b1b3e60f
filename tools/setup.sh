#!/bin/sh
# Installs every Debian package soapbench needs. Idempotent: quiet when all are present.
# Usage: tools/setup.sh            (as root, on Debian 12)
set -eu

# Libraries: the "# apt:" lines of cmake/dependencies.cmake (each dependency is written once,
# beside the CMake block that finds it). Tools the build, tests and benchmarks run: listed here.
here=$(dirname "$0")
LIBRARIES=$(sed -n 's/^# apt: //p' "$here/../cmake/dependencies.cmake")
TOOLS="
build-essential cmake ninja-build git pkg-config ca-certificates
clang clang-format libclang-rt-14-dev valgrind
libxml2-utils curl util-linux iproute2
"
PACKAGES="$LIBRARIES $TOOLS"

missing=""
for p in $PACKAGES; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

# npm packages the tests read in place, unpacked (npm pack: the tarball only, no dependencies,
# no install scripts) into a cache outside the tree, never copied into it: strong-soap's
# example/wsdls/weather.wsdl, CDYNE's published Weather service (tests/wsdl/test_user_wsdl.py).
NPM_CACHE=${SB_NPM_CACHE:-/var/cache/soapbench/npm}
NPM_PACKAGES="strong-soap@5.0.10"
unpack_npm() {
  for spec in $NPM_PACKAGES; do
    dir="$NPM_CACHE/$(echo "$spec" | tr '@/' '--')"
    [ -d "$dir/package" ] && continue
    if ! command -v npm >/dev/null; then missing="$missing npm"; continue; fi
    echo "tools/setup.sh: unpacking npm package $spec into $dir"
    mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$spec" >/dev/null && tar xzf ./*.tgz && rm -f ./*.tgz)
  done
}
unpack_npm

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "tools/setup.sh: missing Debian packages:$missing" >&2
  echo "tools/setup.sh: run as root (or: sudo apt-get install$missing)" >&2
  exit 1
fi

echo "tools/setup.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
unpack_npm
echo "tools/setup.sh: done"
