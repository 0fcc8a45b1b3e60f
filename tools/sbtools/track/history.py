"""Series out of the store, with their change points.

A series is one benchmark x machine x suite x metric over the runs that measured it, one value
per run (the median of its repetitions). Timings are judged as ratios within a run, since the
machines are shared: each run's common factor (the median over the suite's benchmarks of value /
that benchmark's median over the history) is divided out before change points are sought, and
is itself a series (`(run factor)`), so a change that slows everything still shows, there.
Measured series get their change points from E-divisive (changepoints.py); exact ones
(instruction and allocation counts, matrix outcomes) change exactly where a value moves by at
least max(0.5%, the series' noise floor).

A suite has thousands of measured series, and E-divisive's test at p <= 0.005 finds a false
change point in about one series of two hundred: tens of them among noise. So each measured
change point is judged again against the suite's multiplicity: its Mann-Whitney p between the
stretches either side, times the positions the split could have taken (a bound on the search
for the best split), and Benjamini-Hochberg at SUITE_FDR over every measured series of the
machine and suite: with no real change anywhere, the chance of one false change point in the
whole suite is at most SUITE_FDR. Change points that do not survive are kept apart
(Series.weak), never an open regression.
"""
import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from . import changepoints, metrics, stats
from .metrics import MIN_MOVE, analyzed_metrics, metric  # noqa: F401 (MIN_MOVE: gate's too)

MIN_FACTOR_SERIES = 20    # benchmarks a run needs before its common factor is divided out
SUITE_FDR = 0.05          # Benjamini-Hochberg q of a measured change point over its suite
RUN_FACTOR = "(run factor)"
_PARAMS = f"v1 {changepoints.SIGNIFICANCE} {changepoints.PERMUTATIONS} " \
          f"{changepoints.MIN_SIZE} {changepoints.EXPONENT} {MIN_MOVE}"


@dataclass
class Change:
    index: int          # first run of the new level (position in Series.runs)
    shift: float        # relative move of the new level over the old (Hodges-Lehmann)
    low: float          # its interval (LEVEL), equal to shift for exact series
    high: float
    p: float            # the permutation p (None for exact series)
    regression: bool    # the move is the worse way for this metric
    q: float = None     # measured series: its p against the suite's multiplicity (adjusted)


@dataclass
class Series:
    id: int                         # series id in the store (0 for a run factor)
    machine: str
    suite: str
    benchmark: str
    metric: str
    runs: list                      # [RunRow] that measured it, oldest first
    values: list                    # per-run medians as measured
    analysed: list = None           # what change points were sought in (timings: / run factor)
    changes: list = field(default_factory=list)   # [Change], oldest first
    weak: list = field(default_factory=list)      # [Change] below the suite's multiplicity
    floor: float = 0.0              # noise floor learned from the history (stats.noise_floor)

    @property
    def exact(self):
        return metric(self.metric).exact

    def segments(self):
        """[(start, end)] between change points."""
        cuts = [0] + [c.index for c in self.changes] + [len(self.values)]
        return list(zip(cuts, cuts[1:]))

    @property
    def open_regression(self):
        """The newest change made it worse, and nothing since made it better."""
        return bool(self.changes) and self.changes[-1].regression


def beyond(move, threshold):
    """A move of at least the threshold (0.5% is caught at 0.5%, rounding aside)."""
    return abs(move) >= threshold * (1 - 1e-9)


def seed_of(*parts):
    return int(hashlib.sha1("/".join(parts).encode()).hexdigest()[:8], 16)


def run_factors(by_series, run_ids):
    """{run id: common factor}: per run, the median over series of value / series median."""
    refs = {sid: stats.median(list(vals.values())) for sid, vals in by_series.items()}
    out = {}
    for rid in run_ids:
        ratios = [vals[rid] / refs[sid] for sid, vals in by_series.items()
                  if rid in vals and refs[sid] > 0]
        out[rid] = stats.median(ratios) if len(ratios) >= MIN_FACTOR_SERIES else 1.0
    return out


def exact_changes(values, threshold, name):
    """Where an exact series moves beyond its band (metrics.band) from one run to the next."""
    out = []
    for i in range(1, len(values)):
        a, b = values[i - 1], values[i]
        move = (b / a - 1) if a else (0.0 if b == a else 1.0)
        if metrics.counts(name, move, threshold):
            out.append(Change(i, move, move, move, None, metrics.worse(name, move)))
    return out


def measured_changes(values, points, lower_better):
    """Changes at E-divisive's change points whose Hodges-Lehmann move reaches MIN_MOVE, each
    with its p for the suite's multiplicity (scan_p) in q until suite_multiplicity adjusts it."""
    out = []
    cuts = [0] + [p[0] for p in points] + [len(values)]
    for k, (index, p, _q) in enumerate(points):
        before, after = values[cuts[k]:index], values[index:cuts[k + 2]]
        hl = stats.hodges_lehmann(before, after)
        if hl is None or abs(hl[0]) < MIN_MOVE:
            continue
        out.append(Change(index, hl[0], hl[1], hl[2], p, (hl[0] > 0) == lower_better,
                          scan_p(before, after)))
    return out


