#!/bin/sh
# The main command (README.md): installs missing Debian packages, builds what the benchmarks run
# (the `bench` build preset: no unit tests), runs the default benchmark set (`ctest -L bench`,
# ending with the comparison against this machine's baseline), stores the results in
# results/<machine-id>/ and records them into the history (tools/track's default store), writes
# the report and prints a summary, with the time of each step. Exits non-zero when the build or a
# benchmark failed or a benchmark regressed, after the report.
set -eu
cd "$(dirname "$0")/.."
# Seconds since $1 (date +%s).
since() { echo $(( $(date +%s) - $1 )); }
t=$(date +%s)
tools/setup.sh --bench
echo "== packages: $(since "$t") s =="
t=$(date +%s)
cmake --preset release
cmake --build --preset bench
echo "== build: $(since "$t") s =="
t=$(date +%s)
status=0
ctest --preset bench || status=$?
echo "== benchmarks: $(since "$t") s; raw results in build/results/ =="
t=$(date +%s)
if ls build/results/*.json >/dev/null 2>&1; then
  /usr/bin/python3 tools/results save || status=1
  # History across runs (docs/ci.md "History across CI runs"): the default store.
  /usr/bin/python3 tools/track record build/results/*.json || status=1
  # tools/report prints "report: <path> (...)" and, with --summary, the fastest adapters per family.
  /usr/bin/python3 tools/report --summary --html || status=1
fi
echo "== results and report: $(since "$t") s =="
if [ "$status" -ne 0 ]; then
  echo "== tools/run_bench.sh: something failed or regressed (exit $status); see above ==" >&2
fi
exit "$status"
