"""tools/icount: instructions per iteration of parse_bench benchmarks, measured by callgrind.

Runs build/bench/parse_bench --iterations=N --no-pin under
`valgrind --tool=callgrind --collect-atstart=no`: parse_bench switches collection on only
around each benchmark's timed loop and dumps once per benchmark, so every dump's `totals`
is N iterations of one benchmark. Same binary + same inputs = the same counts, which makes
this the regression gate for noisy (shared, virtual) CI machines.

Determinism: parse_bench runs from fixed-length paths (symlinks in /tmp/sb-icount-XXXXXXXX)
with a fixed environment, symbols bound at start-up (LD_BIND_NOW) and an LD_PRELOAD shim,
tools/icount_shim.c (compiled with cc on the fly), that pins time(), getloadavg() and
arc4random_buf()/getrandom() (libxml2 seeds its hashes from time(), Expat salts its hash per
document; Qt's QHash seed is fixed by QT_HASH_SEED=0 in the environment) and replaces the
allocator under parse_bench's counting hooks with one whose cost and addresses do not depend
on the heap's history: with glibc's malloc, adding a corpus file or lengthening the version
string moved counts of untouched benchmarks by up to 14%; with the
shim, by at most about 0.2% (pointer-order comparisons remain). The allocator cost inside
these counts is therefore the shim's (a few dozen instructions a call), not glibc's.
"""
import argparse
import datetime as dt
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from sbtools import buildkey, cachecost, gbench, paths, store

# decode of four seed messages in every family for every adapter, plus the 64 KB response at
# every level (parse, walk, decode: the report's walk/parse and decode/parse instruction ratios;
# adapters and the direct-call references): a few minutes under callgrind here. Names are
# level/adapter/family/message; the family segment is matched, not listed (codecs/family.h is
# the one list of families).
DEFAULT_FILTER = (r"^(decode/[^/]+/[^/]+"
                  r"/(getRate\.call|add\.call|complex\.call|respond\.7500B\.response)"
                  r"|(parse|walk|decode)/[^/]+/[^/]+"
                  r"/respond\.64KB\.response)(/iterations:[0-9]+)?$")

EPILOG = f"""\
output: results/icount/<build-key>/<date>_<sha>.json (or --out FILE):
  {{"context": {{... parse_bench's Google Benchmark context ...}},
   "instructions": {{"<benchmark name>": <instructions per iteration>, ...}},
   "estimated_cycles": {{"<benchmark name>": <estimated cycles per iteration>, ...}},
   "icount": {{"iterations": N, "filter": "...", "valgrind": "..."}}}}
benchmark names are parse_bench's (as in the callgrind dumps, without Google Benchmark's
/iterations:N suffix; tools/compare strips that suffix anyway), so counts made with different
--iterations compare per iteration.

default filter:
  {DEFAULT_FILTER}

CI gate (instruction counts, +1%):
  tools/icount --out build/icount.json && tools/compare --against-baseline build/icount.json
  (the baseline: results/icount/<build-key>/baseline.json, set by tools/results baseline --icount;
  the build key names what decides the counts: compiler, library versions, glibc, the
  instruction-set level under valgrind, simdjson's kernel, valgrind; not the CPU or host)
"""

# The determinism shim (tools/icount_shim.c, LD_PRELOADed into parse_bench): fixed time and
# randomness, and an allocator whose cost and addresses do not depend on the heap's history.
SHIM_SOURCE = os.path.join(paths.REPO, "tools", "icount_shim.c")
# --plant-no-reuse: loaded in front of the shim, a free that frees nothing (the gate's test of
# estimated cycles: same instructions, cold memory).
NO_REUSE_SOURCE = os.path.join(paths.REPO, "tools", "icount_plant_noreuse.c")


