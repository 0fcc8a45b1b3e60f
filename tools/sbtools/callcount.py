"""tools/callcount: the whole call's exact counts, per side (docs/results.md "callcount").

Runs build/bench/callcount three times, each time on one CPU with the servers' threads above the
client's at SCHED_FIFO priority (so the order of events, and every count, is the same on every
run of the same build): under callgrind (user-space instructions and mutex locks per call on
each side; the determinism shim and fixed paths of tools/icount), under strace (system calls per
call on each side, by name), and alone (allocations, voluntary context switches, bytes on the
wire each way). Writes one Google Benchmark-shaped file: per row and side,
callcount/<side>/<variant>/<family>/<adapter>/<call> with those counters, which tools/track
records and gates (any change in system calls or bytes is named; instructions beyond max(0.5%,
the series' noise floor)).
"""
import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from sbtools import buildkey, callcount_read, gbench, icount, paths, store

EPILOG = """\
output: results/callcount/<build-key>/<date>_<sha>.json (or --out FILE): parse_bench's context
facts, "benchmarks" with one entry per row and side (counters per call: instructions,
lock_calls, syscalls, syscalls:<name>, allocs_per_call, voluntary_switches, and on the client's
row request_bytes, response_bytes), and "callcount": how it was counted, the build and its key
(tools/icount's facts, for the callcount binary).

needs: valgrind, strace, chrt and taskset (util-linux), and the right to use SCHED_FIFO (root, or
CAP_SYS_NICE); --no-realtime runs without priorities, and its counts may then vary.

CI gate (tools/run_tests.sh):
  tools/callcount --out build/callcount-gate.json && tools/gate_counts.sh build/callcount-gate.json
  (tools/track gate against results/callcount/<build-key>/baseline.json, set by
  tools/callcount --baseline; recorded into the history only when it passed)
"""

STRACE_PRIORITY = 3  # strace above the servers (2) and the client (1): it runs at every stop


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="tools/callcount", description="T" + __doc__[len("tools/callcount: t"):],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.path.join(paths.BUILD_DIR, "bench", "callcount"),
                    help="the callcount binary (default build/bench/callcount, the release preset)")
    ap.add_argument("--calls", type=int, default=20, metavar="N",
                    help="counted calls per row (default 20; 1..89)")
    ap.add_argument("--rows", metavar="REGEX", help="only rows whose id matches (callcount --list)")
    ap.add_argument("--corpus", help="the corpus folder (default: corpus/)")
    ap.add_argument("--cpu", type=int, help="the CPU to run on (default: the last one allowed)")
    ap.add_argument("--plant", metavar="NAME[,NAME]", help="a planted change (tests; callcount --help)")
    ap.add_argument("--no-realtime", action="store_true",
                    help="no SCHED_FIFO ordering (no root): counts may vary from run to run")
    ap.add_argument("--out", metavar="FILE",
                    help="write here instead of results/callcount/<build-key>/<date>_<sha>.json")
    ap.add_argument("--baseline", action="store_true",
                    help="also make the file results/callcount/<build-key>/baseline.json")
    ap.add_argument("--results-dir", default=paths.RESULTS_DIR, help="the results/ folder")
    ap.add_argument("--keep", metavar="DIR", help="keep callgrind's dumps and strace's log in DIR")
    ap.add_argument("--quiet", action="store_true", help="no table")
    args = ap.parse_args(argv)
    if not 1 <= args.calls <= 89:
        ap.error("--calls must be 1..89")
    return args


def bench_args(args, work):
    """The callcount command line every pass shares."""
    out = [f"--calls={args.calls}", f"--corpus={os.path.join(work, 'corpus')}",
           f"--cpu={args.cpu}"]
    if args.rows:
        out.append(f"--rows={args.rows}")
    if args.plant:
        out.append(f"--plant={args.plant}")
    if args.no_realtime:
        out.append("--no-realtime")
    return out


