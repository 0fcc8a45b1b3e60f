#!/bin/sh
# The main command (README.md): installs missing Debian packages, builds what the benchmarks run
# (the `bench` build preset: no unit tests), runs the default benchmark set (`ctest -L bench`,
# ending with the comparison against this machine's baseline), stores the results in
# results/<machine-id>/ and records them into the history (tools/track's default store), writes
# the report and prints a summary, with the time of each step. Exits non-zero when the build or a
# benchmark failed or a benchmark regressed, after the report.
# Usage: tools/run_bench.sh [--only REGEX] [--budget SECONDS] [--results-dir DIR] [--no-setup]
#                           [--no-build]
#   --only REGEX       run only the bench tests whose names match (ctest -R), e.g. '^bench\.headline$'
#   --budget SECONDS   the first screen's rounds until decided stop after this (tools/bench_rounds;
#                      default its own, 100 s)
#   --results-dir DIR  store results, the report and the page there instead of results/
#   --no-setup         do not check the Debian packages (tools/setup.sh --bench)
#   --no-build         run the build tree as it is
#
# The answer first (issue 42): bench.headline, the first screen's benchmarks in rounds until
# decided (tools/bench_rounds), runs alone first; the page is then written with what it measured
# and says the other sets are still running, and is written again when they finish. Ctrl-C
# during the benchmarks stops them and still writes the page from what was measured, saying so.
set -eu
cd "$(dirname "$0")/.."
only=''
results_dir=results
setup=1
build=1
usage() { echo "tools/run_bench.sh: $1 (tools/run_bench.sh --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --only) [ $# -ge 2 ] || usage "--only needs a regular expression"; only=$2; shift ;;
    --budget)
      case "${2:-}" in '' | *[!0-9.]*) usage "--budget needs seconds, such as 60" ;; esac
      SB_ROUNDS_BUDGET=$2; export SB_ROUNDS_BUDGET; shift ;;
    --results-dir) [ $# -ge 2 ] || usage "--results-dir needs a folder"; results_dir=$2; shift ;;
    --no-setup) setup=0 ;;
    --no-build) build=0 ;;
    *) usage "unknown option $1" ;;
  esac
  shift
done
mkdir -p "$results_dir"
results_dir=$(cd "$results_dir" && pwd)
FIRST='^bench\.headline$'  # the first screen's set (report.answer: each family's complex.call)
# Seconds since $1 (date +%s).
since() { echo $(( $(date +%s) - $1 )); }
# The names of the bench tests ctest selects with "$@", one per line.
listed() { ctest --preset bench -N "$@" 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p'; }
# "about N s" for the bench tests ctest selects with "$@", from this build's last run times
# (ctest's CTestCostData.txt), or nothing on a first run.
expected() {
  cost=build/Testing/Temporary/CTestCostData.txt
  [ -f "$cost" ] || return 0
  listed "$@" |
    awk -v f="$cost" 'BEGIN { while ((getline l < f) > 0) { split(l, p, " "); c[p[1]] = p[3] } }
      { s += c[$1]; n += (c[$1] > 0) } END { if (n && s >= 1) printf " (about %d s by the last run here)", s }'
}
# How many bench tests ctest selects with "$@".
selects() { listed "$@" | wc -l; }
# Runs the bench tests selected by "$@" after a progress line; a Ctrl-C stops them (stopped=1).
run_tests() {
  echo "== benchmarks $1: $2$(shift 2; expected "$@") =="
  shift 2
  trap 'stopped=1; stopped_after=$(since "$t")' INT
  ctest --preset bench "$@" || status=$?
  trap - INT
}
# Writes the report and the page from build/results/ as they stand, with a status line ($1).
interim_report() {
  [ -f build/results/parse_bench_rounds.json ] || return 0
  /usr/bin/python3 tools/report --results-dir "$results_dir" --html --status "$1" \
    build/results/parse_bench_rounds.json || true
}
t=$(date +%s)
if [ "$setup" -eq 1 ]; then
  tools/setup.sh --bench
  echo "== packages: $(since "$t") s =="
fi
t=$(date +%s)
if [ "$build" -eq 1 ]; then
  cmake --preset release
  cmake --build --preset bench
  echo "== build: $(since "$t") s =="
fi
t=$(date +%s)
status=0
stopped=0
rm -f build/results/*.json
# --only selects within both stages; the first is skipped when it selects none of it.
if [ -z "$only" ] || echo "bench.headline" | grep -Eq -- "$only"; then
  run_tests 1/2 "bench.headline, the first screen's set, in rounds until decided" -R "$FIRST"
  if [ "$stopped" -eq 0 ]; then
    interim_report "Still running: the other benchmark sets (ctest --preset bench -E '$FIRST'); \
this page is written again when they finish."
    echo "== first screen: $(since "$t") s after the build =="
  fi
fi
if [ "$stopped" -eq 0 ] && [ "$(selects ${only:+-R "$only"} -E "$FIRST")" -gt 0 ]; then
  run_tests 2/2 "the other sets" ${only:+-R "$only"} -E "$FIRST"
fi
echo "== benchmarks: $(since "$t") s; raw results in build/results/ =="
t=$(date +%s)
if [ "$stopped" -ne 0 ]; then
  echo "== stopped (Ctrl-C): saving what was measured and writing the page (Ctrl-C again to quit) =="
fi
if ls build/results/*.json >/dev/null 2>&1; then
  /usr/bin/python3 tools/results --results-dir "$results_dir" save || status=1
  # History across runs (docs/ci.md "History across CI runs"): the default store; a stopped run's
  # partial results are not history.
  if [ "$stopped" -eq 0 ]; then
    /usr/bin/python3 tools/track record build/results/*.json || status=1
    # tools/report prints "report: <path> (...)" and, with --summary, the fastest adapters per
    # family.
    /usr/bin/python3 tools/report --results-dir "$results_dir" --summary --html || status=1
  fi
fi
if [ "$stopped" -ne 0 ]; then
  # From the newest stored run of each set: this run's where they finished, older ones where
  # they did not.
  /usr/bin/python3 tools/report --results-dir "$results_dir" --summary --html --status "Stopped \
by Ctrl-C after the \
benchmarks ran for ${stopped_after:-?} s: the sets that finished are this run's, the others the \
newest stored before it (Run and reproduction lists each file with its date)." || status=1
fi
echo "== results and report: $(since "$t") s =="
if [ "$stopped" -ne 0 ]; then
  echo "== tools/run_bench.sh: stopped by Ctrl-C; the page holds what was measured ==" >&2
  exit 130
fi
if [ "$status" -ne 0 ]; then
  echo "== tools/run_bench.sh: something failed or regressed (exit $status); see above ==" >&2
fi
exit "$status"
