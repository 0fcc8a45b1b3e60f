"""The tracker measured on itself (tools/track_study): false alarms, power and cost, on this
machine's real noise. Every figure docs/ci.md states comes from one of these commands.

  aa-record     run one parse_bench binary N times (a copy, so a rebuild cannot change it
                mid-study) and keep every Google Benchmark JSON: real A/A runs
  false-alarms  A/A series: change points in windows of 50 runs; A/A gate runs (interleaved
                timings; timings as information); the committed history replayed through
                the gate run by run
  power         slowdowns planted into the recorded A/A series: found within 5 runs?
                and into interleaved A/A gate runs
  icount-power  a 0.5% slower adapter planted into parse_bench (sbtools/plant.py's
                relinking), counted by tools/icount, judged by the gate on the commit itself
  cost          recording a default run; change-point detection over 200 runs x 5,000 series
  ab-record     real A/A rounds of `tools/track ab`'s default set, duet and interleaved
                (ab_study.py)
  ab-power      the A/B's power and false alarms, resampled from them, beside the current gate's
  ab-trials     full `tools/track ab` runs with a planted slowdown (or none), 10 minutes each
"""
import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from sbtools import plant
from sbtools.gbench import load_json
from sbtools.paths import REPO

from . import ab_study, changepoints, gate, history, importers, stats, store

# A slice of the default set that runs in about 10 s of CPU: decode of three seed calls in an
# XML and the JSON family by every adapter (once each, the set's long tail) and the 64 KB parse
# (the set's headline: --core-repetitions, 5 repetitions).
AA_FILTER = (r"^(decode/[^/]+/(soap11-rpc-encoded|jsonrpc)/(getRate\.call|add\.call|complex\.call)"
             r"|parse/[^/]+/soap11-rpc-encoded/respond\.64KB\.response)")
WINDOW = 50        # runs in an A/A series (the figure)
AFTER = 5          # runs after a planted change by which it must be found
SHIFTS = (0.05, 0.10, 0.20, 0.30, 0.50, 1.00, 2.00, 3.00)
TIMINGS = ("real_time", "cpu_time")


def log(msg):
    print(f"track_study: {msg}", file=sys.stderr, flush=True)


def cpu_seconds():
    """CPU time of this process and its finished children (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def load_average():
    return [round(x, 2) for x in os.getloadavg()]


# --- A/A runs -----------------------------------------------------------------------------

def aa_record(bench, corpus, out_dir, runs, bench_filter=AA_FILTER):
    """Runs a copy of `bench` `runs` times as `ctest -L bench` runs parse_bench (random
    interleaving, the default set's minimum times); writes out_dir/aa-NNN.json."""
    os.makedirs(out_dir, exist_ok=True)
    exe = os.path.join(out_dir, "parse_bench")
    if not os.path.exists(exe):
        shutil.copy2(bench, exe)
    started = time.time()
    for i in range(runs):
        out = os.path.join(out_dir, f"aa-{i:03d}.json")
        if os.path.exists(out):
            continue
        cmd = [exe, "--set=default", "--benchmark_min_time=0.02", "--tail-min-time=0.01",
               "--benchmark_enable_random_interleaving=true", f"--corpus={corpus}",
               f"--benchmark_filter={bench_filter}", f"--benchmark_out={out}.part",
               "--benchmark_out_format=json"]
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=1800, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"{exe} exited {proc.returncode}: {proc.stderr[-2000:]}")
        os.replace(out + ".part", out)
        log(f"aa-record: run {i + 1}/{runs} in {time.time() - started:.0f} s -> {out}")


def aa_runs(folder):
    """The A/A runs (importers.Run), oldest first."""
    files = sorted(f for f in os.listdir(folder) if f.startswith("aa-") and f.endswith(".json"))
    runs = [importers.read(os.path.join(folder, f)) for f in files]
    return sorted(runs, key=lambda r: r.date)


def aa_matrix(runs, metric_name="real_time"):
    """(benchmarks, runs x benchmarks array of per-run medians)."""
    names = sorted(b for b, m in runs[0].samples if m == metric_name)
    return names, np.array([[stats.median(r.samples[(b, metric_name)]) for b in names]
                            for r in runs])


