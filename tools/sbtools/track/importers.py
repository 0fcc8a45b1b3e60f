"""Result files -> runs: Google Benchmark JSON, tools/icount files and the matrices
(soapbench conformance/interop, tools/server_load, tools/load_bench), read as docs/results.md
describes them, each into one Run with every repetition of every benchmark and metric.

Small readers of their own (standard library only), so the tracker does not depend on the
other tools' modules; the formats are docs/results.md's.
"""
import datetime as dt
import glob
import hashlib
import json
import os
import re
from dataclasses import dataclass, field

from . import TrackError

# Google Benchmark's fields that are not counters, and its time units.
_GB_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
    "time_unit", "aggregate_name", "aggregate_unit", "error_occurred", "error_message",
    "label", "skipped", "skip_message",
}
_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# How a benchmark was run, not what it measures: one series whatever these were.
_RUN_SUFFIX = re.compile(r"/(?:iterations|repeats|min_time|min_warmup_time):[^/]+")
KNOWN = ("Google Benchmark JSON, a tools/icount file or a matrix (soapbench conformance, "
         "soapbench interop, tools/server_load, tools/load_bench)")


@dataclass
class Run:
    source: str                 # the file, as given
    digest: str                 # SHA-256 of its bytes: the same file recorded twice is a duplicate
    machine: str                # the context's machine_id: the machine kind the series belong to
    suite: str                  # parse_bench, roundtrip_bench, stacks_bench[_set], icount, ...
    commit: str                 # git_sha of the measured build ("" until filled in)
    date: str                   # when it ran, UTC, YYYY-MM-DDTHH:MM:SSZ ("" until filled in)
    context: dict               # the file's context, as written
    build: dict                 # what decides the numbers besides the commit (attribution.py)
    build_key: str = ""         # tools/icount's key (icount files) or the tracker's (others)
    samples: dict = field(default_factory=dict)  # {(benchmark, metric): [value per repetition]}


def series_name(name):
    return _RUN_SUFFIX.sub("", name)


def utc(raw):
    """A context date (ISO 8601, with or without zone; naive = local) as YYYY-MM-DDTHH:MM:SSZ."""
    try:
        when = dt.datetime.fromisoformat(str(raw).replace("Z", "+00:00"))
    except ValueError:
        return ""
    if when.tzinfo is None:
        when = when.astimezone()
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_key(build):
    """12 hex digits naming a build dict (as tools/icount names its builds)."""
    raw = json.dumps(build, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:12]


