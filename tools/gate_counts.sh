#!/bin/sh
# The test command's instruction-count gate (tools/run_tests.sh runs it): tools/icount's default
# subset under callgrind (or the counts file given), judged by tools/track gate (docs/ci.md)
# against the committed baseline of its build (results/icount/<build-key>/baseline.json; a new
# build against the nearest build's, every move attributed to what changed), then recorded into
# the history (tools/track's default store, or $SOAPBENCH_TRACK_DB) only when it passed, so
# regressed counts never become history. Writes <counts>.md (the pull-request comment) and
# <counts>.verdict.json beside the counts; exits with the gate's code (tools/track gate --help).
# A tools/callcount file is gated the same way (against results/callcount/<build-key>/).
# Usage: tools/gate_counts.sh [COUNTS.json]   (default: count into build/icount-gate.json)
set -eu
case "${1:-}" in
  -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
cd "$(dirname "$0")/.."
counts=${1:-build/icount-gate.json}
[ $# -gt 0 ] || /usr/bin/python3 tools/icount --quiet --out "$counts"
/usr/bin/python3 tools/track gate --markdown "${counts%.json}.md" \
  --json "${counts%.json}.verdict.json" "$counts"
/usr/bin/python3 tools/track record "$counts"
