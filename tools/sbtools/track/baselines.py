"""The committed instruction-count baselines as the gate's references.

`results/icount/<build-key>/baseline.json` is a build's promoted reference (tools/results
baseline --icount, never automatic), committed with the code, so a fresh clone with an empty
store still has something to gate against. Against a baseline the gate keeps tools/compare's
rules (docs/ci.md "The instruction-count gate"): a benchmark regresses at its threshold (1%, or
results/thresholds.json's "icount" section), and a count file that lacks benchmarks the
baseline has fails unless the baseline's "removed" object names them.

tools/callcount's whole-call counts have theirs the same way, in
`results/callcount/<build-key>/baseline.json` (tools/callcount --baseline): the same rules for
their instructions; every change counts in their other metrics (metrics.py).
"""
import glob
import os

from sbtools import buildkey, compare, gbench, store

from . import TrackError, importers


class Baseline:
    """A committed baseline read as a run, with the rules that come with it."""

    def __init__(self, path, run, removed, rules):
        self.path = path          # results/icount/<key>/baseline.json
        self.run = run            # importers.Run of it
        self.removed = removed    # {benchmark: why} removed on purpose
        self.rules = rules        # tools/compare's icount thresholds [(regex, percent)]

    def threshold(self, benchmark):
        """The move (a fraction) at which a benchmark regresses against this baseline."""
        return compare.threshold_for(benchmark, self.rules, compare.DEFAULT_ICOUNT_PCT) / 100


def _read(path, results_dir, suite="icount"):
    try:
        doc, digest = gbench.read_json(path)
    except gbench.ResultError as e:
        raise TrackError(f"the committed baseline {e}") from e
    if suite == "callcount":
        if not gbench.is_gb(doc) or not isinstance(doc.get("callcount"), dict):
            raise TrackError(f"{path}: the committed baseline is not a tools/callcount file")
        run = importers.read_gb(doc, path, digest)
    elif not gbench.is_icount(doc) or not isinstance(doc.get("icount"), dict):
        raise TrackError(f"{path}: the committed baseline is not a tools/icount file")
    else:
        run = importers.read_icount(doc, path, digest)
    removed = doc.get("removed") if isinstance(doc.get("removed"), dict) else {}
    try:
        rules = compare.load_thresholds(os.path.join(results_dir, "thresholds.json"), False)[1]
    except gbench.ResultError as e:
        raise TrackError(str(e)) from e
    return Baseline(path, run, removed, rules)


def for_build(results_dir, key, suite="icount"):
    """The committed baseline of a build key (of tools/icount's or tools/callcount's counts),
    None when it has none."""
    folder = store.icount_dir if suite == "icount" else store.callcount_dir
    path = os.path.join(folder(results_dir, key), "baseline.json") if key else ""
    return _read(path, results_dir, suite) if key and os.path.exists(path) else None


def nearest(results_dir, build, suite="icount"):
    """The committed baseline whose build differs least from this one (fewest differing facts;
    ties: the newest), None when there is none."""
    found = [_read(p, results_dir, suite)
             for p in glob.glob(os.path.join(results_dir, suite, "*", "baseline.json"))]
    found.sort(key=lambda b: b.run.date, reverse=True)
    return min(found, key=lambda b: len(buildkey.build_differences(build, b.run.build)),
               default=None)
