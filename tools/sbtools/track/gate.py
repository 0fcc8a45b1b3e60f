"""The gate: one run (a pull request's head) judged against the history.

Exact metrics (instruction and allocation counts, matrix outcomes) are compared value for value
with a reference: the same build's run of the base commit when the store has it, else the
build's committed baseline (results/icount/<build-key>/baseline.json: tools/compare's
threshold, 1% or results/thresholds.json, and benchmarks it has that the run lacks fail), else
the build's newest recorded run (threshold per benchmark max(0.5%, the series' noise floor)).
A new build (a compiler, glibc or library upgrade) is compared with the previous build of the
same machine (the machine is its hardware: CPU model, cores, caches; the build is the rest),
or the committed baseline of the nearest build, never with nothing; every move is attributed
(attribution.py): to the changed fields of the build or the machine it depends on (a warning:
the environment moved, not the code), or to the commits (a failure). A move attributed to the
environment while the commits changed too is the gate's blind spot, and the summary says so:
the count moved, whether the code did is unknown. The whole call's counts (tools/callcount,
results/callcount/<build-key>/) are the build's too and gated the same way, but system calls,
bytes, allocations, context switches and locks count every change, and a system call or byte
count that moves either way is a regression (metrics.py says which metric is which).

Timings gate only when the job measured base and head itself, interleaved (ABAB..., at least
MIN_REPS runs a side, each run's median the sample): Hodges-Lehmann shift, Mann-Whitney p,
Benjamini-Hochberg over all benchmarks at false discovery rate TIMING_FDR. Otherwise they are
information: the head's ratios within its run against the series' recent band.

Nothing to compare with at all is a failure of its own (exit 3) unless --allow-empty.
"""
from dataclasses import dataclass, field

from sbtools import paths

from . import TrackError, attribution, baselines, history, stats
from .metrics import absent_is_zero, band, counts, gated, metric, worse

TIMING_FDR = 0.01    # Benjamini-Hochberg q for interleaved timings
MIN_REPS = 9         # interleaved runs a side a timing comparison needs
INFO_WINDOW = 20     # recent runs the informational timing band is drawn from
# Suites whose counts are the build's, not the machine's: any machine's run of the build is a
# reference, and each build may have a committed baseline, results/<suite>/<build-key>/.
BUILD_KEYED_SUITES = ("icount", "callcount")


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
class BlindSpot:
    """Counts that moved with a changed environment field while the commits changed too: the
    gate does not fail them, and cannot tell whether the code moved them as well."""
    suite: str
    fields: str         # the changed fields they are attributed to (attribution.describe)
    benchmarks: int     # how many moved
    commits: str        # the commit range that changed with them


# The gate's exit codes (docs/ci.md lists them; tools/track gate --help prints them).
EXIT_CODES = {
    0: "PASS or WARN: no regression attributed to the code (WARN: the environment moved "
       "counts, or something is worth a look; the warnings say what)",
    1: "FAIL: a regression attributed to the commits, or a count file that lacks benchmarks "
       "its committed baseline has",
    2: "bad input: a result file unreadable, truncated or refused (NaN, a key written twice), "
       "no result file, bad usage, or a store that cannot be opened or reached",
    3: "EMPTY: nothing to compare with (an empty store, a CI cache miss, no history of this "
       "machine or build, no committed baseline); --allow-empty makes it exit 0",
}


@dataclass
class Result:
    machine: str
    head_commit: str
    base_commit: str
    rows: list = field(default_factory=list)     # [Row] worth reporting
    notes: list = field(default_factory=list)    # [(level, text)]: notice, warning, error
    compared: dict = field(default_factory=dict)  # {suite/metric: benchmarks compared}
    blind: list = field(default_factory=list)    # [BlindSpot]
    informed: int = 0     # timings compared with their history as information only
    allow_empty: bool = False  # nothing to compare with passes (--allow-empty)

    @property
    def empty(self):
        return not self.compared and not self.informed

    @property
    def verdict(self):
        if any(r.gating and r.status == "regression" for r in self.rows) or \
                any(level == "error" for level, _t in self.notes):
            return "FAIL"
        if self.empty:
            return "EMPTY"
        if any(r.status == "regression" for r in self.rows) or \
                any(level == "warning" for level, _t in self.notes):
            return "WARN"
        return "PASS"

    @property
    def exit_code(self):
        return {"FAIL": 1, "EMPTY": 0 if self.allow_empty else 3}.get(self.verdict, 0)


def _same_commit(a, b):
    return bool(a and b) and (a.startswith(b) or b.startswith(a))


