"""Google Benchmark JSON (docs/results.md): reading a file into Results, the file's context.

Standard library only; run with /usr/bin/python3 (Debian's, which also has matplotlib and scipy
for the other modules).
"""
import datetime as _dt
import hashlib
import json
import os
import re
import statistics

BENCHES = ("parse_bench_rounds", "parse_bench", "roundtrip_bench", "stacks_bench")  # longest first

# Keys of a Google Benchmark run entry that are not counters.
_GB_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
    "time_unit", "aggregate_name", "aggregate_unit", "error_occurred", "error_message",
    "label", "skipped", "skip_message",
}
_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Suffixes Google Benchmark appends for how a benchmark ran, not what it measures
# (benchmark_names.json's "suffixes"): the ones names are paired by without, and all of them.
_PAIR_SUFFIX = re.compile(r"/(?:iterations|repeats):[^/]+")
_RUN_SUFFIX = re.compile(r"/(?:iterations|repeats|min_time|min_warmup_time):[^/]+")


class ResultError(Exception):
    """A file that is not what a tool expected (message is for the user)."""


# The standard library's one NaN object: a strict read compares equal to json.load's.
_NAN = json.loads("NaN")


class _Flaw:
    """A non-finite number (NaN, Infinity, a literal beyond a double) found by a strict read,
    left in the value's place until the read names where it is."""

    def __init__(self, what, nan=False):
        self.what = what    # for the message
        self.nan = nan      # a NaN literal (the one Google Benchmark's cv may hold)


def _written_twice(items):
    """The first key of an object's (key, value) pairs that is written twice, None if none.
    One is known and harmless: Google Benchmark's context lists the caches under "caches" and
    harness/run_context.cpp's summary string follows under the same key (readers keep the
    summary); a list then a string there is that pair, not a second value."""
    seen = {}
    for k, v in items:
        if k in seen and not (k == "caches" and isinstance(seen[k], list) and isinstance(v, str)):
            return k
        seen[k] = v
    return None


def _cv_aggregate(obj):
    """Google Benchmark's coefficient-of-variation entry: a counter whose mean is 0 has cv
    0/0, written NaN; readers of aggregates skip what is not a number."""
    return obj.get("run_type") == "aggregate" and obj.get("aggregate_name") == "cv"


def _strict_hooks(twice, counts):
    """json.loads hooks that mark what a result file must not hold: twice gets {id(object):
    (the first key written twice in it, the object)}; counts[0] counts the non-finite numbers
    left marked."""
    def pairs(items):
        obj = dict(items)
        if len(obj) != len(items):
            key = _written_twice(items)
            if key is not None:
                twice[id(obj)] = (key, obj)  # holds it: its id stays its own
        for k, v in obj.items():
            if isinstance(v, _Flaw) and v.nan and _cv_aggregate(obj):
                obj[k] = _NAN
                counts[0] -= 1
        return obj

    def flaw(what, nan=False):
        counts[0] += 1
        return _Flaw(what, nan)

    def constant(name):
        return flaw(f"{name} is not a number", name == "NaN")

    def number(text):
        v = float(text)
        if v != v or v in (float("inf"), float("-inf")):
            return flaw(f"{text} is beyond a double")
        return v

    def integer(text):
        v = int(text)
        if abs(v) > 1.7976931348623157e308:
            return flaw(f"{text[:20]}... is beyond a double")
        return v
    return {"object_pairs_hook": pairs, "parse_constant": constant, "parse_float": number,
            "parse_int": integer}


