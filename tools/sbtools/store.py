"""The result store, results/ (docs/results.md): how runs are named and found.

results/<machine-id>/<date>_<sha>.<bench>.json     benchmark runs (Google Benchmark JSON)
results/<machine-id>/<date>_<sha>.<kind>.json      the matrices and load runs, kind in MACHINE_FILES
results/icount/<build-key>/<date>_<sha>.json       instruction counts (tools/icount), by build
results/callcount/<build-key>/<date>_<sha>.json    whole-call counts (tools/callcount), by build
"""
import datetime as _dt
import glob
import os
import re
import subprocess
import tempfile

from sbtools import buildkey
from sbtools.gbench import (ResultError, context, is_gb, load_json, machine_id, parse_date,
                            bench_kind, safe_sha, utc_stamp)
from sbtools.paths import BUILD_DIR, REPO, RESULTS_DIR

# Result files that are not benchmark runs, by the "tool" they name: their kind in the stored
# file name (<date>_<sha>.<kind>.json) and the name older folders kept the newest one under.
MACHINE_FILES = {
    "soapbench conformance": "conformance.json",
    "soapbench conformance --suite": "conformance_suites.json",
    "soapbench interop": "interop.json",
    "tools/server_load": "server_load.json",
    "tools/load_bench": "load_bench.json",
    "tools/wild": "wild.json",
}
MACHINE_KINDS = {tool: name[:-len(".json")] for tool, name in MACHINE_FILES.items()}
# results/<folder>/<build-key>/: counts, keyed by build rather than by machine.
BUILD_FOLDERS = ("icount", "callcount")
_RUN_FILE = re.compile(r"^(\d{8}-\d{6})_(.+)\.([A-Za-z0-9_]+)\.json$")
_STAMP_SHA = re.compile(r"^(\d{8}-\d{6})_([A-Za-z0-9_-]+)")  # any stored name's date and commit


def run_file_name(doc, path=""):
    return f"{utc_stamp(doc)}_{safe_sha(doc)}.{bench_kind(doc, path)}.json"


def parse_run_file_name(base):
    """(stamp, sha, kind) for '<date>_<sha>.<kind>.json', else None."""
    m = _RUN_FILE.match(base)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def machine_dirs(results_dir=RESULTS_DIR):
    if not os.path.isdir(results_dir):
        return []
    # Not machines: results/<BUILD_FOLDERS>/<build-key>/ (counts, keyed by build) and results/assets/
    # (the committed report pages' Chart.js, sbtools.report.page).
    return sorted(d for d in os.listdir(results_dir)
                  if os.path.isdir(os.path.join(results_dir, d)) and not d.startswith(".")
                  and d not in BUILD_FOLDERS + ("assets",))


def _stored(machine_dir):
    out = []
    for p in glob.glob(os.path.join(machine_dir, "*.json")):
        parsed = parse_run_file_name(os.path.basename(p))
        if parsed:
            out.append((*parsed, p))
    return sorted(out)


def run_files(machine_dir):
    """[(stamp, sha, bench, path)] of the benchmark runs stored in a machine folder, oldest
    first (the matrices and load runs stored beside them are left out)."""
    kinds = set(MACHINE_KINDS.values())
    return [f for f in _stored(machine_dir) if f[2] not in kinds]


def newest_runs(machine_dir):
    """The newest stored file of each bench: {bench: path}."""
    newest = {}
    for _stamp, _sha, bench, path in run_files(machine_dir):
        newest[bench] = path  # sorted oldest first: the last one wins
    return newest


# --- the matrices and load runs -------------------------------------------------------------

def machine_doc_id(doc):
    """The machine id a matrix or load document names (top level or its context)."""
    return doc.get("machine_id") or (doc.get("context") or {}).get("machine_id")


def doc_sha(doc):
    """The commit a matrix or load document was made at (top level or context), or None."""
    sha = doc.get("git_sha") or (doc.get("context") or {}).get("git_sha")
    return str(sha) if sha else None


