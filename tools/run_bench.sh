#!/bin/sh
# The main command (README.md): installs missing Debian packages, builds the release preset,
# runs the default benchmark set (`ctest -L bench`), writes the report and prints a summary.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
start=$(date +%s)
cmake --workflow --preset bench
echo "== benchmarks finished in $(( $(date +%s) - start )) s; raw results in build/results/ =="
