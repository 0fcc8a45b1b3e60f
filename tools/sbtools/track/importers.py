"""Result files -> runs: Google Benchmark JSON, tools/icount files and the matrices
(soapbench conformance [--suite], soapbench interop, tools/server_load, tools/load_bench,
tools/wild), read
as docs/results.md describes them, each into one Run with every repetition of every benchmark
and metric.

The formats are read by the result tools' own modules (sbtools.gbench: the file, its context,
its repetitions and their units; sbtools.buildkey: the build and its key; sbtools.store: which
files a results/ folder holds and the matrices' kinds); this module turns them into runs.
"""
import datetime as dt
from dataclasses import dataclass, field

from sbtools import buildkey, gbench, store
from sbtools.gbench import ResultError, series_name
from sbtools.report import conformance_suites

from . import TrackError
from .store import DATE_FORMAT

KNOWN = ("Google Benchmark JSON, a tools/icount file or a matrix (" +
         ", ".join(store.MACHINE_FILES) + ")")


@dataclass
class Run:
    source: str                 # the file, as given
    digest: str                 # SHA-256 of its bytes: the same file recorded twice is a duplicate
    machine: str                # the machine the series belong to: the hardware (CPU model,
                                # cores, caches: gbench.hardware_id), not the build
    suite: str                  # parse_bench, roundtrip_bench, stacks_bench[_set], icount, ...
    commit: str                 # git_sha of the measured build ("" until filled in)
    date: str                   # when it ran, UTC, YYYY-MM-DDTHH:MM:SSZ ("" until filled in)
    context: dict               # the file's context, as written
    build: dict                 # what decides the numbers besides the commit (attribution.py)
    build_key: str = ""         # tools/icount's key (icount files) or the tracker's (others)
    samples: dict = field(default_factory=dict)  # {(benchmark, metric): [value per repetition]}
    machine_id: str = ""        # the file's own machine_id (results/<machine-id>/: with the
                                # compiler), by which a matrix finds its machine


def _machine(ctx, machine_id):
    """The machine of a file: its hardware, else (a matrix) its machine_id until its siblings
    or the store say which hardware that id is (resolve_machines)."""
    return gbench.hardware_id(ctx) or machine_id


def utc(raw):
    """A context date (ISO 8601, with or without zone; naive = local) as YYYY-MM-DDTHH:MM:SSZ."""
    when = gbench.parse_date(raw)
    return when.astimezone(dt.timezone.utc).strftime(DATE_FORMAT) if when else ""


# --- Google Benchmark and tools/icount --------------------------------------------------------

def _gb_samples(doc):
    """{(series, metric): [value per repetition]}: real and CPU time in ns and every counter,
    failed and skipped repetitions left out; a file written with
    --benchmark_report_aggregates_only gives its median aggregate as the one value."""
    reps, aggregates = {}, {}
    for run_name, r in gbench.results_of(doc).items():
        name = series_name(run_name)
        for real, cpu, counters in zip(r.times, r.cpu_times, r.rep_counters):
            for metric, v in (("real_time", real), ("cpu_time", cpu), *counters.items()):
                reps.setdefault((name, metric), []).append(v)
        if not r.times and "median" in r.agg:
            real, counters, cpu = r.agg["median"]
            aggregates[name] = {"real_time": real, "cpu_time": cpu, **counters}
    names = {b for b, _m in reps}
    for name, values in aggregates.items():
        if name not in names:
            for metric, v in values.items():
                reps[(name, metric)] = [v]
    return reps


def read_gb(doc, path, digest):
    ctx = gbench.context(doc)
    build = buildkey.context_build(ctx)
    key = buildkey.icount_build_key(build)
    meta = doc.get("callcount")  # tools/callcount: the build its counts depend on, and its key
    if isinstance(meta, dict) and isinstance(meta.get("build"), dict):
        build = dict(meta["build"], determinism_shim=bool(meta.get("determinism_shim", False)))
        key = str(meta.get("build_key") or buildkey.icount_build_key(meta["build"]))
    mid = str(ctx.get("machine_id", ""))
    return Run(path, digest, _machine(ctx, mid), gbench.bench_kind(doc, path),
               str(ctx.get("git_sha", "")), utc(ctx.get("date", "")), ctx, build, key,
               _gb_samples(doc), mid)