def _load(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise TrackError(f"{path}: cannot read: {e.strerror}") from e
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise TrackError(f"{path}: not UTF-8 text, so not a result file ({KNOWN})") from e
    except ValueError as e:
        where = f" at line {e.lineno}" if hasattr(e, "lineno") else ""
        cut = " (truncated?)" if e.msg.startswith("Unterminated") or \
            e.pos >= len(raw.rstrip()) - 2 else ""
        raise TrackError(f"{path}: not valid JSON{cut}: {e.msg}{where}") from e
    return doc, hashlib.sha256(raw).hexdigest()


# --- Google Benchmark and tools/icount --------------------------------------------------------

def _gb_suite(ctx):
    exe = os.path.basename(str(ctx.get("executable", ""))) or "benchmark"
    bench_set = str(ctx.get("bench_set", "default"))
    return exe if bench_set == "default" else f"{exe}_{re.sub(r'[^A-Za-z0-9]', '_', bench_set)}"


def gb_build(ctx):
    """The build facts of a Google Benchmark context: compiler, build type, library versions."""
    return {"compiler": ctx.get("compiler"), "build": ctx.get("build"),
            "libraries": {k[4:]: str(v) for k, v in ctx.items() if k.startswith("lib_")}}


def _gb_samples(doc, path):
    reps, aggregates = {}, {}
    for e in doc["benchmarks"]:
        if not isinstance(e, dict):
            raise TrackError(f"{path}: a benchmarks entry is not an object")
        name = series_name(str(e.get("run_name") or e.get("name", "")))
        if e.get("error_occurred") or e.get("skipped"):
            continue
        scale = _UNIT_NS.get(str(e.get("time_unit", "ns")), 1.0)
        values = {"real_time": e.get("real_time"), "cpu_time": e.get("cpu_time")}
        values = {k: float(v) * scale for k, v in values.items() if _number(v)}
        values.update({k: float(v) for k, v in e.items() if k not in _GB_FIELDS and _number(v)})
        if e.get("run_type", "iteration") == "aggregate":
            # Files written with --benchmark_report_aggregates_only: their median stands in.
            if e.get("aggregate_name") == "median":
                aggregates[name] = values
            continue
        for metric, v in values.items():
            reps.setdefault((name, metric), []).append(v)
    names = {b for b, _m in reps}
    for name, values in aggregates.items():
        if name not in names:
            for metric, v in values.items():
                reps[(name, metric)] = [v]
    return reps


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def read_gb(doc, path, digest):
    ctx = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    build = gb_build(ctx)
    return Run(path, digest, str(ctx.get("machine_id", "")), _gb_suite(ctx),
               str(ctx.get("git_sha", "")), utc(ctx.get("date", "")), ctx, build,
               build_key(build), _gb_samples(doc, path))


def read_icount(doc, path, digest):
    ctx = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    meta = doc["icount"]
    build = dict(meta.get("build") or gb_build(ctx))
    # How the counts were made changes them as much as the build (the shim alone moved libxml2's
    # counts by a third); the key stays tools/icount's, so the fields can tell.
    build["determinism_shim"] = bool(meta.get("determinism_shim", False))
    samples = {}
    for name, v in doc["instructions"].items():
        if not _number(v):
            raise TrackError(f"{path}: instructions of {name} is not a number")
        samples[(series_name(name), "instructions")] = [float(v)]
    return Run(path, digest, str(ctx.get("machine_id", "")), "icount",
               str(ctx.get("git_sha", "")), utc(ctx.get("date", "")), ctx, build,
               str(meta.get("build_key") or build_key(build)), samples)


# --- the matrices -----------------------------------------------------------------------------

def _matrix_run(doc, path, digest, suite, samples):
    ctx = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    machine = doc.get("machine_id") or ctx.get("machine_id") or ""
    commit = doc.get("git_sha") or ctx.get("git_sha") or ""
    return Run(path, digest, str(machine), suite, str(commit), utc(ctx.get("date", "")),
               ctx, {}, "", samples)


def read_conformance(doc, path, digest):
    samples = {}
    for r in doc.get("records", []):
        name = f"{r['mode']}/{r['adapter']}/{r['file']}"
        samples[(name, "accepted")] = [1.0 if r.get("accepted") else 0.0]
        if _number(r.get("peak_bytes")):
            samples[(name, "peak_heap_bytes")] = [float(r["peak_bytes"])]
    return _matrix_run(doc, path, digest, "conformance", samples)


def read_interop(doc, path, digest):
    samples = {}
    for c in doc.get("cells", []):
        if c.get("status") == "off":  # a pairing that was not run
            continue
        name = f"{c['client']}->{c['server']}/{c['family']}/{c['operation']}"
        samples[(name, "passed")] = [1.0 if c.get("status") in ("ok", "fault-ok") else 0.0]
    return _matrix_run(doc, path, digest, "interop", samples)


def read_server_load(doc, path, digest):
    samples = {}
    for c in doc.get("cells", []):
        name = f"{c['server_id']}/{c['parser']}/{c['family']}/{c['call']}/c{c['connections']}"
        for run in c.get("runs", []):
            for metric in ("rps", "cpu_us_per_call", "p50_us", "p99_us"):
                if _number(run.get(metric)):
                    samples.setdefault((name, metric), []).append(float(run[metric]))
    return _matrix_run(doc, path, digest, "server_load", samples)


def read_load_bench(doc, path, digest):
    samples = {}
    for r in doc.get("runs", []):
        for p in r.get("points", []):
            rate = f"/r{p['rate']:g}" if _number(p.get("rate")) else ""
            name = (f"{r['server_id']}/{r['parser']}/{r['family']}/{r['call']}/{p['mode']}"
                    f"/c{p['connections']}{rate}")
            metrics = {"tps": p.get("tps"), "p50_us": p.get("p50_us"), "p99_us": p.get("p99_us"),
                       "cpu_us_per_call": p.get("server_cpu_us_per_call")}
            for metric, v in metrics.items():
                if _number(v):
                    samples.setdefault((name, metric), []).append(float(v))
    return _matrix_run(doc, path, digest, "load_bench", samples)


_MATRICES = {
    "soapbench conformance": read_conformance,
    "soapbench interop": read_interop,
    "tools/server_load": read_server_load,
    "tools/load_bench": read_load_bench,
}


def read(path, machine=None):
    """The Run in a result file; TrackError naming the file and the reason otherwise."""
    doc, digest = _load(path)
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
    except (KeyError, TypeError, ValueError) as e:
        raise TrackError(f"{path}: malformed {doc.get('tool') or 'result file'}: "
                         f"{type(e).__name__} {e}") from e
    if machine:
        run.machine = machine
    if not run.machine:
        raise TrackError(f"{path}: unknown machine: the file has no machine_id (pass --machine ID)")
    if not run.samples:
        raise TrackError(f"{path}: no results in it (every benchmark failed or none ran)")
    return run


def fill_from_siblings(runs, fallback_commit="", fallback_date=""):
    """Files of one run that do not say their commit or date (the matrices) take them from the
    others: the commit of the benchmark file nearest before them, the newest date of that
    commit's files; else the fallbacks."""
    dated = sorted((r for r in runs if r.date and r.commit), key=lambda r: r.date)
    for r in runs:
        if not r.commit:
            before = [d for d in dated if d.machine == r.machine and (not r.date or d.date <= r.date)]
            r.commit = before[-1].commit if before else fallback_commit
        if not r.date:
            same = [d.date for d in dated if d.machine == r.machine and d.commit == r.commit]
            r.date = max(same) if same else fallback_date
    return runs


def stored_files(results_dir):
    """The result files of a results/ folder (tools/results' layout), oldest first: runs of each
    machine folder, its matrices, results/icount/<key>/ and older results/<machine>/icount/."""
    found = []
    for path in glob.glob(os.path.join(results_dir, "**", "*.json"), recursive=True):
        base = os.path.basename(path)
        # baselines are copies of stored runs; thresholds.json is tools/compare's configuration
        if base.startswith("baseline.") or base in ("baseline.json", "thresholds.json"):
            continue
        found.append(path)
    return sorted(found)
