#!/bin/sh
# Installs every Debian package soapbench needs. Idempotent: quiet when all are present.
# Usage: tools/setup.sh            (as root, on Debian 12)
set -eu

# One line per purpose; keep README.md's dependency list in step with this one.
PACKAGES="
build-essential cmake ninja-build git pkg-config ca-certificates
libpugixml-dev librapidxml-dev libtinyxml2-dev libxml2-dev libxerces-c-dev libexpat1-dev
rapidjson-dev libsimdjson-dev libxxhash-dev
libboost-dev libssl-dev openssl zlib1g-dev
libcli11-dev libfmt-dev
libgtest-dev libgmock-dev libbenchmark-dev libbenchmark-tools
clang clang-format libclang-rt-14-dev valgrind
python3 python3-lxml python3-xxhash python3-zeep python3-matplotlib python3-scipy
libxml2-utils curl util-linux iproute2
"

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