def read_icount(doc, path, digest):
    ctx = gbench.context(doc)
    meta = doc["icount"]
    build = dict(meta.get("build") or buildkey.context_build(ctx))
    # How the counts were made changes them as much as the build (the shim alone moved libxml2's
    # counts by a third); the key stays tools/icount's, so the fields can tell.
    build["determinism_shim"] = bool(meta.get("determinism_shim", False))
    samples = {}
    for name, v in doc["instructions"].items():
        if not gbench.is_number(v):
            raise TrackError(f"{path}: instructions of {name} is not a number")
        samples[(series_name(name), "instructions")] = [float(v)]
    # tools/icount's cache simulation (on by default): instructions and misses as cycles.
    for name, v in (doc.get("estimated_cycles") or {}).items():
        if not gbench.is_number(v):
            raise TrackError(f"{path}: estimated_cycles of {name} is not a number")
        samples[(series_name(name), "estimated_cycles")] = [float(v)]
    mid = str(ctx.get("machine_id", ""))
    return Run(path, digest, _machine(ctx, mid), "icount",
               str(ctx.get("git_sha", "")), utc(ctx.get("date", "")), ctx, build,
               str(meta.get("build_key") or buildkey.icount_build_key(build)), samples, mid)


# --- the matrices -----------------------------------------------------------------------------

def _matrix_run(doc, path, digest, samples):
    ctx = gbench.context(doc)
    # A matrix without a date of its own (soapbench conformance writes none) takes the one its
    # stored name carries, so a machine folder holding only matrices still imports.
    when, sha = store.file_origin(path, doc)
    date = when.astimezone(dt.timezone.utc).strftime(DATE_FORMAT) if when else ""
    mid = str(store.machine_doc_id(doc) or "")
    return Run(path, digest, _machine(ctx, mid), store.MACHINE_KINDS[doc["tool"]],
               sha or "", date, ctx, {}, "", samples, mid)


def read_conformance(doc, path, digest):
    samples = {}
    for r in doc.get("records", []):
        name = f"{r['mode']}/{r['adapter']}/{r['file']}"
        samples[(name, "accepted")] = [1.0 if r.get("accepted") else 0.0]
        if gbench.is_number(r.get("peak_bytes")):
            samples[(name, "peak_heap_bytes")] = [float(r["peak_bytes"])]
    return _matrix_run(doc, path, digest, samples)


def read_interop(doc, path, digest):
    samples = {}
    for c in doc.get("cells", []):
        if c.get("status") == "off":  # a pairing that was not run
            continue
        name = f"{c['client']}->{c['server']}/{c['family']}/{c['operation']}"
        samples[(name, "passed")] = [1.0 if c.get("status") in ("ok", "fault-ok") else 0.0]
    return _matrix_run(doc, path, digest, samples)


def read_server_load(doc, path, digest):
    samples = {}
    for c in doc.get("cells", []):
        name = f"{c['server_id']}/{c['parser']}/{c['family']}/{c['call']}/c{c['connections']}"
        for run in c.get("runs", []):
            for metric in ("rps", "cpu_us_per_call", "p50_us", "p99_us"):
                if gbench.is_number(run.get(metric)):
                    samples.setdefault((name, metric), []).append(float(run[metric]))
    return _matrix_run(doc, path, digest, samples)


def read_load_bench(doc, path, digest):
    samples = {}
    for r in doc.get("runs", []):
        for p in r.get("points", []):
            rate = f"/r{p['rate']:g}" if gbench.is_number(p.get("rate")) else ""
            name = (f"{r['server_id']}/{r['parser']}/{r['family']}/{r['call']}/{p['mode']}"
                    f"/c{p['connections']}{rate}")
            metrics = {"tps": p.get("tps"), "p50_us": p.get("p50_us"), "p99_us": p.get("p99_us"),
                       "cpu_us_per_call": p.get("server_cpu_us_per_call")}
            for metric, v in metrics.items():
                if gbench.is_number(v):
                    samples.setdefault((name, metric), []).append(float(v))
    return _matrix_run(doc, path, digest, samples)