def _place(path):
    """'benchmarks[3].real_time' for a list of keys and indexes."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += f".{p}" if out else p
        else:
            out += f"[{json.dumps(p)}]"
    return out or "the top level"


def _entry_name(doc, where):
    """' (benchmark <name>)' when a place lies in a Google Benchmark entry, else ''."""
    if len(where) >= 2 and where[0] == "benchmarks" and is_gb(doc) and \
            isinstance(where[1], int) and isinstance(doc["benchmarks"][where[1]], dict):
        return f" (benchmark {doc['benchmarks'][where[1]].get('name')!r})"
    return ""


def _first_flaw(value, twice, path=()):
    """(path, what) of the first mark in document order, or None."""
    if isinstance(value, _Flaw):
        return path, value.what
    if isinstance(value, dict):
        if id(value) in twice:
            key = twice[id(value)][0]
            return path + (key,), (f"the key {json.dumps(key)} is written twice (a "
                                           "reader would keep only the last value)")
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for k, v in items:
        if isinstance(v, (dict, list, _Flaw)):
            found = _first_flaw(v, twice, path + (k,))
            if found:
                return found
    return None


def _repeated_runs(doc):
    """(place, what) of the first Google Benchmark entry that repeats an earlier one (the same
    benchmark, kind and repetition: two files written into one read as repetitions), or None."""
    first, written = {}, {}
    for i, e in enumerate(doc.get("benchmarks", [])):
        if not isinstance(e, dict):
            continue
        name = str(e.get("run_name") or e.get("name", ""))
        run_type = str(e.get("run_type", "iteration"))
        kind = (name, run_type, str(e.get("aggregate_name", "")))
        if run_type == "aggregate":
            key, what = kind, f"its {kind[2]} aggregate"
        elif "repetition_index" in e:
            key, what = kind + (str(e["repetition_index"]),), f"repetition {e['repetition_index']}"
        else:  # an older file without indexes: more entries than the repetitions it ran
            written[kind] = written.get(kind, 0) + 1
            reps = e.get("repetitions")
            if is_number(reps) and written[kind] > reps:
                return f"benchmarks[{i}]", (f"{name!r} has more entries than its {reps:g} "
                                            "repetitions (written twice?)")
            continue
        if key in first:
            return f"benchmarks[{i}]", (f"{name!r} {what} is written twice (first at "
                                        f"benchmarks[{first[key]}])")
        first[key] = i
    return None


def read_json(path):
    """(document, SHA-256 of the file's bytes); ResultError naming the file and why not
    (unreadable, not UTF-8, not JSON: truncated when it ends inside a value). The one strict
    reader of result files: a non-finite number (NaN, Infinity, 1e999), a key written twice in
    one object, or a Google Benchmark run written twice are refused with the place they are at,
    since each would let a file say something its reader cannot check (a NaN compares as no
    change, the last of two keys wins silently, a run written twice reads as repetitions).
    Google Benchmark's own NaN (the cv of a counter whose mean is 0) is read as NaN."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ResultError(f"{path}: cannot read JSON: {e.strerror}") from e
    twice, marked = {}, [0]
    try:
        doc = json.loads(raw.decode("utf-8"), **_strict_hooks(twice, marked))
    except UnicodeDecodeError as e:
        raise ResultError(f"{path}: cannot read JSON: not UTF-8 text") from e
    except json.JSONDecodeError as e:
        where = f" at line {e.lineno}" if hasattr(e, "lineno") else ""
        cut = " (truncated?)" if e.msg.startswith("Unterminated") or \
            e.pos >= len(raw.rstrip()) - 2 else ""
        raise ResultError(f"{path}: cannot read JSON: not valid JSON{cut}: {e.msg}{where}") from e
    except ValueError as e:  # an integer literal too long to convert
        raise ResultError(f"{path}: cannot read JSON: {e}") from e
    except RecursionError as e:
        raise ResultError(f"{path}: cannot read JSON: nested too deeply") from e
    if twice or marked[0]:
        where, what = _first_flaw(doc, twice)
        raise ResultError(f"{path}: refused: at {_place(where)}{_entry_name(doc, where)}: {what}")
    repeated = _repeated_runs(doc) if is_gb(doc) else None
    if repeated:
        raise ResultError(f"{path}: refused: at {repeated[0]}: {repeated[1]}")
    return doc, hashlib.sha256(raw).hexdigest()


def load_json(path):
    return read_json(path)[0]


def is_gb(doc):
    return isinstance(doc, dict) and isinstance(doc.get("benchmarks"), list)


def is_icount(doc):
    return isinstance(doc, dict) and isinstance(doc.get("instructions"), dict)


def context(doc):
    ctx = doc.get("context") if isinstance(doc, dict) else None
    return ctx if isinstance(ctx, dict) else {}


def machine_id(doc):
    return str(context(doc).get("machine_id", "")) or None


def _fnv12(text):
    """FNV-1a 64 of the text's bytes, its top 48 bits as 12 hex digits (run_context.cpp's)."""
    h = 0xcbf29ce484222325
    for c in text.encode():
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h >> 16:012x}"


def hardware_id(ctx):
    """The machine without its build: machine_id's recipe without the compiler (CPU model, core
    count, caches), so a compiler upgrade on one machine stays that machine's history; None
    when the context does not state all three (the matrices state only machine_id)."""
    parts = [ctx.get(k) for k in ("cpu_model", "cpu_cores", "caches")]
    return _fnv12("|".join(map(str, parts))) if all(p is not None for p in parts) else None


def pair_name(name):
    """The name benchmarks are paired by: without Google Benchmark's /iterations:N and /repeats:N
    suffixes (fixed-iteration mode and per-benchmark repetitions add them)."""
    return _PAIR_SUFFIX.sub("", name)


def series_name(name):
    """The name a history's series is named by (tools/track): without every suffix of how the
    benchmark ran, /min_time:T (the default set's tail) too, so a changed minimum time
    continues its series."""
    return _RUN_SUFFIX.sub("", name)