def run(cmd, env, what):
    print(f"tools/callcount: {what}: {' '.join(cmd[:3])} ...", file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=False, env=env, timeout=1800)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise gbench.ResultError(f"{what}: exit {proc.returncode}")
    return proc


def pass_callgrind(args, work, env, valgrind):
    """{window name: (instructions, lock calls)} over the window's calls."""
    folder = os.path.join(work, "callgrind")
    os.makedirs(folder)
    cmd = [valgrind, "--tool=callgrind", "--separate-threads=yes",
           "--vgdb=no", f"--callgrind-out-file={os.path.join(folder, 'cg.%p')}",
           os.path.join(work, "callcount"), *bench_args(args, work)]
    run(cmd, env, "instructions and locks (callgrind)")
    return callcount_read.read_dumps(folder)


def pass_strace(args, work, env, strace):
    """{window name: Counter(system call: count)} over the window's calls."""
    log = os.path.join(work, "strace.log")
    cmd = [strace, "-f", "-qq", "-s", "256", "-o", log, os.path.join(work, "callcount"),
           *bench_args(args, work)]
    if not args.no_realtime:
        cmd = ["chrt", "-f", str(STRACE_PRIORITY), "taskset", "-c", str(args.cpu)] + cmd
    run(cmd, env, "system calls (strace)")
    return callcount_read.read_strace(log)


def pass_alone(args, work, env):
    """callcount's own document: allocations, context switches, wire bytes, times."""
    out = os.path.join(work, "alone.json")
    run([os.path.join(work, "callcount"), *bench_args(args, work), f"--out={out}"], env,
        "allocations, switches and bytes (no tool)")
    return gbench.load_json(out)


def merge(doc, counts, syscalls, calls):
    """Adds the callgrind and strace counts, per call, to each benchmark of callcount's document;
    ResultError when a window is missing from either."""
    for b in doc["benchmarks"]:
        name = b["name"]
        if name not in counts or name not in syscalls:
            raise gbench.ResultError(f"{name}: no {'callgrind' if name not in counts else 'strace'} "
                                     "window for it")
        instructions, locks = counts[name]
        b["instructions"] = instructions / calls
        b["lock_calls"] = locks / calls
        b["syscalls"] = sum(syscalls[name].values()) / calls
        for call, n in sorted(syscalls[name].items()):
            b[f"syscalls:{call}"] = n / calls
    return doc


def prepare(args, work):
    """(environment for callgrind, environment for the others, shim or None): callcount runs from
    fixed-length paths in work/ (symlinks) with a fixed environment, as tools/icount's parse_bench
    (string lengths move heap blocks, and heap addresses change instruction counts); only the
    callgrind pass gets the determinism shim (its allocator and pinned randomness are for
    instruction counts; the system calls and allocations counted are the real allocator's)."""
    corpus = os.path.abspath(args.corpus or os.environ.get("SOAPBENCH_CORPUS") or paths.CORPUS_DIR)
    os.symlink(os.path.abspath(args.bench), os.path.join(work, "callcount"))
    os.symlink(corpus, os.path.join(work, "corpus"))
    plain = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "LD_BIND_NOW": "1", "QT_HASH_SEED": "0"}
    shim = icount.build_shim(work)
    if not shim:
        print("tools/callcount: warning: no determinism shim (no C compiler, or it failed): "
              "instruction counts may vary", file=sys.stderr)
    return dict(plain, **({"LD_PRELOAD": shim} if shim else {})), plain, shim


def needed_tools(args):
    """{name: path} of the programs the passes run; ResultError naming what is missing."""
    names = ["valgrind", "strace"] + ([] if args.no_realtime else ["chrt", "taskset"])
    found = {n: shutil.which(n) for n in names}
    missing = [n for n, p in found.items() if not p]
    if missing:
        raise gbench.ResultError(f"{', '.join(missing)} not installed (tools/setup.sh installs them)")
    return found