def read_conformance_suites(doc, path, digest):
    """Per suite, adapter and configuration (policy, library): the share of valid documents
    accepted and of not-well-formed ones rejected (the report's rows), crashes and hangs."""
    samples = {}
    for suite in doc["suites"]:
        for row in conformance_suites.rows(suite):
            for config, c in row["configs"].items():
                name = f"{suite['suite']}/{config}/{row['adapter']}"
                for metric, v in (("valid_accepted_pct", c["valid"]),
                                  ("not_wf_rejected_pct", c["not_wf"]),
                                  ("crashes", c["crashes"]), ("hangs", c["hangs"])):
                    if gbench.is_number(v):
                        samples[(name, metric)] = [float(v)]
    return _matrix_run(doc, path, digest, samples)


def read_wild(doc, path, digest):
    """tools/wild: per pass, adapter and message, 1 when its answer was right (the manifest's,
    or a refusal where it refuses), else 0: a moved outcome is a change point."""
    samples = {}
    for v in doc["verdicts"]:
        name = f"{'with-wsdl' if v.get('with_wsdl') else 'plain'}/{v['adapter']}/{v['path']}"
        samples[(name, "right")] = [1.0 if v["verdict"] == "right" else 0.0]
    return _matrix_run(doc, path, digest, samples)


_MATRICES = {  # by the "tool" a matrix names: every kind sbtools.store keeps (a test checks)
    "soapbench conformance": read_conformance,
    "soapbench conformance --suite": read_conformance_suites,
    "soapbench interop": read_interop,
    "tools/server_load": read_server_load,
    "tools/load_bench": read_load_bench,
    "tools/wild": read_wild,
}


def read(path, machine=None):
    """The Run in a result file; TrackError naming the file and the reason otherwise."""
    try:
        doc, digest = gbench.read_json(path)
    except ResultError as e:
        raise TrackError(str(e)) from e
    if not isinstance(doc, dict):
        raise TrackError(f"{path}: not a result file: a JSON {type(doc).__name__}, not {KNOWN}")
    try:
        if isinstance(doc.get("benchmarks"), list):
            run = read_gb(doc, path, digest)
        elif isinstance(doc.get("instructions"), dict) and isinstance(doc.get("icount"), dict):
            run = read_icount(doc, path, digest)
        elif doc.get("tool") in _MATRICES:
            run = _MATRICES[doc["tool"]](doc, path, digest)
        else:
            raise TrackError(f"{path}: not a result file this tool knows: expected {KNOWN}")
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise TrackError(f"{path}: malformed {doc.get('tool') or 'result file'}: "
                         f"{type(e).__name__} {e}") from e
    if machine:
        run.machine, run.machine_id = machine, run.machine_id or machine
    if not run.machine_id:
        raise TrackError(f"{path}: unknown machine: the file has no machine_id (pass --machine ID)")
    if not run.samples:
        raise TrackError(f"{path}: no results in it (every benchmark failed or none ran)")
    return run


def resolve_machines(runs, machine_of=None):
    """A file that names only its machine_id (the matrices) joins the machine its siblings of
    that id measured on (their hardware), else the one machine_of(machine_id) knows from the
    store (None: unknown, it keeps the id)."""
    known = {r.machine_id: r.machine for r in runs if r.machine != r.machine_id}
    for r in runs:
        if r.machine == r.machine_id:
            r.machine = known.get(r.machine_id) or (machine_of and machine_of(r.machine_id)) or \
                r.machine
    return runs


def fill_from_siblings(runs, fallback_commit="", fallback_date=""):
    """Files of one run that do not say their commit or date (the matrices) take them from the
    others: the commit of the benchmark file nearest before them, the newest date of that
    commit's files; else the fallbacks."""
    dated = sorted((r for r in runs if r.date and r.commit), key=lambda r: r.date)
    for r in runs:
        if not r.commit:
            before = [d for d in dated if d.machine_id == r.machine_id and
                      (not r.date or d.date <= r.date)]
            r.commit = before[-1].commit if before else fallback_commit
        if not r.date:
            same = [d.date for d in dated if d.machine_id == r.machine_id and d.commit == r.commit]
            r.date = max(same) if same else fallback_date
    return runs


def stored_files(results_dir):
    """The result files of a results/ folder (sbtools.store's layout), oldest first by path;
    baselines are copies of stored runs and are left out."""
    return sorted(store.stored_files(results_dir))
