"""The gate: one run (a pull request's head) judged against the history.

Exact metrics (instruction and allocation counts, matrix outcomes) are compared value for value
with the reference run: the newest recorded run of the same build (at the base commit when it
is known), threshold per benchmark max(0.5%, the series' noise floor learned from its history).
A build with no history is compared with the previous build of the same machine kind, never
passed silently, and every move is attributed (attribution.py): to the changed fields of the
build or the machine it depends on (a warning: the environment moved, not the code), or to the
commits (a failure).

Timings gate only when the job measured base and head itself, interleaved (ABAB..., at least
MIN_REPS runs a side, each run's median the sample): Hodges-Lehmann shift, Mann-Whitney p,
Benjamini-Hochberg over all benchmarks at false discovery rate TIMING_FDR. Otherwise they are information: the head's
ratios within its run against the series' recent band.
"""
from dataclasses import dataclass, field

from . import TrackError, attribution, history, stats
from .metrics import metric

TIMING_FDR = 0.01    # Benjamini-Hochberg q for interleaved timings
MIN_REPS = 9         # interleaved runs a side a timing comparison needs
INFO_WINDOW = 20     # recent runs the informational timing band is drawn from


@dataclass
class Row:
    suite: str
    benchmark: str
    metric: str
    base: float         # reference value (median of its repetitions)
    head: float
    move: float         # head / base - 1 (Hodges-Lehmann for timings)
    low: float          # interval of the move (= move for exact metrics)
    high: float
    threshold: float    # the noise band: max(0.5%, floor) for exact metrics
    status: str         # regression, improvement, same, outside (information)
    cause: str = ""     # what the move is attributed to
    gating: bool = False  # counts against the pull request (else: environment or information)
    p: float = None     # Mann-Whitney p (Benjamini-Hochberg adjusted) for timings


@dataclass
class Result:
    machine: str
    head_commit: str
    base_commit: str
    rows: list = field(default_factory=list)     # [Row] worth reporting
    notes: list = field(default_factory=list)    # [(level, text)]: notice, warning, error
    compared: dict = field(default_factory=dict)  # {suite/metric: benchmarks compared}

    @property
    def verdict(self):
        if any(r.gating and r.status == "regression" for r in self.rows):
            return "FAIL"
        if any(r.status == "regression" for r in self.rows) or \
                any(level == "warning" for level, _t in self.notes):
            return "WARN"
        return "PASS"

    @property
    def exit_code(self):
        return 1 if self.verdict == "FAIL" else 0


def _same_commit(a, b):
    return bool(a and b) and (a.startswith(b) or b.startswith(a))


def reference(store, run, base_commit):
    """(reference RunRow, same_build) for a run's exact metrics, or (None, False)."""
    machine = None if run.suite == "icount" else run.machine  # counts are the build's
    same = [r for r in store.runs(machine, run.suite) if r.build_key == run.build_key
            and r.source != run.source]
    if base_commit:
        at_base = [r for r in same if _same_commit(r.commit, base_commit)]
        same = at_base or same
    if same:
        return same[-1], True
    previous = store.runs(run.machine, run.suite)
    return (previous[-1], False) if previous else (None, False)


def _floors(store, machine, suite, metrics):
    """{(benchmark, metric): noise floor} from the stored history, in run order."""
    out = {}
    runs = [r.id for r in store.runs(machine, suite)]
    medians = store.medians(machine, suite, metrics)
    for sid, _m, _s, bench, met in store.series(machine, suite, metrics):
        vals = medians.get(sid, {})
        out[(bench, met)] = stats.noise_floor([vals[r] for r in runs if r in vals])
    return out