def count_doc(args, doc, shim, valgrind, seconds):
    """callcount's document with the tool's facts: how it counted, the build and its key."""
    ctx = dict(gbench.context(doc))
    ctx["executable"] = os.path.abspath(args.bench)  # not the symlink it ran as
    doc["context"] = ctx
    runtime = icount.probe_runtime(os.path.abspath(args.bench), valgrind)
    build = buildkey.icount_build(ctx, runtime)
    doc["callcount"] = {
        "calls": args.calls, "rows": args.rows or "", "plant": args.plant or "",
        "realtime": not args.no_realtime, "determinism_shim": bool(shim),
        "tool": "callgrind --separate-threads=yes; strace -f; alone",
        "valgrind": runtime["valgrind"], "benchmarks": len(doc["benchmarks"]),
        "seconds": round(seconds, 1), "build_key": buildkey.icount_build_key(build),
        "build": build,
    }
    return doc


def out_path(args, doc):
    if args.out:
        return args.out
    try:
        stamp = gbench.utc_stamp(doc)
    except gbench.ResultError:
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    folder = store.callcount_dir(args.results_dir, doc["callcount"]["build_key"])
    return os.path.join(folder, f"{stamp}_{gbench.safe_sha(doc)}.json")


def print_table(doc):
    """One line per row: each side's instructions, system calls, allocations, switches, locks,
    and the bytes each way."""
    rows = {}
    for b in doc["benchmarks"]:
        side, row = b["name"].split("/", 2)[1:]
        rows.setdefault(row, {})[side] = b
    print(f"{'row':<52} {'instr c/s':>17} {'sys c/s':>9} {'alloc c/s':>11} {'vcsw c/s':>8} "
          f"{'lock c/s':>8} {'bytes out/in':>13}")
    for row, s in rows.items():
        c, v = s["client"], s["server"]
        pair = lambda key, fmt: f"{fmt(c[key])}/{fmt(v[key])}"  # noqa: E731
        print(f"{row:<52} {pair('instructions', lambda x: f'{x:,.0f}'):>17} "
              f"{pair('syscalls', lambda x: f'{x:g}'):>9} "
              f"{pair('allocs_per_call', lambda x: f'{x:g}'):>11} "
              f"{pair('voluntary_switches', lambda x: f'{x:g}'):>8} "
              f"{pair('lock_calls', lambda x: f'{x:g}'):>8} "
              f"{c['request_bytes']:>6g}/{c['response_bytes']:<6g}")


def count(args, work):
    """The merged document of the three passes in work/."""
    tools = needed_tools(args)
    if args.cpu is None:
        args.cpu = max(os.sched_getaffinity(0))
    cg_env, env, shim = prepare(args, work)
    started = time.time()
    counts = pass_callgrind(args, work, cg_env, tools["valgrind"])
    syscalls = pass_strace(args, work, env, tools["strace"])
    doc = merge(pass_alone(args, work, env), counts, syscalls, args.calls)
    return count_doc(args, doc, shim, tools["valgrind"], time.time() - started)


def main(argv=None):
    args = parse_args(argv)
    if not os.access(args.bench, os.X_OK):
        print(f"tools/callcount: {args.bench} is missing: build it first "
              "(cmake --build --preset release --target callcount)", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="sb-callcount-", dir="/tmp")
    try:
        doc = count(args, work)
    except (gbench.ResultError, subprocess.TimeoutExpired) as e:
        print(f"tools/callcount: {e}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            shutil.copytree(work, args.keep, dirs_exist_ok=True, symlinks=True)
        shutil.rmtree(work, ignore_errors=True)
    out = out_path(args, doc)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    if args.baseline:
        base = os.path.join(store.callcount_dir(args.results_dir, doc["callcount"]["build_key"]),
                            "baseline.json")
        os.makedirs(os.path.dirname(base), exist_ok=True)
        shutil.copyfile(out, base)
        print(f"tools/callcount: baseline {paths.rel(base)}")
    if not args.quiet:
        print_table(doc)
    meta = doc["callcount"]
    print(f"tools/callcount: {meta['benchmarks']} benchmarks ({args.calls} calls each) in "
          f"{meta['seconds']:.0f} s -> {paths.rel(out)} (build {meta['build_key']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