def build_shim(work, source=SHIM_SOURCE, name="libsbfix.so"):
    """Compiles the shim (or another preload) into work/; returns the .so path, or None (no C
    compiler)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return None
    so = os.path.join(work, name)
    proc = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", so, source],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout)
    return so if proc.returncode == 0 else None


_LDD = re.compile(r"^\s*(?:\S+ => )?(/\S+) \(0x[0-9a-f]+\)$")
_HWCAPS = re.compile(r"^\s*(x86-64-v\d|[\w-]+) \(supported")


def probe_runtime(bench, valgrind):
    """What, besides parse_bench's own context, decides its instruction counts: the shared
    objects it loads (their real file names carry the versions), glibc's version, the
    instruction-set level glibc sees under valgrind (valgrind presents a CPU of its own, so this
    is not the host's) and valgrind's version. See sbtools.buildkey.icount_build."""
    def run(cmd):
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              check=False, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}).stdout
    libs, loader = [], None
    for line in run(["ldd", bench]).splitlines():
        m = _LDD.match(line)
        if m:
            libs.append(os.path.basename(os.path.realpath(m.group(1))))
            if "ld-linux" in m.group(1) or "/ld-" in m.group(1):
                loader = m.group(1)
    levels = []
    if loader:
        # `ld.so --help` lists the glibc-hwcaps levels this CPU supports, best first.
        levels = [m.group(1) for line in run([valgrind, "--tool=none", "-q", loader, "--help"])
                  .splitlines() if (m := _HWCAPS.match(line))]
    return {"isa_level": levels[0] if levels else "unknown",
            "glibc": os.confstr("CS_GNU_LIBC_VERSION") or "unknown",
            "valgrind": run([valgrind, "--version"]).strip(),
            "shared_libraries": sorted(libs)}


_DESC = re.compile(r"^desc: Trigger: Client Request: (.*)$")
_TOTALS = re.compile(r"^(?:totals|summary): (\d+(?: \d+)*)")


def parse_dump(path):
    """(benchmark name, {event: total}) of one callgrind dump (Ir; with the cache simulation also
    Dr, Dw and the misses), or None for other dumps."""
    name = total = None
    names = ["Ir"]
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if name is None:
                m = _DESC.match(line.rstrip("\n"))
                if m:
                    name = m.group(1).strip()
                    continue
            if line.startswith("events:"):
                names = line.split()[1:]
            m = _TOTALS.match(line)
            if m:
                total = [int(v) for v in m.group(1).split()]  # totals: comes last; keep it
    if name is None or total is None:
        return None
    return name, cachecost.events(names, total)


def collect(out_dir):
    """{benchmark name: {event: total}} from every dump callgrind wrote into out_dir."""
    counts = {}
    for p in sorted(glob.glob(os.path.join(out_dir, "cg.*"))):
        got = parse_dump(p)
        if got:
            name, total = got
            if name in counts:
                raise gbench.ResultError(f"{name}: dumped twice (repetitions?)")
            counts[name] = total
    return counts


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="tools/icount", description="I" + __doc__.split(": i", 1)[1],
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--filter", default=DEFAULT_FILTER, metavar="REGEX",
                    help="Google Benchmark --benchmark_filter (default: the representative "
                         "subset below)")
    ap.add_argument("--iterations", type=int, default=10, metavar="N",
                    help="iterations per benchmark (default 10)")
    ap.add_argument("--bench", default=os.path.join(paths.BUILD_DIR, "bench", "parse_bench"),
                    help="the parse_bench binary (default build/bench/parse_bench; build it "
                         "RelWithDebInfo, the release preset)")
    ap.add_argument("--set", default="default", help="parse_bench --set (default: default)")
    ap.add_argument("--corpus", help="parse_bench --corpus=DIR")
    ap.add_argument("--out", metavar="FILE",
                    help="write here instead of results/icount/<build-key>/<date>_<sha>.json")
    ap.add_argument("--results-dir", default=paths.RESULTS_DIR, help="the results/ folder")
    ap.add_argument("--keep", metavar="DIR",
                    help="copy callgrind's dumps (cg.*) and parse_bench's JSON into DIR")
    ap.add_argument("--quiet", action="store_true", help="no per-benchmark table")
    ap.add_argument("--no-cache-sim", dest="cache_sim", action="store_false",
                    help="no cache simulation (about half the time; no estimated_cycles)")
    ap.add_argument("--plant-no-reuse", action="store_true",
                    help="a planted change for the cache cost's gate test: a freed block is "
                         "never reused (tools/icount_plant_noreuse.c: about the same "
                         "instructions, colder memory)")
    args = ap.parse_args(argv)
    if args.iterations < 1:
        ap.error("--iterations must be >= 1")
    return args


def prepare(args, work):
    """(environment, shim or None) for parse_bench in work/: every path it sees has the same
    length on every machine and checkout (a fixed /tmp/sb-icount-XXXXXXXX folder with
    symlinks), and the environment is fixed: string lengths move heap blocks, and heap addresses
    change instruction counts."""
    corpus = os.path.abspath(args.corpus or os.environ.get("SOAPBENCH_CORPUS") or
                             os.path.join(paths.REPO, "corpus"))
    os.symlink(os.path.abspath(args.bench), os.path.join(work, "parse_bench"))
    os.symlink(corpus, os.path.join(work, "corpus"))
    # LD_BIND_NOW: symbols are bound at start-up, not by the first benchmark that calls them
    # (which one that is depends on the set and the order).
    # QT_HASH_SEED=0: Qt seeds QHash (QDomDocument's attribute maps) from its random generator,
    # which may use RDRAND and so pass by the shim; unseeded, qt6/dom's counts moved by 1.3%.
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "LD_BIND_NOW": "1", "QT_HASH_SEED": "0"}
    shim = build_shim(work)
    if shim:
        env["LD_PRELOAD"] = shim
        if getattr(args, "plant_no_reuse", False):
            env["LD_PRELOAD"] = build_shim(work, NO_REUSE_SOURCE, "libsbplant.so") + ":" + shim
    else:
        print("tools/icount: warning: no determinism shim (no C compiler, or it failed); libxml2 "
              "and Expat counts will vary from run to run, others with the heap's history",
              file=sys.stderr)
    return env, shim


def count(args, valgrind, work, env):
    """({benchmark: {event: total}}, parse_bench's JSON document) of one run under callgrind in
    work/; ResultError when it fails."""
    gb_json = os.path.join(work, "gb.json")
    cmd = [valgrind, "--tool=callgrind", "--collect-atstart=no",
           *(cachecost.CALLGRIND_OPTIONS if args.cache_sim else []),
           f"--callgrind-out-file={os.path.join(work, 'cg.%p')}",
           os.path.join(work, "parse_bench"), f"--iterations={args.iterations}", "--no-pin",
           f"--set={args.set}", f"--corpus={os.path.join(work, 'corpus')}",
           f"--benchmark_filter={args.filter}",
           f"--benchmark_out={gb_json}", "--benchmark_out_format=json"]
    print("tools/icount: " + " ".join(cmd[:4]) + " " + " ".join(cmd[4:7]) + " ...",
          file=sys.stderr)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              check=False, env=env)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr[-4000:])
            raise gbench.ResultError(f"parse_bench exited {proc.returncode} under valgrind")
        counts = collect(work)
        doc = gbench.load_json(gb_json)
    finally:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for f in glob.glob(os.path.join(work, "cg.*")) + [gb_json]:
                if os.path.exists(f):
                    shutil.copy(f, args.keep)
    if not counts:
        raise gbench.ResultError(f"no benchmark matched --filter {args.filter!r}")
    errors = [r.name for r in gbench.results_of(doc).values() if r.error]
    if errors:
        raise gbench.ResultError(f"{len(errors)} benchmarks failed, e.g. {errors[0]}")
    return counts, doc


def count_doc(args, valgrind, counts, doc, shim, seconds):
    """The tools/icount document (per iteration counts, the build and its key)."""
    ctx = dict(gbench.context(doc))
    ctx["executable"] = os.path.abspath(args.bench)  # not the symlink it ran as
    runtime = probe_runtime(os.path.abspath(args.bench), valgrind)
    build = buildkey.icount_build(ctx, runtime)
    out = {
        "context": ctx,
        "instructions": {name: ev["Ir"] / args.iterations for name, ev in counts.items()},
        "icount": {"iterations": args.iterations, "filter": args.filter, "set": args.set,
                   "valgrind": runtime["valgrind"], "tool": "callgrind --collect-atstart=no",
                   "determinism_shim": bool(shim), "benchmarks": len(counts),
                   "seconds": round(seconds, 1), "build_key": buildkey.icount_build_key(build),
                   "build": build},
    }
    cycles = {name: cachecost.estimated_cycles(ev) for name, ev in counts.items()}
    if all(c is not None for c in cycles.values()):
        out["estimated_cycles"] = {name: c / args.iterations for name, c in cycles.items()}
        out["icount"]["cache_sim"] = {"geometry": cachecost.GEOMETRY,
                                      "formula": cachecost.FORMULA}
    if args.plant_no_reuse:
        out["icount"]["plant"] = "no-reuse"
    return out


def out_path(args, doc, key):
    """--out, else results/icount/<build-key>/<date>_<sha>.json."""
    if args.out:
        return args.out
    try:
        stamp = gbench.utc_stamp(doc)
    except gbench.ResultError:
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    return os.path.join(store.icount_dir(args.results_dir, key), f"{stamp}_{gbench.safe_sha(doc)}.json")


def main(argv=None):
    args = parse_args(argv)
    if not os.access(args.bench, os.X_OK):
        print(f"tools/icount: {args.bench} is missing: build it first "
              "(cmake --workflow --preset bench, or cmake --build build --target parse_bench)",
              file=sys.stderr)
        return 2
    valgrind = shutil.which("valgrind")
    if not valgrind:
        print("tools/icount: valgrind is not installed (tools/setup.sh installs it)",
              file=sys.stderr)
        return 2
    started = time.time()
    work = tempfile.mkdtemp(prefix="sb-icount-", dir="/tmp")
    try:
        env, shim = prepare(args, work)
        counts, doc = count(args, valgrind, work, env)
    except gbench.ResultError as e:
        print(f"tools/icount: {e}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out_doc = count_doc(args, valgrind, counts, doc, shim, time.time() - started)
    key = out_doc["icount"]["build_key"]
    out = out_path(args, doc, key)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(out_doc, f, indent=1, sort_keys=False)
        f.write("\n")
    if not args.quiet:
        width = max(len(n) for n in counts)
        cycles = out_doc.get("estimated_cycles", {})
        for name, ev in sorted(counts.items()):
            est = f"  {cycles[name]:>14,.0f} est. cycles" if name in cycles else ""
            print(f"{name:<{width}}  {ev['Ir'] / args.iterations:>14,.0f}{est}")
    print(f"tools/icount: {len(counts)} benchmarks x {args.iterations} iterations in "
          f"{time.time() - started:.0f} s -> {paths.rel(out)} (build {key})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