def gate_exact(store, run, env, base_commit, result):
    metrics = sorted({m for _b, m in run.samples if metric(m).exact and metric(m).analyzed})
    if not metrics:
        return
    ref, same_build = reference(store, run, base_commit)
    if ref is None:
        result.notes.append(("warning", f"{run.suite}: no history of machine {run.machine} or of "
                                        f"build {run.build_key} in the store: nothing to compare "
                                        "(record main's runs to arm the gate)"))
        return
    ref_context, ref_env = store.run_details(ref.id)
    changes = attribution.diff(
        attribution.fields(ref_env.get("build", {}), ref_env, False, ref.build_key),
        attribution.fields(run.build, env, False, run.build_key))
    if not same_build:
        result.notes.append(("warning", f"{run.suite}: new build {run.build_key} (no history of "
                                        f"it): compared with the previous build {ref.build_key} "
                                        f"of machine {run.machine} (commit {ref.commit}); changed: "
                                        f"{attribution.describe(changes) or 'nothing recorded'}"))
    result.base_commit = result.base_commit or ref.commit
    floors = _floors(store, ref.machine, run.suite, metrics)
    base = store.repetitions(ref.id)
    moves, rows = {}, {}
    for (bench, met), reps in run.samples.items():
        if met not in metrics or (bench, met) not in base:
            continue
        b, h = stats.median(base[(bench, met)]), stats.median(reps)
        result.compared[f"{run.suite}/{met}"] = result.compared.get(f"{run.suite}/{met}", 0) + 1
        move = (h / b - 1) if b else (0.0 if h == b else 1.0)
        threshold = max(history.MIN_MOVE, floors.get((bench, met), 0.0))
        if not history.beyond(move, threshold):
            continue
        worse = (move > 0) == metric(met).lower_better
        rows[(bench, met)] = Row(run.suite, bench, met, b, h, move, move, move, threshold,
                                 "regression" if worse else "improvement")
        moves[(bench, met)] = move
    commits = f"commits {ref.commit}..{run.commit}" if ref.commit != run.commit else \
        f"the same commit {run.commit} (a repeat)"
    for cause in attribution.attribute({b: m for (b, _x), m in moves.items()}, changes,
                                       {**ref_context, **run.context},
                                       env.get("package_sources", {})):
        text = attribution.describe(cause.fields) if cause.fields else commits
        for bench, _m in cause.benchmarks:
            for key in [k for k in rows if k[0] == bench]:
                rows[key].cause = text
                rows[key].gating = not cause.fields
    result.rows += rows.values()


def interleaved(base_runs, head_runs):
    """None when base and head were measured interleaved (same machine, dates alternating),
    else why not."""
    if not base_runs:
        return "base and head were not measured in this job (no --base files)"
    machines = {r.machine for r in base_runs + head_runs}
    if len(machines) > 1:
        return f"base and head come from different machines ({', '.join(sorted(machines))})"
    order = sorted([(r.date, "A") for r in base_runs] + [(r.date, "B") for r in head_runs])
    sides = [s for _d, s in order]
    if any(a == b for a, b in zip(sides, sides[1:])):
        return "base and head files do not alternate in time (ABAB...): " + "".join(sides)
    return None


