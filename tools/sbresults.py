"""Shared code of tools/results, tools/report, tools/compare and tools/icount.

Reads Google Benchmark JSON (docs/results.md) and tools/icount files, names them the way
results/<machine-id>/ stores them, and finds "this machine". Standard library only; run
with /usr/bin/python3 (Debian's, which also has matplotlib and scipy for the tools).
"""
import datetime as _dt
import glob
import hashlib
import json
import math
import os
import re
import statistics
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS_DIR = os.path.join(REPO, "results")
BUILD_DIR = os.path.join(REPO, "build")
BENCHES = ("parse_bench", "roundtrip_bench", "stacks_bench")
# Result files that are not benchmark runs, by the "tool" they name: tools/results save keeps the
# newest of each in the machine folder under this name, where tools/report reads it.
MACHINE_FILES = {
    "soapbench conformance": "conformance.json",
    "soapbench conformance --suite": "conformance_suites.json",
    "soapbench interop": "interop.json",
    "tools/server_load": "server_load.json",
    "tools/load_bench": "load_bench.json",
}

# Keys of a Google Benchmark run entry that are not counters.
_GB_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
    "time_unit", "aggregate_name", "aggregate_unit", "error_occurred", "error_message",
    "label", "skipped", "skip_message",
}
_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
_ITER_SUFFIX = re.compile(r"/(?:iterations|repeats):\d+")
_RUN_FILE = re.compile(r"^(\d{8}-\d{6})_(.+)\.([A-Za-z0-9_]+)\.json$")


class ResultError(Exception):
    """A file that is not what a tool expected (message is for the user)."""


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ResultError(f"{path}: cannot read JSON: {e}") from e


def is_gb(doc):
    return isinstance(doc, dict) and isinstance(doc.get("benchmarks"), list)


def is_icount(doc):
    return isinstance(doc, dict) and isinstance(doc.get("instructions"), dict)


def context(doc):
    ctx = doc.get("context") if isinstance(doc, dict) else None
    return ctx if isinstance(ctx, dict) else {}


def machine_id(doc):
    return str(context(doc).get("machine_id", "")) or None


def pair_name(name):
    """The name benchmarks are paired by: without Google Benchmark's /iterations:N and /repeats:N
    suffixes (fixed-iteration mode and per-benchmark repetitions add them)."""
    return _ITER_SUFFIX.sub("", name)


def bench_kind(doc, path=""):
    """parse_bench / roundtrip_bench / stacks_bench: the executable that wrote the file
    (stacks_bench_<set> for a stacks_bench set other than the default)."""
    exe = str(context(doc).get("executable", ""))
    base = os.path.basename(exe)
    bench_set = str(context(doc).get("bench_set", "default"))
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