def ratios(values):
    """Per-run medians divided by their run's common factor (history.run_factors)."""
    refs = np.median(values, axis=0)
    factors = np.median(values / refs, axis=1)
    if values.shape[1] < history.MIN_FACTOR_SERIES:
        factors = np.ones(values.shape[0])
    return values / factors[:, None]


def changes_in(x, seed):
    """history.py's measured changes of one series (E-divisive, then the minimum move)."""
    points = [(c.index, c.p, c.q) for c in changepoints.e_divisive(x, seed=seed)]
    return history.measured_changes(list(x), points, True)


def windows(n_runs, size=WINDOW, step=30):
    """Windows of `size` runs every `step` runs (80 runs: [0, 50) and [30, 80)); at least one."""
    starts = list(range(0, n_runs - size + 1, step))
    return [(s, s + size) for s in starts] or [(0, n_runs)]


# --- false alarms -------------------------------------------------------------------------

def aa_change_points(values, names):
    """Change points found in A/A windows: {windows, series, series_with_change, changes}."""
    found, series = [], 0
    for start, end in windows(values.shape[0]):
        window = ratios(values[start:end])
        for j, name in enumerate(names):
            series += 1
            ch = changes_in(window[:, j], history.seed_of(name, str(start)))
            found += [{"benchmark": name, "window": [start, end], "index": c.index,
                       "shift": round(c.shift, 4), "p": c.p} for c in ch]
    return {"windows": len(windows(values.shape[0])), "series": series,
            "series_with_change": len({(f["benchmark"], tuple(f["window"])) for f in found}),
            "changes": found}


def interleaved_gate_runs(runs, trials, pairs=gate.MIN_REPS, seed=1, planted=None):
    """A/A gate runs from the recorded runs: `pairs` base/head pairs of runs in time order
    (ABAB), drawn at random `trials` times; planted(name) scales the head's times. Returns
    [(benchmarks compared, [flagged rows])]."""
    rng = random.Random(seed)
    out = []
    for _ in range(trials):
        picked = sorted(rng.sample(range(len(runs)), 2 * pairs))
        base = [runs[i] for i in picked[0::2]]
        head = [runs[i] for i in picked[1::2]]
        if planted:
            head = [_scaled(r, planted) for r in head]
        result = gate.Result(runs[0].machine, "head", "base")
        gate.gate_timings(base, head, result)
        out.append((sum(result.compared.values()),
                    [r for r in result.rows if r.status == "regression"]))
    return out


def _scaled(run, planted):
    copy = importers.Run(run.source, run.digest, run.machine, run.suite, run.commit, run.date,
                         run.context, run.build, run.build_key, dict(run.samples), run.machine_id)
    for (bench, met), reps in run.samples.items():
        if met == "real_time":
            copy.samples[(bench, met)] = [v * planted(bench) for v in reps]
    return copy


def informational_flags(runs, store_path):
    """Each A/A run (after the first 10) judged without an interleaved base against the runs
    before it: the share of timings outside their band (information, never gating)."""
    flagged, compared = 0, 0
    with store.open_store(store_path) as db:
        for i, run in enumerate(runs):
            if i >= 10:
                result = gate.Result(run.machine, run.commit, None)
                o, t = gate.timing_information(db, run, result)
                flagged, compared = flagged + o, compared + t
            db.add_run(run, {"build": run.build, "git": {}})
    return {"runs_judged": max(0, len(runs) - 10), "timings_judged": compared,
            "outside_band": flagged, "share": round(flagged / compared, 4) if compared else None}


