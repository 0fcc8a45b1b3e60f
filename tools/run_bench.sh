#!/bin/sh
# The main command (README.md): installs missing Debian packages, builds the release preset,
# runs the default benchmark set (`ctest -L bench`, ending with the comparison against this
# machine's baseline), stores the results in results/<machine-id>/ and records them into the
# history (tools/track's default store), writes the report and prints a summary. Exits non-zero when a benchmark failed or regressed, after the report.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
start=$(date +%s)
status=0
cmake --workflow --preset bench || status=$?
echo "== benchmarks finished in $(( $(date +%s) - start )) s; raw results in build/results/ =="
if ls build/results/*.json >/dev/null 2>&1; then
  /usr/bin/python3 tools/results save || status=1
  # History across runs (README "Results, reports and regression gating"): the default store.
  /usr/bin/python3 tools/track record build/results/*.json || status=1
  # tools/report prints "report: <path> (...)" and, with --summary, the fastest adapters per family.
  /usr/bin/python3 tools/report --summary || status=1
fi
if [ "$status" -ne 0 ]; then
  echo "== tools/run_bench.sh: something failed or regressed (exit $status); see above ==" >&2
fi
exit "$status"
