#!/bin/sh
# The test command (README.md): installs missing Debian packages, then builds and runs every
# unit test twice: in the release build and under AddressSanitizer + UndefinedBehaviorSanitizer.
# Between the two, the instruction-count gate (tools/gate_counts.sh): tools/icount's subset
# under callgrind judged by tools/track gate against the committed baseline of this build
# (results/icount/<build-key>/baseline.json), recorded into the history only when it passed;
# it prints the comparison and its verdict and fails on a regression; then the whole call's exact
# counts (tools/callcount), gated the same way, and the regression zoo on two of its planted
# patches (tools/track zoo: each must be caught). No timed benchmark runs
# here (those belong to tools/run_bench.sh). The gate runs on one core and counts instructions,
# which load does not move, so the sanitizer build (which times nothing either) runs beside it;
# nothing runs beside the unit tests, some of which compare throughput. Every step prints its
# time; a failed gate is reported after the sanitizer tests, a failed build or test stops the
# command.
set -eu
cd "$(dirname "$0")/.."
# Seconds since $1 (date +%s).
since() { echo $(( $(date +%s) - $1 )); }
tools/setup.sh
start=$(date +%s)

t=$(date +%s)
echo "== unit tests (release) =="
cmake --workflow --preset test
echo "== unit tests (release): $(since "$t") s =="

t=$(date +%s)
echo "== instruction-count gate (tools/icount, tools/track gate); the sanitizer build beside it =="
mkdir -p build-asan
(cmake --preset asan && cmake --build --preset asan) >build-asan/build.log 2>&1 &
asan_build=$!
gate=0
# The gate, then the history (docs/ci.md "History across CI runs"): tools/gate_counts.sh.
tools/gate_counts.sh || gate=$?
echo "== instruction-count gate: $(since "$t") s =="

# The whole call's exact counts (tools/callcount, docs/results.md "callcount"): instructions,
# system calls, allocations, context switches and mutex locks per side and the bytes each way,
# judged against results/callcount/<build-key>/baseline.json and recorded as the instruction
# counts are (tools/gate_counts.sh). Beside the sanitizer build too: it runs on one CPU, exactly.
tc=$(date +%s)
echo "== whole-call counts (tools/callcount, tools/gate_counts.sh) =="
calls=0
{ /usr/bin/python3 tools/callcount --quiet --out build/callcount-gate.json &&
  tools/gate_counts.sh build/callcount-gate.json; } || calls=$?
echo "== whole-call counts: $(since "$tc") s =="

# The regression zoo on two of its patches (docs/ci.md "The regression zoo"): each applied to a
# worktree of HEAD, built with ccache, counted by tools/callcount and judged by tools/track gate
# against the unpatched tree's counts; fails unless both are caught and the A/A run passes.
tz=$(date +%s)
echo "== regression zoo (tools/track zoo, two patches, the whole-call gate) =="
zoo=0
/usr/bin/python3 tools/track zoo --gates callcount --patches nagle-left-on,dispatch-lock \
  --budget 600 --out build/zoo-ci || zoo=$?
echo "== regression zoo: $(since "$tz") s =="
built=0
wait "$asan_build" || built=$?
if [ "$built" -ne 0 ]; then
  tail -n 60 build-asan/build.log >&2
  echo "== sanitizer build failed (exit $built); the whole log: build-asan/build.log ==" >&2
  exit "$built"
fi
echo "== sanitizer build (build-asan/build.log): $(since "$t") s since the gate started =="

t=$(date +%s)
echo "== unit tests (asan + ubsan) =="
ctest --preset asan
echo "== unit tests (asan + ubsan): $(since "$t") s =="
if [ "$gate" -ne 0 ]; then
  echo "== the instruction-count gate failed (exit $gate); see above ==" >&2
  exit "$gate"
fi
if [ "$calls" -ne 0 ]; then
  echo "== the whole-call counts' gate failed (exit $calls); see above ==" >&2
  exit "$calls"
fi
if [ "$zoo" -ne 0 ]; then
  echo "== the regression zoo failed (exit $zoo): build/zoo-ci/zoo.md, zoo.log ==" >&2
  exit "$zoo"
fi
echo "== all tests passed in $(since "$start") s =="
