#!/bin/sh
# The test command (README.md): installs missing Debian packages, then builds and runs every
# unit test twice: in the release build and under AddressSanitizer + UndefinedBehaviorSanitizer.
# Between the two, the instruction-count gate: tools/icount's subset under callgrind against the
# committed baseline of this build (results/icount/<build-key>/baseline.json), the counts
# recorded into the history (tools/track's default store); it prints the comparison and its
# verdict and fails on a regression. No timed benchmark runs here (those
# belong to tools/run_bench.sh).
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
start=$(date +%s)
echo "== unit tests (release) =="
cmake --workflow --preset test
echo "== instruction-count gate (tools/icount, tools/compare) =="
/usr/bin/python3 tools/icount --quiet --out build/icount-gate.json
# History across CI runs (README "Results, reports and regression gating"): the default store.
/usr/bin/python3 tools/track record build/icount-gate.json
/usr/bin/python3 tools/compare --only-changes --against-baseline build/icount-gate.json
echo "== unit tests (asan + ubsan) =="
cmake --workflow --preset asan
echo "== all tests passed in $(( $(date +%s) - start )) s =="