def history_replay(results_dir, store_path):
    """The committed results replayed: each run gated against the store of the runs before it
    (then recorded). Returns gate runs, exact comparisons, gating alarms, notes."""
    runs, _failed = [], 0
    for path in importers.stored_files(results_dir):
        try:
            runs.append(importers.read(path))
        except Exception:  # noqa: BLE001 - foreign files are the importer's business
            continue
    importers.resolve_machines(runs)
    importers.fill_from_siblings(runs)
    runs.sort(key=lambda r: (r.date, r.source))
    out = {"gate_runs": 0, "comparisons": 0, "alarms": [], "warnings": 0}
    with store.open_store(store_path) as db:
        for run in runs:
            env = {"build": run.build, "git": {}}
            if db.runs(run.machine, run.suite) or (run.suite == "icount" and db.runs(None, "icount")):
                result = gate.run_gate(db, [run], env)
                out["gate_runs"] += 1
                out["comparisons"] += sum(result.compared.values())
                out["warnings"] += sum(1 for level, _t in result.notes if level == "warning")
                out["alarms"] += [{"run": os.path.relpath(run.source, results_dir),
                                   "benchmark": r.benchmark, "metric": r.metric,
                                   "move": round(r.move, 4), "cause": r.cause}
                                  for r in result.rows if r.gating and r.status == "regression"]
            db.add_run(run, env)
    return out


def noise(values):
    """How noisy the A/A runs are: each run's common factor (min, max) and the median over
    benchmarks of the robust spread (IQR / 1.349) of one benchmark's runs, as measured and as
    ratios within their run."""
    refs = np.median(values, axis=0)
    factors = np.median(values / refs, axis=1)

    def spread(x):
        return float(np.median((np.percentile(x, 75, axis=0) - np.percentile(x, 25, axis=0))
                               / 1.349 / np.median(x, axis=0)))
    return {"run_factor_min": round(float(factors.min()), 2),
            "run_factor_max": round(float(factors.max()), 2),
            "spread_as_measured": round(spread(values), 3),
            "spread_as_ratios": round(spread(ratios(values)), 3)}


def false_alarms(aa_folder, results_dir, trials, work):
    runs = aa_runs(aa_folder)
    started, cpu0 = time.time(), cpu_seconds()
    report = {"aa_runs": len(runs), "load_average": load_average(), "aa_change_points": {},
              "noise": {m: noise(aa_matrix(runs, m)[1]) for m in TIMINGS}}
    log(f"noise: {report['noise']}")
    for met in TIMINGS:
        names, values = aa_matrix(runs, met)
        found = report["aa_change_points"][met] = aa_change_points(values, names)
        log(f"A/A change points ({met}): {found['series_with_change']} of {found['series']} "
            "series")
    gates = interleaved_gate_runs(runs, trials)
    report["interleaved_aa_gates"] = {
        "gate_runs": len(gates), "pairs": gate.MIN_REPS,
        "benchmarks_per_run": gates[0][0] if gates else 0,
        "runs_with_alarm": sum(1 for _n, rows in gates if rows),
        "alarms": sum(len(rows) for _n, rows in gates)}
    log(f"interleaved A/A gate runs: {report['interleaved_aa_gates']}")
    report["informational"] = informational_flags(runs, os.path.join(work, "info.sqlite"))
    log(f"informational timing flags: {report['informational']}")
    report["history_replay"] = history_replay(results_dir, os.path.join(work, "replay.sqlite"))
    log(f"history replay: {report['history_replay']['gate_runs']} gate runs, "
        f"{len(report['history_replay']['alarms'])} alarms")
    report["seconds"] = round(time.time() - started, 1)
    report["cpu_seconds"] = round(cpu_seconds() - cpu0, 1)
    return report


# --- power --------------------------------------------------------------------------------

def planted_detection(values, names, shift, after=AFTER):
    """Share of (benchmark, window) trials where a slowdown of `shift` in the last `after`
    runs of a WINDOW-run A/A window is found there (a regression within one run of it)."""
    hits = trials = 0
    for start, end in windows(values.shape[0]):
        for j, name in enumerate(names):
            window = values[start:end].copy()
            window[-after:, j] *= 1 + shift
            x = ratios(window)[:, j]
            change_at = end - start - after
            found = changes_in(x, history.seed_of(name, str(start), str(shift)))
            hits += any(abs(c.index - change_at) <= 1 and c.regression for c in found)
            trials += 1
    return hits, trials