def machine_file_name(doc, path):
    """<date>_<sha>.<kind>.json for a matrix or load document: its context date, or the file's
    modification time when it has none (soapbench conformance and interop write no date)."""
    when = parse_date((doc.get("context") or {}).get("date", "")) if isinstance(
        doc.get("context"), dict) else None
    if when is None:
        when = _dt.datetime.fromtimestamp(os.path.getmtime(path), _dt.timezone.utc)
    stamp = when.astimezone(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    sha = re.sub(r"[^A-Za-z0-9._-]", "_", doc_sha(doc) or "unknown")
    return f"{stamp}_{sha}.{MACHINE_KINDS[doc['tool']]}.json"


def machine_files(machine_dir, tool):
    """Every stored document of one tool in a machine folder, oldest first: the single
    <kind>.json older folders kept (when there is one), then the <date>_<sha>.<kind>.json."""
    kind = MACHINE_KINDS[tool]
    legacy = os.path.join(machine_dir, MACHINE_FILES[tool])
    return ([legacy] if os.path.exists(legacy) else []) + \
        [p for _s, _h, k, p in _stored(machine_dir) if k == kind]


def newest_machine_file(machine_dir, tool):
    """The newest stored document of one tool in a machine folder, None without one."""
    kept = machine_files(machine_dir, tool)
    return kept[-1] if kept else None


def file_origin(path, doc):
    """(date or None, commit or None) of a stored matrix, load or icount document: from its
    content, else from its stored name <date>_<sha>."""
    ctx = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    when, sha = parse_date(ctx.get("date", "")), doc_sha(doc)
    parsed = _STAMP_SHA.match(os.path.basename(path))
    if parsed:
        if when is None:
            when = _dt.datetime.strptime(parsed.group(1), "%Y%m%d-%H%M%S").replace(
                tzinfo=_dt.timezone.utc)
        if sha is None and parsed.group(2) != "unknown":
            sha = parsed.group(2)
    return when, sha


# --- instruction counts ----------------------------------------------------------------------

def icount_dir(results_dir, key):
    """Where the counts of one build live: results/icount/<key>/ (baseline.json and runs)."""
    return os.path.join(results_dir, "icount", key)


def stored_icount_files(results_dir):
    """Every stored tools/icount run, results/icount/<build-key>/<date>_<sha>.json, oldest first."""
    found = glob.glob(os.path.join(results_dir, "icount", "*", "*.json"))
    return sorted((p for p in found if os.path.basename(p) != "baseline.json"),
                  key=os.path.basename)


def callcount_dir(results_dir, key):
    """Where the whole-call counts of one build live: results/callcount/<key>/."""
    return os.path.join(results_dir, "callcount", key)


def stored_callcount_files(results_dir):
    """Every stored tools/callcount run, results/callcount/<build-key>/<date>_<sha>.json, oldest
    first."""
    found = glob.glob(os.path.join(results_dir, "callcount", "*", "*.json"))
    return sorted((p for p in found if os.path.basename(p) != "baseline.json"),
                  key=os.path.basename)


def legacy_icount_files(machine_dir):
    """Instruction counts written before counts were keyed by build:
    results/<machine-id>/icount/<date>_<sha>.json (tools/compare still reads them by path)."""
    found = glob.glob(os.path.join(machine_dir, "icount", "*.json"))
    return sorted((p for p in found if os.path.basename(p) != "baseline.json"),
                  key=os.path.basename)


def stored_files(results_dir=RESULTS_DIR):
    """Every stored result file of a results/ folder (baselines, copies of stored runs, left
    out): each machine folder's benchmark runs, matrices and load runs (older folders' single
    <kind>.json included) and older instruction counts, then results/icount/<key>/ and
    results/callcount/<key>/ runs."""
    out = []
    for machine in machine_dirs(results_dir):
        folder = os.path.join(results_dir, machine)
        out += [p for _stamp, _sha, _bench, p in run_files(folder)]
        for tool in MACHINE_FILES:
            out += machine_files(folder, tool)
        out += legacy_icount_files(folder)
    return out + stored_icount_files(results_dir) + stored_callcount_files(results_dir)


def _same_build(a, b):
    """Whether two parse_bench contexts name the same build as far as a context tells
    (compiler, build type, library versions; the rest of the key only tools/icount sees)."""
    x, y = buildkey.context_build(a), buildkey.context_build(b)
    return all(x[k] == y[k] for k in ("compiler", "build", "libraries"))


def icount_for_run(results_dir, run_ctx):
    """The tools/icount file the report of a run reads: among results/icount/<build-key>/ runs
    of the run's build, the one made at the run's commit on its machine, else the newest; None
    when no stored counts are of this build."""
    return _counts_for_run(stored_icount_files(results_dir), run_ctx)


def callcount_for_run(results_dir, run_ctx):
    """The tools/callcount file the report of a run reads, chosen as icount_for_run chooses."""
    return _counts_for_run(stored_callcount_files(results_dir), run_ctx)


def _counts_for_run(files, run_ctx):
    same = []
    for p in files:
        try:
            ctx = context(load_json(p))
        except ResultError:
            continue
        if _same_build(ctx, run_ctx):
            same.append((ctx.get("git_sha") == run_ctx.get("git_sha") and
                         ctx.get("machine_id") == run_ctx.get("machine_id"),
                         os.path.basename(p), p))
    return max(same)[2] if same else None


# --- this machine -------------------------------------------------------------------------

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


def this_machine(results_dir=RESULTS_DIR, build_dir=BUILD_DIR, explicit=None):
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


def source_sha():
    """The checkout's commit as the C++ writes it (12 hex digits, -dirty when modified), for the
    documents the Python tools write; 'unknown' outside a git checkout."""
    def git(*args):
        return subprocess.run(["git", "-C", REPO, *args], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=False)
    head = git("rev-parse", "--short=12", "HEAD")
    if head.returncode != 0:
        return "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + ("-dirty" if dirty else "")
