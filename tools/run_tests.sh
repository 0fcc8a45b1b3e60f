#!/bin/sh
# The test command (README.md): installs missing Debian packages, then builds and runs every
# unit test twice: in the release build and under AddressSanitizer + UndefinedBehaviorSanitizer.
# No benchmark runs here (those belong to tools/run_bench.sh).
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
start=$(date +%s)
echo "== unit tests (release) =="
cmake --workflow --preset test
echo "== unit tests (asan + ubsan) =="
cmake --workflow --preset asan
echo "== all tests passed in $(( $(date +%s) - start )) s =="