def bench_kind(doc, path=""):
    """parse_bench / roundtrip_bench / stacks_bench: the executable that wrote the file
    (stacks_bench_<set> for a stacks_bench set other than the default, parse_bench_rounds for
    tools/bench_rounds' rounds of parse_bench)."""
    exe = str(context(doc).get("executable", ""))
    base = os.path.basename(exe)
    bench_set = str(context(doc).get("bench_set", "default"))
    if base == "parse_bench" and context(doc).get("rounds"):
        # tools/bench_rounds' file (the first screen's rows in rounds), beside the set's own.
        return "parse_bench_rounds"
    if base == "stacks_bench" and bench_set != "default":
        # Another set of stacks_bench (scripting, full) is its own kind: the newest scripting
        # run must not shadow the newest default run.
        return f"stacks_bench_{re.sub(r'[^A-Za-z0-9]', '_', bench_set)}"
    if base:
        return base
    base = os.path.basename(path)
    for b in BENCHES:
        if base.startswith(b) or f".{b}." in base:
            return b
    names = [str(b.get("name", "")) for b in doc.get("benchmarks", [])]
    if names and all(n.startswith(("roundtrip/", "messaging/")) for n in names):
        return "roundtrip_bench"
    return "parse_bench"


def is_number(v):
    """A JSON number that is a value: not a bool, not NaN."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def parse_date(raw):
    """A context date (ISO 8601; a naive one is local time) as an aware datetime, or None."""
    try:
        when = _dt.datetime.fromisoformat(str(raw).replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.astimezone()


def utc_stamp(doc):
    """The run's date (Google Benchmark's context date) in UTC, YYYYMMDD-HHMMSS."""
    when = parse_date(context(doc).get("date", ""))
    if when is None:
        raise ResultError("no parsable context date")
    return when.astimezone(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")


def safe_sha(doc):
    sha = str(context(doc).get("git_sha", "unknown")) or "unknown"
    return re.sub(r"[^A-Za-z0-9._-]", "_", sha)


class Result:
    """One benchmark of one file: its repetitions and the numbers a reader should see."""

    def __init__(self, name):
        self.name = name                # run_name as written (with /iterations:N)
        self.times = []                 # real_time per repetition, ns
        self.cpu_times = []             # cpu_time per repetition, ns
        self.rep_counters = []          # counters per repetition
        self.agg = {}                   # aggregate name -> (real_time ns or fraction, counters,
                                        #                   cpu_time ns or fraction)
        self.error = None               # the error or skip message, None when it ran
        self.iterations = 0             # iterations of the last repetition

    @property
    def reps(self):
        return len(self.times)

    @property
    def time(self):
        """Median real time in ns (the only run, the median of the repetitions or the
        median aggregate when only aggregates were written)."""
        if self.times:
            return statistics.median(self.times)
        if "median" in self.agg:
            return self.agg["median"][0]
        if "mean" in self.agg:
            return self.agg["mean"][0]
        return None

    @property
    def cv(self):
        """Coefficient of variation of real time across repetitions (fraction), or None."""
        if len(self.times) >= 2:
            mean = statistics.fmean(self.times)
            return statistics.stdev(self.times) / mean if mean > 0 else None
        if "cv" in self.agg:
            return self.agg["cv"][0]
        return None

    def noisy(self, limit=0.05):
        cv = self.cv
        return cv is not None and cv > limit

    def counter(self, key):
        """Median of a counter over the repetitions (or its median aggregate)."""
        vals = [c[key] for c in self.rep_counters if key in c]
        if vals:
            return statistics.median(vals)
        for agg in ("median", "mean"):
            if agg in self.agg and key in self.agg[agg][1]:
                return self.agg[agg][1][key]
        return None


def _counters(entry):
    return {k: float(v) for k, v in entry.items() if k not in _GB_FIELDS and is_number(v)}


def results_of(doc):
    """{run_name: Result} for a Google Benchmark document, in file order."""
    out = {}
    for e in doc.get("benchmarks", []):
        name = str(e.get("run_name") or e.get("name", ""))
        r = out.get(name)
        if r is None:
            r = out[name] = Result(name)
        if e.get("error_occurred") or e.get("skipped"):
            # A skipped entry measured nothing, with a message or without (its times are 0).
            r.error = str(e.get("error_message") or e.get("skip_message") or
                          ("error" if e.get("error_occurred") else "skipped"))
            continue
        scale = _UNIT_NS.get(str(e.get("time_unit", "ns")), 1.0)
        if e.get("run_type", "iteration") == "aggregate":
            agg = str(e.get("aggregate_name", ""))
            if agg == "cv" or e.get("aggregate_unit") == "percentage":
                scale = 1.0  # a fraction, whatever time_unit says
            r.agg[agg] = (float(e.get("real_time", 0.0)) * scale, _counters(e),
                          float(e.get("cpu_time", 0.0)) * scale)
            continue
        r.times.append(float(e.get("real_time", 0.0)) * scale)
        r.cpu_times.append(float(e.get("cpu_time", 0.0)) * scale)
        r.rep_counters.append(_counters(e))
        r.iterations = int(e.get("iterations", 0))
    return out