def power(aa_folder, trials):
    runs = aa_runs(aa_folder)
    started, cpu0 = time.time(), cpu_seconds()
    report = {"aa_runs": len(runs), "window": WINDOW, "after": AFTER,
              "load_average": load_average(), "change_points": {}, "interleaved_gate": {}}
    for met in TIMINGS:
        names, values = aa_matrix(runs, met)
        table = report["change_points"][met] = {}
        for shift in SHIFTS:
            hits, n = planted_detection(values, names, shift)
            table[f"{shift:.2f}"] = {"found": hits, "trials": n, "share": round(hits / n, 3)}
            log(f"{met}: {shift:.0%} slower in the last {AFTER} of {WINDOW} runs: found "
                f"{hits}/{n}")
        at80 = [sh for sh in SHIFTS if table[f"{sh:.2f}"]["share"] >= 0.8]
        report[f"smallest_shift_found_80pct_{met}"] = at80[0] if at80 else None
    names = aa_matrix(runs)[0]
    rng = random.Random(5)
    for shift in SHIFTS:
        slowed = set(rng.sample(names, 10))
        gates = interleaved_gate_runs(runs, trials, planted=lambda b: 1 + shift if b in slowed
                                      else 1.0, seed=7)
        caught = sum(1 for _n, rows in gates for r in rows if r.benchmark in slowed)
        wrong = sum(1 for _n, rows in gates for r in rows if r.benchmark not in slowed)
        entry = report["interleaved_gate"][f"{shift:.2f}"] = {
            "slowed_per_run": len(slowed), "gate_runs": len(gates), "caught": caught,
            "of": len(slowed) * len(gates), "share": round(caught / (len(slowed) * len(gates)), 3),
            "others_flagged": wrong}
        log(f"interleaved gate, {shift:.0%} slower: {entry}")
    report["seconds"] = round(time.time() - started, 1)
    report["cpu_seconds"] = round(cpu_seconds() - cpu0, 1)
    return report


# --- the planted slower adapter (instruction counts) ----------------------------------------

def icount_power(build, work, stride):
    """parse_bench relinked with a pugixml parse that does about 0.5% more work (a stride loop,
    as gate_check.py plants 2%), counted by tools/icount, gated against the unchanged build."""
    injection = plant.INJECTION.replace("i += 64", f"i += {stride}")
    bench = os.path.join(build, "bench", "parse_bench")
    started, cpu0 = time.time(), cpu_seconds()
    base_path = os.path.join(work, "base.json")
    plant.counts(bench, base_path)
    variant_dir = tempfile.mkdtemp(dir=work)
    exe = plant.variant(build, variant_dir, plant.PUGIXML_DOM,
                        lambda text: plant.inject(text, injection))
    slow_path = os.path.join(work, "slow.json")
    plant.counts(exe, slow_path)
    doc = load_json(slow_path)
    doc["context"]["git_sha"] = "planted0slow"  # the commit that made it slower
    with open(slow_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    with store.open_store(os.path.join(work, "icount.sqlite")) as db:
        base = importers.read(base_path)
        db.add_run(base, {"build": base.build, "git": {}})
        head = importers.read(slow_path)
        result = gate.run_gate(db, [head], {"build": head.build})
    base_counts = load_json(base_path)["instructions"]
    moves = {k: v / base_counts[k] - 1 for k, v in doc["instructions"].items() if k in base_counts}
    # The planted loop is in PugixmlDom::parse, which both pugixml adapters (dom, dom-inplace)
    # run: their parse rows are the planted ones (gate_check.py's pugixml pattern).
    planted = re.compile(r"^parse/pugixml-dom(-inplace)?/")
    pugi = {k: m for k, m in moves.items() if planted.match(k)}
    others = {k: m for k, m in moves.items() if not planted.match(k)}
    flagged = [r.benchmark for r in result.rows if r.status == "regression" and r.gating]
    return {"stride": stride, "benchmarks": len(moves),
            "planted_moves": {k: round(m, 5) for k, m in sorted(pugi.items())},
            "largest_other_move": round(max(abs(m) for m in others.values()), 5),
            "verdict": result.verdict, "flagged": sorted(flagged),
            "all_planted_flagged": set(pugi) <= set(flagged),
            "only_planted_flagged": set(flagged) <= set(pugi),
            "seconds": round(time.time() - started, 1),
            "cpu_seconds": round(cpu_seconds() - cpu0, 1), "load_average": load_average()}


# --- cost -----------------------------------------------------------------------------------

def as_if_measured_here(files, work):
    """Copies of result files whose context says they ran here, just now (host, clock, date),
    so recording them probes this machine's fingerprint and packages as it does after a run."""
    from . import fingerprint
    here = fingerprint.machine()
    now = store.now_utc().replace("Z", "+00:00")
    out = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        ctx = doc.get("context")
        if isinstance(ctx, dict) and ctx.get("date"):
            ctx.update(date=now, host_name=fingerprint.hostname())
            if "cpu_model" in ctx and here.get("cpu_model"):
                ctx["cpu_model"] = here["cpu_model"]  # the VM may move to other hardware
            if "mhz_per_cpu" in ctx:
                ctx["mhz_per_cpu"] = here.get("mhz", ctx["mhz_per_cpu"])
        copy = os.path.join(work, os.path.basename(path))
        with open(copy, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        out.append(copy)
    return out


def record_cost(files, work):
    """tools/track record of one default run's files into a new store, as right after the run
    (probing included): wall and CPU seconds."""
    db = os.path.join(work, "cost.sqlite")
    copies = as_if_measured_here(files, work)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    proc = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "tools", "track"), "--db", db,
                           "record", *copies], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    wall = time.time() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with store.open_store(db) as s:
        rows, probed = s.count("samples"), s.run_details(s.runs()[0].id)[1].get("packages")
    return {"files": [os.path.relpath(f, REPO) for f in files], "exit": proc.returncode,
            "series_rows": rows, "probed_packages": len(probed or {}),
            "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
            "load_average": load_average()}