def utc_stamp(doc):
    """The run's date (Google Benchmark's context date) in UTC, YYYYMMDD-HHMMSS."""
    raw = str(context(doc).get("date", ""))
    try:
        when = _dt.datetime.fromisoformat(raw)
    except ValueError:
        when = None
    if when is None:
        raise ResultError("no parsable context date")
    if when.tzinfo is None:  # a naive date is local time
        when = when.astimezone()
    return when.astimezone(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")


def safe_sha(doc):
    sha = str(context(doc).get("git_sha", "unknown")) or "unknown"
    return re.sub(r"[^A-Za-z0-9._-]", "_", sha)


def run_file_name(doc, path=""):
    return f"{utc_stamp(doc)}_{safe_sha(doc)}.{bench_kind(doc, path)}.json"


def parse_run_file_name(base):
    """(stamp, sha, bench) for '<date>_<sha>.<bench>.json', else None."""
    m = _RUN_FILE.match(base)
    return (m.group(1), m.group(2), m.group(3)) if m else None


class Result:
    """One benchmark of one file: its repetitions and the numbers a reader should see."""

    def __init__(self, name):
        self.name = name                # run_name as written (with /iterations:N)
        self.times = []                 # real_time per repetition, ns
        self.cpu_times = []             # cpu_time per repetition, ns
        self.rep_counters = []          # counters per repetition
        self.agg = {}                   # aggregate name -> (real_time ns or fraction, counters)
        self.error = None
        self.iterations = 0

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
    return {k: float(v) for k, v in entry.items()
            if k not in _GB_FIELDS and isinstance(v, (int, float)) and not isinstance(v, bool)}


def results_of(doc):
    """{run_name: Result} for a Google Benchmark document, in file order."""
    out = {}
    for e in doc.get("benchmarks", []):
        name = str(e.get("run_name") or e.get("name", ""))
        r = out.get(name)
        if r is None:
            r = out[name] = Result(name)
        if e.get("error_occurred") or (e.get("skipped") and e.get("skip_message")):
            r.error = str(e.get("error_message") or e.get("skip_message") or "error")
            continue
        scale = _UNIT_NS.get(str(e.get("time_unit", "ns")), 1.0)
        if e.get("run_type", "iteration") == "aggregate":
            agg = str(e.get("aggregate_name", ""))
            if agg == "cv" or e.get("aggregate_unit") == "percentage":
                r.agg[agg] = (float(e.get("real_time", 0.0)), _counters(e))
            else:
                r.agg[agg] = (float(e.get("real_time", 0.0)) * scale, _counters(e))
            continue
        r.times.append(float(e.get("real_time", 0.0)) * scale)
        r.cpu_times.append(float(e.get("cpu_time", 0.0)) * scale)
        r.rep_counters.append(_counters(e))
        r.iterations = int(e.get("iterations", 0))
    return out


# --- the instruction-count baseline's key -----------------------------------------------

# Instruction counts depend on the code that runs, not on the machine's speed: the compiler, the
# libraries (the adapters' and the shared objects parse_bench loads, glibc's string functions
# among them), the instruction-set level chosen at run time (glibc's ifuncs and simdjson's
# kernel, as valgrind's CPU presents them) and valgrind. Not on CPU model, caches, core count or
# host name: a baseline keyed by these facts applies to every machine of the same build.
_KERNEL = re.compile(r"'(\w+)' kernel")


def icount_build(ctx, runtime):
    """The facts that decide instruction counts: ctx is parse_bench's context (as run under
    valgrind), runtime what tools/icount found out about the process (isa_level, glibc,
    valgrind, shared_libraries)."""
    libs = {k[len("lib_"):]: str(v) for k, v in ctx.items() if k.startswith("lib_")}
    kernels = sorted({m.group(1) for k, v in ctx.items() if k.startswith("adapter:")
                      for m in _KERNEL.finditer(str(v))})
    return {"compiler": ctx.get("compiler"), "build": ctx.get("build"), "libraries": libs,
            "simdjson_kernels": kernels, **runtime}


def icount_build_key(build):
    """12 hex digits naming a build (icount_build's dict): results/icount/<key>/."""
    raw = json.dumps(build, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:12]


def icount_key(doc):
    """The build key of a tools/icount file, or None for files written before builds had keys
    (those lived in results/<machine-id>/icount/ and stay readable there)."""
    got = doc.get("icount", {}).get("build_key") if isinstance(doc.get("icount"), dict) else None
    return str(got) if got else None


def icount_dir(results_dir, key):
    """Where the counts of one build live: results/icount/<key>/ (baseline.json and runs)."""
    return os.path.join(results_dir, "icount", key)


# --- finding files and machines ---------------------------------------------------------

def machine_dirs(results_dir=RESULTS_DIR):
    if not os.path.isdir(results_dir):
        return []
    return sorted(d for d in os.listdir(results_dir)
                  if os.path.isdir(os.path.join(results_dir, d)) and not d.startswith(".")
                  and d != "icount")  # results/icount/<build-key>/: counts, keyed by build


def run_files(machine_dir):
    """[(stamp, sha, bench, path)] of the runs stored in a machine folder, oldest first."""
    out = []
    for p in glob.glob(os.path.join(machine_dir, "*.json")):
        parsed = parse_run_file_name(os.path.basename(p))
        if parsed:
            out.append((*parsed, p))
    return sorted(out)


def newest_runs(machine_dir):
    """The newest stored file of each bench: {bench: path}."""
    newest = {}
    for stamp, _sha, bench, path in run_files(machine_dir):
        newest[bench] = path  # sorted oldest first: the last one wins
    return newest


def _ids_in(paths):
    ids = []
    for p in paths:
        try:
            doc = load_json(p)
        except ResultError:
            continue
        mid = machine_id(doc) if is_gb(doc) else None
        if mid:
            ids.append((os.path.getmtime(p), mid))
    return [m for _t, m in sorted(ids, reverse=True)]


def this_machine(results_dir=RESULTS_DIR, build_dir=BUILD_DIR, explicit=None, quiet=False):
    """The machine id of this machine: --machine, else the newest build/results file, else a
    one-benchmark run of build/bench/parse_bench, else the only folder in results/."""
    if explicit:
        return explicit
    ids = _ids_in(glob.glob(os.path.join(build_dir, "results", "*.json")))
    if ids:
        return ids[0]
    exe = os.path.join(build_dir, "bench", "parse_bench")
    if os.access(exe, os.X_OK):
        ctx = bench_context(exe)
        if ctx.get("machine_id"):
            return ctx["machine_id"]
    dirs = machine_dirs(results_dir)
    if len(dirs) == 1:
        return dirs[0]
    raise ResultError(
        "cannot tell this machine's id (no build/results/*.json, no build/bench/parse_bench, "
        f"{len(dirs)} folders in {results_dir}): pass --machine ID")


def bench_context(exe, corpus=None):
    """The Google Benchmark context of parse_bench on this machine (one tiny benchmark)."""
    with tempfile.TemporaryDirectory(prefix="sb-ctx-") as tmp:
        out = os.path.join(tmp, "ctx.json")
        cmd = [exe, "--no-pin", "--set=default", "--benchmark_filter=^floor/memcpy/xmlrpc/add\\.call$",
               "--benchmark_min_time=0.001", f"--benchmark_out={out}",
               "--benchmark_out_format=json"]
        if corpus:
            cmd.append(f"--corpus={corpus}")
        try:
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=300, check=False)
            return context(load_json(out))
        except (OSError, subprocess.SubprocessError, ResultError):
            return {}


