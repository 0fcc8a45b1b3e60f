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
postgresql python3-psycopg2 python3-numpy chromium chromium-driver python3-selenium libjs-chart.js
"
PACKAGES="$LIBRARIES $TOOLS"

missing=""
for p in $PACKAGES; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

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
echo "tools/setup.sh: done"