def synthetic_series(aa_folder, n_series, n_runs, changed_share, seed=3):
    """n_series series of n_runs values resampled from the real A/A ratios (each series from
    one real benchmark's values, drawn with replacement), a share of them with a 20% step."""
    runs = aa_runs(aa_folder)
    names, values = aa_matrix(runs)
    real = ratios(values)
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n_series):
        x = rng.choice(real[:, i % len(names)], size=n_runs, replace=True)
        if rng.random() < changed_share:
            x[rng.integers(n_runs // 4, n_runs - changepoints.MIN_SIZE):] *= 1.2
        out.append((list(x), i))
    return out


def detection_cost(aa_folder, n_series, n_runs, changed_share, jobs):
    tasks = synthetic_series(aa_folder, n_series, n_runs, changed_share)
    started, cpu0 = time.time(), cpu_seconds()
    found = history.detect_many(tasks, jobs)
    return {"series": n_series, "runs": n_runs, "stepped_share": changed_share, "jobs": jobs,
            "series_with_change_point": sum(1 for f in found if f),
            "wall_seconds": round(time.time() - started, 1),
            "cpu_seconds": round(cpu_seconds() - cpu0, 1), "load_average": load_average()}


def default_run_files():
    """The committed default run of results/bab0702471ef/ at 6790742 (parse_bench,
    roundtrip_bench, stacks_bench, its instruction counts and the four matrices)."""
    folder = os.path.join(REPO, "results", "bab0702471ef")
    names = ["20261202-174809_6790742da1f5.parse_bench.json",
             "20261202-175209_6790742da1f5.roundtrip_bench.json",
             "20261202-175532_6790742da1f5.stacks_bench.json", "conformance.json",
             "interop.json", "server_load.json", "load_bench.json"]
    return [os.path.join(folder, n) for n in names] + [os.path.join(
        REPO, "results", "icount", "18c92917448a", "20261202-175341_6790742da1f5.json")]


def cost(aa_folder, work, jobs):
    report = {"record_default_run": record_cost(default_run_files(), work)}
    log(f"record: {report['record_default_run']}")
    for j in sorted({1, jobs}):
        report[f"detection_jobs{j}"] = detection_cost(aa_folder, 5000, 200, 0.05, j)
        log(f"detection: {report[f'detection_jobs{j}']}")
    return report


def ab_study_parsers(sub):
    """The timing A/B's studies (ab_study.py): folder --ab (default build/track-ab)."""
    for name, helptext in (("ab-record", "record A/A rounds of tools/track ab's default set"),
                           ("ab-power", "A/B power and false alarms, resampled; current gate"),
                           ("ab-trials", "full tools/track ab runs with a planted slowdown")):
        p = sub.add_parser(name, help=helptext, description=ab_study.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument("--ab", default=os.path.join(REPO, "build", "track-ab"),
                       help="folder of the recorded rounds and trials (default build/track-ab)")
        if name != "ab-power":
            p.add_argument("--build", default=os.path.join(REPO, "build"))
        if name == "ab-record":
            p.add_argument("--rounds", type=int, default=200, help="rounds of each mode")
            p.add_argument("--min-time", type=float, default=0.002)
        elif name == "ab-power":
            p.add_argument("--trials", type=int, default=200, help="resampled A/Bs per shift")
            p.add_argument("--gate-trials", type=int, default=200, help="9 + 9 draws per shift")
        else:
            p.add_argument("--shifts", default="0,0.02,0.05", help="planted shifts (0: A/A)")
            p.add_argument("--trials", type=int, default=2, help="trials per shift")
            p.add_argument("--mode", choices=ab_study.MODES, default="interleaved")


def ab_study_main(args):
    if args.what == "ab-record":
        ab_study.ab_record(args.build, args.ab, args.rounds, args.min_time)
        report = ab_study.noise(ab_study.load_rounds(args.ab))
    elif args.what == "ab-power":
        report = ab_study.ab_power(args.ab, args.trials, args.gate_trials)
    else:
        shifts = [float(x) for x in args.shifts.split(",")]
        report = ab_study.ab_trials(args.build, args.ab, shifts, args.trials, args.mode)
    report["load_average_now"] = load_average()
    text = json.dumps(report, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/track_study", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aa", default=os.path.join(REPO, "build", "track-aa"),
                    help="folder of the A/A runs (default build/track-aa)")
    ap.add_argument("--out", help="write the figures here as JSON (default: stdout)")
    sub = ap.add_subparsers(dest="what", required=True, metavar="STUDY")
    p = sub.add_parser("aa-record", help="record A/A runs of parse_bench")
    p.add_argument("--runs", type=int, default=80)
    p.add_argument("--bench", default=os.path.join(REPO, "build", "bench", "parse_bench"))
    p.add_argument("--corpus", default=os.path.join(REPO, "corpus"))
    p = sub.add_parser("false-alarms", help="A/A change points and gate runs, history replay")
    p.add_argument("--trials", type=int, default=200, help="interleaved A/A gate runs")
    p.add_argument("--results-dir", default=os.path.join(REPO, "results"))
    p = sub.add_parser("power", help="planted slowdowns in the A/A series and gate runs")
    p.add_argument("--trials", type=int, default=50, help="interleaved gate runs per shift")
    p = sub.add_parser("icount-power", help="a planted 0.5%% slower pugixml under callgrind")
    p.add_argument("--build", default=os.path.join(REPO, "build"))
    p.add_argument("--stride", type=int, default=224,
                   help="bytes between the planted loop's steps (sbtools/plant.py's 64 make 2%%)")
    p = sub.add_parser("cost", help="recording a default run, detection over 200 x 5,000")
    p.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    ab_study_parsers(sub)
    args = ap.parse_args(argv)
    if args.what.startswith("ab-"):
        return ab_study_main(args)
    work = tempfile.mkdtemp(prefix="sb-track-study-")
    try:
        if args.what == "aa-record":
            aa_record(args.bench, args.corpus, args.aa, args.runs)
            return 0
        if args.what == "false-alarms":
            report = false_alarms(args.aa, args.results_dir, args.trials, work)
        elif args.what == "power":
            report = power(args.aa, args.trials)
        elif args.what == "icount-power":
            report = icount_power(args.build, work, args.stride)
        else:
            report = cost(args.aa, work, args.jobs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(report, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    return 0