@dataclass
class Reference:
    """What a run's exact metrics are compared with: a recorded run or a committed baseline."""
    what: str           # for the reader: "run 12 of <date>", "results/icount/<key>/baseline.json"
    commit: str
    machine: str
    build_key: str
    context: dict
    env: dict
    reps: dict          # {(benchmark, metric): [values]}
    same_build: bool
    baseline: object = None   # baselines.Baseline when it is one (its thresholds and "removed")


def _stored(store, row, same_build):
    context, env = store.run_details(row.id)
    return Reference(f"run {row.id} of {row.date[:10]}", row.commit, row.machine, row.build_key,
                     context, env, store.repetitions(row.id), same_build)


def _committed(base, same_build):
    r = base.run
    return Reference(paths.rel(base.path), r.commit, r.machine, r.build_key, r.context,
                     {"build": r.build}, r.samples, same_build, base)


def _newest(rows, base_commit):
    """The newest of rows, of the base commit when it has one."""
    at_base = [r for r in rows if _same_commit(r.commit, base_commit)] if base_commit else []
    return (at_base or rows)[-1] if rows else None


def reference(store, run, base_commit, results_dir=None):
    """The Reference for a run's exact metrics, None when there is nothing to compare with. Of
    the same build: its run of the base commit, else its committed baseline (instruction
    counts), else its newest run; instruction counts are the build's, so any machine's. Else,
    a new build: the previous build of the same machine (at the base commit when it has one),
    for instruction counts else the committed baseline of the nearest build, else any
    machine's newest counts."""
    icount = run.suite in BUILD_KEYED_SUITES  # and tools/callcount's counts, likewise
    others = [r for r in store.runs(None if icount else run.machine, run.suite)
              if r.source != run.source]
    same = [r for r in others if r.build_key == run.build_key]
    at_base = [r for r in same if _same_commit(r.commit, base_commit)] if base_commit else []
    if at_base:
        return _stored(store, at_base[-1], True)
    committed = baselines.for_build(results_dir, run.build_key, run.suite) \
        if icount and results_dir else None
    if committed:
        return _committed(committed, True)
    if same:
        return _stored(store, same[-1], True)
    previous = _newest([r for r in others if r.machine == run.machine], base_commit)
    if previous:
        return _stored(store, previous, False)
    nearest = baselines.nearest(results_dir, run.build, run.suite) if icount and results_dir \
        else None
    if nearest:
        return _committed(nearest, False)
    return _stored(store, others[-1], False) if others else None


def _floors(store, machine, suite, metrics):
    """{(benchmark, metric): noise floor} from the stored history, in run order."""
    out = {}
    runs = [r.id for r in store.runs(machine, suite)]
    medians = store.medians(machine, suite, metrics)
    for sid, _m, _s, bench, met in store.series(machine, suite, metrics):
        vals = medians.get(sid, {})
        out[(bench, met)] = stats.noise_floor([vals[r] for r in runs if r in vals])
    return out


def _missing(ref, run, metrics, result):
    """A committed baseline's benchmarks the run lacks fail the gate, unless the baseline names
    them removed on purpose (tools/compare's rule)."""
    if not ref.baseline:
        return
    missing = sorted(b for b, m in ref.reps if m in metrics and (b, m) not in run.samples
                     and b not in ref.baseline.removed and not absent_is_zero(m))
    if missing:
        result.notes.append(("error", f"{run.source} lacks {len(missing)} benchmarks the baseline "
                                      f"{ref.what} has (e.g. {missing[0]}); a baseline names "
                                      'benchmarks removed on purpose in its "removed" object'))


def _threshold(ref, floors, bench, met):
    if metric(met).any_change:
        return band(met, 0.0)
    if ref.baseline:
        return ref.baseline.threshold(bench)
    return max(history.MIN_MOVE, floors.get((bench, met), 0.0))


def _exact_pairs(run, base, names):
    """[((benchmark, metric), base value, head value)] the gate compares: series of the gated
    exact metrics in both runs (medians of their repetitions), and, for counts of one kind among
    many (syscalls:<name>), a series in one run only against 0 in the other."""
    out = []
    for (bench, met), reps in run.samples.items():
        if met not in names or not gated(met, bench):
            continue
        if (bench, met) in base:
            out.append(((bench, met), stats.median(base[(bench, met)]), stats.median(reps)))
        elif absent_is_zero(met):
            out.append(((bench, met), 0.0, stats.median(reps)))
    benches = {b for b, _m in run.samples}
    for (bench, met), reps in base.items():
        if (bench, met) not in run.samples and bench in benches and absent_is_zero(met):
            out.append(((bench, met), stats.median(reps), 0.0))
    return out