def gate_timings(base_runs, head_runs, result):
    """Interleaved timings: Hodges-Lehmann, Mann-Whitney, Benjamini-Hochberg. The unit is the
    run (each run's median of its repetitions): repetitions within one run share its moment of
    the machine and are not independent samples. As in the history, each run is divided by its
    common factor (a moment when the shared machine was four times slower moves every benchmark
    of that run), and the factors are compared too, as "(run factor)", so a slowdown of every
    benchmark still shows."""
    def per_run(runs):
        out = {}
        for r in runs:
            for (bench, met), reps in r.samples.items():
                if met == "real_time":
                    out.setdefault((r.suite, bench), {})[id(r)] = stats.median(reps)
        return out
    values = per_run(base_runs + head_runs)
    factors = history.run_factors(values, [id(r) for r in base_runs + head_runs])
    base, head = {}, {}
    for key, by_run in values.items():
        for side, runs in ((base, base_runs), (head, head_runs)):
            got = [by_run[id(r)] / factors[id(r)] for r in runs if id(r) in by_run]
            if got:
                side[key] = got
    if any(f != 1.0 for f in factors.values()):
        suite = head_runs[0].suite
        base[(suite, history.RUN_FACTOR)] = [factors[id(r)] for r in base_runs]
        head[(suite, history.RUN_FACTOR)] = [factors[id(r)] for r in head_runs]
    keys = [k for k in sorted(head) if k in base and len(base[k]) >= MIN_REPS
            and len(head[k]) >= MIN_REPS]
    short = len([k for k in head if k in base]) - len(keys)
    if short:
        result.notes.append(("notice", f"timings: {short} benchmarks were measured in fewer than "
                                       f"{MIN_REPS} interleaved runs a side and are not judged"))
    if not keys:
        return
    tests = [(k, stats.hodges_lehmann(base[k], head[k]), stats.mann_whitney_p(base[k], head[k]))
             for k in keys]
    rejected, adjusted = stats.benjamini_hochberg([p for _k, _h, p in tests], TIMING_FDR)
    for (suite, _bench), _hl, _p in tests:
        result.compared[f"{suite}/real_time"] = result.compared.get(f"{suite}/real_time", 0) + 1
    for ((suite, bench), hl, _p), rej, adj in zip(tests, rejected, adjusted):
        if not rej or hl is None or abs(hl[0]) < history.MIN_MOVE:
            continue
        result.rows.append(Row(suite, bench, "real_time", stats.median(base[(suite, bench)]),
                               stats.median(head[(suite, bench)]), hl[0], hl[1], hl[2], 0.0,
                               "regression" if hl[0] > 0 else "improvement",
                               "measured interleaved in this job", True, adj))


def timing_information(store, run, result):
    """Timings without an interleaved base: the head's ratio within its run against the band
    of the series' last INFO_WINDOW runs (as ratios within their runs); never gating."""
    series = history.load(store, run.machine, run.suite, ["real_time"])
    series = [x for x in series if x.benchmark != history.RUN_FACTOR]
    if not series:
        return 0, 0
    refs = {x.benchmark: stats.median(x.values) for x in series}
    head = {b: stats.median(reps) for (b, m), reps in run.samples.items() if m == "real_time"}
    ratios = [head[b] / refs[b] for b in head if refs.get(b)]
    factor = stats.median(ratios) if len(ratios) >= history.MIN_FACTOR_SERIES else 1.0
    outside = 0
    for x in series:
        if x.benchmark not in head or len(x.values) < 3:
            continue
        recent = (x.analysed or x.values)[-INFO_WINDOW:]
        lo, hi = stats.band(recent)
        value = head[x.benchmark] / factor
        if lo <= value <= hi:
            continue
        outside += 1
        move = value / stats.median(recent) - 1
        result.rows.append(Row(run.suite, x.benchmark, "real_time", stats.median(recent), value,
                               move, move, move, max(hi / stats.median(recent) - 1,
                                                     1 - lo / stats.median(recent)),
                               "outside", "information only"))
    return outside, len(head)


def run_gate(store, head_runs, env, base_runs=None, base_commit=None):
    """Result of judging head_runs (importers.Run of one run) against the store."""
    if not head_runs:
        raise TrackError("gate: no result files given")
    machine = head_runs[0].machine
    result = Result(machine, head_runs[0].commit, base_commit)
    for run in head_runs:
        gate_exact(store, run, env, base_commit, result)
    why_not = interleaved(base_runs or [], head_runs)
    if why_not is None:
        gate_timings(base_runs, head_runs, result)
    else:
        timed = [run for run in head_runs if any(m == "real_time" for _b, m in run.samples)]
        outside = total = 0
        for run in timed:
            o, t = timing_information(store, run, result)
            outside, total = outside + o, total + t
        if timed:
            result.notes.append(("notice", f"timings are information only ({why_not}): " + (
                f"{outside} of {total} outside their recent band" if total else
                "no history of them to compare with")))
    return result