def geomean(values):
    vals = [v for v in values if v and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


# --- statistics: what a ranking word in a report must pass --------------------------------

CI_LEVEL = 0.95     # confidence of the interval of a median
RANK_ALPHA = 0.01   # two-sided Mann-Whitney U p a ranking word needs (tools/compare's alpha too)


def median_ci(samples, level=CI_LEVEL):
    """Distribution-free interval of the median from order statistics: (lo, hi, coverage).

    [x_(k), x_(n+1-k)] covers the median with probability 1 - 2 P(B <= k-1), B ~ binomial(n, 1/2);
    the narrowest one reaching `level` is returned. When even [min, max] covers less (n <= 5 for
    95%) it is returned with its lower coverage (the caller says so); None for n < 2."""
    xs = sorted(samples)
    n = len(xs)
    if n < 2:
        return None
    best = (xs[0], xs[-1], 1 - 2 * 0.5 ** n)
    tail = 0.0
    for k in range(1, n // 2 + 1):
        tail += math.comb(n, k - 1) * 0.5 ** n   # P(B <= k-1)
        coverage = 1 - 2 * tail
        if coverage < level:
            break
        best = (xs[k - 1], xs[n - k], coverage)
    return best


def min_ci_n(level=CI_LEVEL):
    """The fewest samples whose [min, max] reaches `level` as an interval of the median."""
    n = 2
    while 1 - 2 * 0.5 ** n < level:
        n += 1
    return n


def mann_whitney_p(a, b):
    """Two-sided Mann-Whitney U p of two samples (scipy; 1.0 when every value is the same)."""
    from scipy.stats import mannwhitneyu  # only the statistics need scipy
    if len(set(a) | set(b)) == 1:
        return 1.0
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def separated(a, b, alpha=RANK_ALPHA):
    """(apart, p) for two Results: apart when both have repetitions, Mann-Whitney p <= alpha
    and their median intervals (median_ci) do not overlap."""
    ca, cb = median_ci(a.times), median_ci(b.times)
    if ca is None or cb is None:
        return False, None
    p = mann_whitney_p(a.times, b.times)
    return p <= alpha and (ca[1] < cb[0] or cb[1] < ca[0]), p


class Ranking:
    """Candidates ordered by median time, and what the statistics allow a report to say."""

    def __init__(self, candidates):
        self.order = sorted(candidates.items(), key=lambda kv: kv[1].time)  # [(label, Result)]
        self.leader = self.order[0][0] if self.order else None              # lowest median
        lead = self.order[0][1] if self.order else None
        self.repeated = bool(self.order) and all(r.reps >= 2 for _l, r in self.order)
        self.apart = {}   # label -> (apart from the leader, p)
        for label, r in self.order[1:]:
            self.apart[label] = separated(lead, r)
        # The leader and every candidate the statistics cannot tell from it.
        self.tied = [self.leader] + [l for l, _r in self.order[1:] if not self.apart[l][0]] \
            if self.order else []

    @property
    def clear(self):
        """True when the leader is ahead of every other candidate (a ranking word is allowed)."""
        return self.repeated and len(self.order) >= 2 and len(self.tied) == 1

    def result(self, label):
        return dict(self.order)[label]


def rel(path):
    """A path as the user would type it from the repository root."""
    try:
        r = os.path.relpath(path, REPO)
    except ValueError:
        return path
    return path if r.startswith("..") else r