def gate_exact(store, run, env, base_commit, result, results_dir=None):
    metrics = sorted({m for _b, m in run.samples if metric(m).exact and metric(m).analyzed})
    if not metrics:
        return
    ref = reference(store, run, base_commit, results_dir)
    if ref is None:
        result.notes.append(("warning", f"{run.suite}: nothing to compare with: no history of "
                                        f"machine {run.machine} or of build {run.build_key} in "
                                        "the store" + (", and no committed baseline"
                                                       if run.suite in BUILD_KEYED_SUITES
                                                       else "") +
                                        " (record main's runs to arm the gate)"))
        return
    changes = attribution.diff(
        attribution.fields(ref.env.get("build", {}), ref.env, False, ref.build_key),
        attribution.fields(run.build, env, False, run.build_key))
    if not ref.same_build:
        result.notes.append(("warning", f"{run.suite}: new build {run.build_key} (no history of "
                                        f"it): compared with the previous build {ref.build_key} "
                                        f"({ref.what}, commit {ref.commit}); changed: "
                                        f"{attribution.describe(changes) or 'nothing recorded'}"))
    else:
        result.notes.append(("notice", f"{run.suite}: compared with {ref.what} (build "
                                       f"{ref.build_key}, commit {ref.commit})"))
    result.base_commit = result.base_commit or ref.commit
    _missing(ref, run, metrics, result)
    floors = {} if ref.baseline else _floors(store, ref.machine, run.suite, metrics)
    moves, rows = {}, {}
    for (bench, met), b, h in _exact_pairs(run, ref.reps, metrics):
        result.compared[f"{run.suite}/{met}"] = result.compared.get(f"{run.suite}/{met}", 0) + 1
        move = (h / b - 1) if b else (0.0 if h == b else 1.0)
        threshold = _threshold(ref, floors, bench, met)
        if not counts(met, move, threshold):
            continue
        rows[(bench, met)] = Row(run.suite, bench, met, b, h, move, move, move, threshold,
                                 "regression" if worse(met, move) else "improvement")
        moves[(bench, met)] = move
    _attribute(run, ref, env, changes, moves, rows, result)
    result.rows += rows.values()


def _attribute(run, ref, env, changes, moves, rows, result):
    """Each move to the changed fields it depends on (the environment: not gating) or to the
    commits (gating); environment moves over changed commits are the gate's blind spot."""
    same_commit = _same_commit(ref.commit, run.commit)
    commits = f"the same commit {run.commit} (a repeat)" if same_commit else \
        f"commits {ref.commit}..{run.commit}"
    for cause in attribution.attribute({b: m for (b, _x), m in moves.items()}, changes,
                                       {**ref.context, **run.context},
                                       env.get("package_sources", {})):
        text = attribution.describe(cause.fields) if cause.fields else commits
        for bench, _m in cause.benchmarks:
            for key in [k for k in rows if k[0] == bench]:
                rows[key].cause = text
                rows[key].gating = not cause.fields
        if cause.fields and not same_commit:
            spot = next((b for b in result.blind if (b.suite, b.fields) == (run.suite, text)),
                        None)
            if spot is None:
                spot = BlindSpot(run.suite, text, 0, f"{ref.commit}..{run.commit}")
                result.blind.append(spot)
            spot.benchmarks += len(cause.benchmarks)


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
    outside = judged = 0
    for x in series:
        if x.benchmark not in head or len(x.values) < 3:
            continue
        judged += 1
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
    return outside, judged


def run_gate(store, head_runs, env, base_runs=None, base_commit=None, results_dir=None,
             allow_empty=False):
    """Result of judging head_runs (importers.Run of one run) against the store and the
    committed baselines in results_dir (None: the store alone)."""
    if not head_runs:
        raise TrackError("gate: no result files given")
    machine = head_runs[0].machine
    result = Result(machine, head_runs[0].commit, base_commit, allow_empty=allow_empty)
    for run in head_runs:
        gate_exact(store, run, env, base_commit, result, results_dir)
    why_not = interleaved(base_runs or [], head_runs)
    if why_not is None:
        gate_timings(base_runs, head_runs, result)
    else:
        timed = [run for run in head_runs if any(m == "real_time" for _b, m in run.samples)]
        outside = total = 0
        for run in timed:
            o, t = timing_information(store, run, result)
            outside, total = outside + o, total + t
        result.informed = total
        if timed:
            result.notes.append(("notice", f"timings are information only ({why_not}): " + (
                f"{outside} of {total} outside their recent band" if total else
                "no history of them to compare with")))
    return result