def scan_p(before, after):
    """The Mann-Whitney p of the stretches either side of a change point, times the positions
    the split could have taken among them (Bonferroni over the search)."""
    positions = max(1, len(before) + len(after) - 2 * changepoints.MIN_SIZE + 1)
    return min(1.0, stats.mann_whitney_p(before, after) * positions)


def suite_multiplicity(series, q=SUITE_FDR):
    """Keeps the measured change points that survive Benjamini-Hochberg at q over every
    measured series of their machine and suite (scan_p in Change.q, replaced by the adjusted
    p); the others move to Series.weak."""
    groups = {}
    for x in series:
        if not x.exact:
            groups.setdefault((x.machine, x.suite), []).append(x)
    for members in groups.values():
        found = [(x, c) for x in members for c in x.changes]
        if not found:
            continue
        pvalues = [c.q for _x, c in found]
        family = max(len(members), len(found))
        rejected, adjusted = stats.benjamini_hochberg(
            pvalues + [1.0] * (family - len(found)), q)
        for (x, c), keep, adj in zip(found, rejected, adjusted):
            c.q = adj
            if not keep:
                x.changes.remove(c)
                x.weak.append(c)


def _detect_chunk(tasks):
    """[(values, seed)] -> [[(index, p, q)]] (runs in a worker process)."""
    return [[(c.index, c.p, c.q) for c in changepoints.e_divisive(v, seed=s)] for v, s in tasks]


def detect_many(tasks, jobs=None, progress=None):
    """E-divisive over many series, spread over `jobs` processes (default: the CPUs)."""
    jobs = jobs or len(os.sched_getaffinity(0))
    chunk = 50
    pieces = [tasks[i:i + chunk] for i in range(0, len(tasks), chunk)]
    out = []
    if jobs <= 1 or len(pieces) <= 1:
        for i, piece in enumerate(pieces):
            out += _detect_chunk(piece)
            if progress:
                progress(len(out), len(tasks))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_detect_chunk, pieces):
            out += result
            if progress:
                progress(len(out), len(tasks))
    return out


def _cache_key(series):
    raw = json.dumps([_PARAMS, [r.id for r in series.runs],
                      [round(v, 9) for v in series.analysed]]).encode()
    return hashlib.sha1(raw).hexdigest()


def load(store, machine=None, suite=None, metrics=None, benchmark=None):
    """[Series] of the store (one machine/suite/metric set if given), without change points."""
    metrics = metrics or analyzed_metrics()
    out = []
    pairs = sorted({(r.machine, r.suite) for r in store.runs(machine, suite)})
    for m, s in pairs:
        runs = store.runs(m, s)
        by_id = {r.id: r for r in runs}
        medians = store.medians(m, s, metrics)
        for sid, _m, _s, bench, met in store.series(m, s, metrics):
            if benchmark and benchmark != bench:
                continue
            vals = medians.get(sid, {})
            rs = [r for r in runs if r.id in vals]
            if rs:
                out.append(Series(sid, m, s, bench, met, rs, [vals[r.id] for r in rs]))
        _add_factors(out, m, s, medians, runs, by_id)
    return out


def _add_factors(out, machine, suite, medians, runs, by_id):
    """Divides timing series of one machine/suite by their runs' factors; adds the factor
    series."""
    for met in sorted({x.metric for x in out if x.machine == machine and x.suite == suite}):
        if met not in ("real_time", "cpu_time"):
            continue
        group = [x for x in out if x.machine == machine and x.suite == suite and x.metric == met]
        factors = run_factors({x.id: medians[x.id] for x in group}, [r.id for r in runs])
        if all(f == 1.0 for f in factors.values()):
            continue
        for x in group:
            x.analysed = [v / factors[r.id] for v, r in zip(x.values, x.runs)]
        rs = [by_id[rid] for rid in factors]
        out.append(Series(0, machine, suite, RUN_FACTOR, met, rs, [factors[r.id] for r in rs]))


def detect(store, series, jobs=None, progress=None):
    """Fills every series' changes and floor (E-divisive results cached in the store)."""
    for x in series:
        if x.analysed is None:
            x.analysed = list(x.values)
        x.floor = stats.noise_floor(x.analysed)
    measured = [x for x in series if not x.exact]
    cached = store.cached_changes([x.id for x in measured if x.id])
    todo, keys = [], {}
    for x in measured:
        keys[id(x)] = _cache_key(x)
        hit = cached.get(x.id)
        if not (x.id and hit and hit[0] == keys[id(x)]):
            todo.append(x)
    found = detect_many([(x.analysed, seed_of(x.machine, x.suite, x.benchmark, x.metric))
                         for x in todo], jobs, progress)
    results = {id(x): pts for x, pts in zip(todo, found)}
    store.cache_changes([(x.id, keys[id(x)], json.dumps(results[id(x)])) for x in todo if x.id])
    for x in series:
        lower = metric(x.metric).lower_better
        if x.exact:
            x.changes = exact_changes(x.values, metrics.band(x.metric, x.floor), x.metric)
            continue
        points = results[id(x)] if id(x) in results else json.loads(cached[x.id][1])
        x.changes = measured_changes(x.analysed, points, lower)
    suite_multiplicity(series)
    return series
