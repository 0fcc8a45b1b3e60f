"""tools/results: the per-machine result store, results/<machine-id>/.

  save       copy build/results/*.json there as <date>_<sha>.<bench>.json (unmodified;
             the matrices and load runs as <date>_<sha>.<kind>.json, every run's kept;
             tools/icount files go to results/icount/<build-key>/, keyed by build, not machine)
  baseline   set baseline.<bench>.json from a stored run (only ever by this command)
  list       what is stored: runs, baselines, instruction counts, the report
"""
import argparse
import filecmp
import glob
import os
import shutil
import sys
from collections import Counter

from sbtools import buildkey, gbench, paths, store

EPILOG = """\
file names: <date>_<sha>.<bench>.json, date = the run's UTC date (Google Benchmark's context
date) as YYYYMMDD-HHMMSS, sha = the context git_sha, bench = parse_bench or roundtrip_bench;
the folder is the context machine_id (CPU model, core count, caches, compiler). The matrices
and load runs (soapbench conformance/interop --json, tools/server_load, tools/load_bench,
tools/wild --json) are kept per run too, as <date>_<sha>.<kind>.json with kind conformance,
conformance_suites, interop, server_load, load_bench or wild (date: the document's, else the file's modification time); tools/report reads the
newest of each.

examples:
  tools/results save                         # after ctest -L bench / tools/run_bench.sh
  tools/results list
  tools/results baseline                     # the newest run of every bench becomes the baseline
  tools/results baseline 20250101-120000_0123abcd4567   # every bench file of that run
  tools/results baseline results/<machine>/20250101-120000_0123abcd4567.parse_bench.json
  tools/results baseline --icount            # newest results/icount/<build-key>/*.json
                                             #   -> results/icount/<build-key>/baseline.json
  tools/results baseline --icount build/icount.json   # or a given tools/icount file
"""


def save_sources(args):
    """The files `save` stores: those named, else every *.json of --from (build/results)."""
    if args.files:
        return args.files
    src = args.source or os.path.join(args.build_dir, "results")
    if not os.path.isdir(src):
        return []
    return sorted(p for p in (os.path.join(src, f) for f in os.listdir(src) if f.endswith(".json"))
                  if os.path.isfile(p))


def copy_once(p, dest):
    """Copies p to dest unless dest holds it already: 'saved', 'already', or 'conflict' (dest
    exists with other content: refused)."""
    if os.path.exists(dest):
        if filecmp.cmp(p, dest, shallow=False):
            print(f"already saved: {paths.rel(dest)}")
            return "already"
        print(f"tools/results: refusing {paths.rel(p)}: {paths.rel(dest)} exists with other content",
              file=sys.stderr)
        return "conflict"
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(p, dest)
    print(f"saved {paths.rel(p)} -> {paths.rel(dest)}")
    return "saved"


def save_machine_doc(args, p, doc):
    """A matrix (hostile inputs, interop) or load run: kept per run in the machine folder as
    <date>_<sha>.<kind>.json, so every run's stays (the report reads the newest)."""
    mid = store.machine_doc_id(doc)
    if not mid:
        print(f"tools/results: refusing {paths.rel(p)}: no machine_id", file=sys.stderr)
        return "conflict"
    dest = os.path.join(args.results_dir, mid, store.machine_file_name(doc, p))
    return copy_once(p, dest)


def run_dest(args, p, doc):
    """Where a benchmark run (results/<machine>/) or a count file (results/icount/<key>/) goes."""
    mid = gbench.machine_id(doc)
    if gbench.is_icount(doc):
        name = f"{gbench.utc_stamp(doc)}_{gbench.safe_sha(doc)}.json"
        key = buildkey.icount_key(doc)  # keyed by build; older files by machine
        folder = store.icount_dir(args.results_dir, key) if key else \
            os.path.join(args.results_dir, mid, "icount")
        return os.path.join(folder, name)
    return os.path.join(args.results_dir, mid, store.run_file_name(doc, p))


def majority_machine(docs):
    """The machine id most of the runs name, None on a tie."""
    ids = Counter(gbench.machine_id(d) for _p, d in docs)
    if not ids:
        return None, ids
    (top, n), *rest = ids.most_common()
    return (top if not rest or n > rest[0][1] else None), ids


def readable_runs(args, files, outcomes):
    """[(path, doc)] of the benchmark runs and count files to store; other tools' documents are
    stored on the way, and every refusal is appended to outcomes."""
    docs = []
    for p in files:
        try:
            doc = gbench.load_json(p)
        except gbench.ResultError as e:
            print(f"tools/results: skipping {e}", file=sys.stderr)
            outcomes.append("conflict")
            continue
        if isinstance(doc, dict) and doc.get("tool") in store.MACHINE_FILES:
            outcomes.append(save_machine_doc(args, p, doc))
        elif not gbench.is_gb(doc) and not gbench.is_icount(doc):
            print(f"tools/results: skipping {paths.rel(p)}: neither Google Benchmark JSON nor a "
                  "tools/icount file", file=sys.stderr)
        elif not gbench.machine_id(doc):
            print(f"tools/results: refusing {paths.rel(p)}: no machine_id in its context",
                  file=sys.stderr)
            outcomes.append("conflict")
        elif gbench.is_gb(doc) and not doc["benchmarks"]:
            print(f"tools/results: skipping {paths.rel(p)}: no benchmarks in it", file=sys.stderr)
        else:
            docs.append((p, doc))
    return docs


def cmd_save(args):
    files = save_sources(args)
    if not files:
        print(f"tools/results: no result files in "
              f"{paths.rel(args.source or os.path.join(args.build_dir, 'results'))}", file=sys.stderr)
        return 1
    outcomes = []
    docs = readable_runs(args, files, outcomes)
    majority, ids = majority_machine(docs)
    for p, doc in docs:
        mid = gbench.machine_id(doc)
        if mid != majority:
            others = ", ".join(sorted(i for i in ids if i != mid))
            print(f"tools/results: refusing {paths.rel(p)}: machine_id {mid} differs from the "
                  f"other files' ({others})", file=sys.stderr)
            outcomes.append("conflict")
            continue
        if gbench.context(doc).get("build") == "debug":
            print(f"tools/results: warning: {paths.rel(p)} comes from a debug build", file=sys.stderr)
        try:
            outcomes.append(copy_once(p, run_dest(args, p, doc)))
        except gbench.ResultError as e:
            print(f"tools/results: refusing {paths.rel(p)}: {e}", file=sys.stderr)
            outcomes.append("conflict")
    if "conflict" not in outcomes and "saved" not in outcomes:
        print("nothing new to save")
    return 1 if "conflict" in outcomes else 0


def _machine(args):
    return store.this_machine(args.results_dir, args.build_dir, args.machine)


def cmd_baseline_icount(args):
    """icount/<build-key>/baseline.json from a tools/icount file (default: the newest stored)."""
    stored = store.stored_icount_files(args.results_dir)
    if args.run is None:
        if not stored:
            print(f"tools/results: no instruction counts in {paths.rel(args.results_dir)}/icount/ "
                  "(run tools/icount)", file=sys.stderr)
            return 1
        src = stored[-1]
    elif os.path.isfile(args.run):
        src = args.run
    else:
        hits = [p for p in stored if os.path.basename(p).startswith(args.run)]
        if len(hits) != 1:
            print(f"tools/results: {args.run!r} matches {len(hits)} files in "
                  f"{paths.rel(args.results_dir)}/icount/", file=sys.stderr)
            return 1
        src = hits[0]
    doc = gbench.load_json(src)
    if not gbench.is_icount(doc):
        print(f"tools/results: {paths.rel(src)} is not a tools/icount file", file=sys.stderr)
        return 1
    key = buildkey.icount_key(doc)
    if not key:
        print(f"tools/results: {paths.rel(src)} has no build key (written by an older tools/icount): "
              "count again with tools/icount", file=sys.stderr)
        return 1
    dest = os.path.join(store.icount_dir(args.results_dir, key), "baseline.json")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(src, dest)
    print(f"baseline {paths.rel(dest)} <- {paths.rel(src)} ({len(doc['instructions'])} benchmarks, "
          f"build {key}: {doc['icount']['build'].get('compiler', '?')}, "
          f"{doc['icount']['build'].get('isa_level', '?')})")
    return 0


def cmd_baseline(args):
    if args.icount:
        return cmd_baseline_icount(args)
    mid = _machine(args)
    mdir = os.path.join(args.results_dir, mid)
    runs = store.run_files(mdir)
    chosen = []  # paths
    if args.run is None:
        if not runs:
            print(f"tools/results: no stored runs for machine {mid} (run tools/results save first)",
                  file=sys.stderr)
            return 1
        chosen = list(store.newest_runs(mdir).values())
    elif os.path.isfile(args.run):
        chosen = [args.run]
    else:
        chosen = [p for stamp, sha, _b, p in runs
                  if os.path.basename(p).startswith(args.run) or f"{stamp}_{sha}" == args.run]
        if not chosen:
            print(f"tools/results: no stored run matches {args.run!r} in {paths.rel(mdir)} "
                  "(see tools/results list)", file=sys.stderr)
            return 1
        benches = Counter(store.parse_run_file_name(os.path.basename(p))[2] for p in chosen)
        if any(n > 1 for n in benches.values()):
            print(f"tools/results: {args.run!r} matches several runs of one bench: "
                  + ", ".join(os.path.basename(p) for p in chosen), file=sys.stderr)
            return 1
    for p in chosen:
        doc = gbench.load_json(p)
        if not gbench.is_gb(doc):
            print(f"tools/results: {paths.rel(p)} is not Google Benchmark JSON", file=sys.stderr)
            return 1
        if gbench.machine_id(doc) != mid:
            print(f"tools/results: {paths.rel(p)} was measured on machine {gbench.machine_id(doc)}, "
                  f"not {mid}", file=sys.stderr)
            return 1
        bench = gbench.bench_kind(doc, p)
        dest = os.path.join(mdir, f"baseline.{bench}.json")
        os.makedirs(mdir, exist_ok=True)
        shutil.copyfile(p, dest)
        reps = max((r.reps for r in gbench.results_of(doc).values()), default=0)
        print(f"baseline {paths.rel(dest)} <- {os.path.basename(p)} "
              f"({len(gbench.results_of(doc))} benchmarks, {reps} repetitions)")
        if reps < 5:
            print("  note: fewer than 5 repetitions: tools/compare will call every timing "
                  "comparison against it inconclusive")
    return 0


def _describe(path):
    try:
        doc = gbench.load_json(path)
    except gbench.ResultError:
        return "unreadable"
    res = gbench.results_of(doc)
    reps = max((r.reps for r in res.values()), default=0)
    ctx = gbench.context(doc)
    return (f"set={ctx.get('bench_set', '?')} {len(res)} benchmarks, {reps} rep(s), "
            f"{ctx.get('build', '?')}")


def cmd_list(args):
    dirs = store.machine_dirs(args.results_dir)
    if args.machine:
        dirs = [d for d in dirs if d == args.machine]
    if not dirs:
        print(f"no machines in {paths.rel(args.results_dir)}")
        list_icount_builds(args.results_dir)
        return 0
    try:
        here = store.this_machine(args.results_dir, args.build_dir, None)
    except gbench.ResultError:
        here = None
    for mid in dirs:
        mdir = os.path.join(args.results_dir, mid)
        runs = store.run_files(mdir)
        first = gbench.load_json(runs[-1][3]) if runs else {}
        ctx = gbench.context(first)
        mark = "  (this machine)" if mid == here else ""
        print(f"{mid}{mark}: {ctx.get('cpu_model', '?')}, {ctx.get('cpu_cores', '?')} cores, "
              f"{ctx.get('compiler', '?')}")
        baselines = {}
        for b in gbench.BENCHES:
            bp = os.path.join(mdir, f"baseline.{b}.json")
            if os.path.exists(bp):
                baselines[b] = bp
        for stamp, sha, bench, p in runs:
            is_base = bench in baselines and filecmp.cmp(p, baselines[bench], shallow=False)
            print(f"  {os.path.basename(p):<60} {_describe(p)}{'  [baseline]' if is_base else ''}")
        for b, bp in baselines.items():
            if not any(bench == b and filecmp.cmp(p, bp, shallow=False) for _s, _h, bench, p in runs):
                print(f"  baseline.{b}.json  ({_describe(bp)}; not among the stored runs)")
        if not baselines:
            print("  no baseline (tools/results baseline [RUN] sets one)")
        for tool in store.MACHINE_FILES:
            kept = store.machine_files(mdir, tool)
            if kept:
                print(f"  {store.MACHINE_KINDS[tool]}: {len(kept)} kept, newest "
                      f"{os.path.basename(kept[-1])}")
        icounts = sorted(f for f in os.listdir(os.path.join(mdir, "icount"))
                         if f.endswith(".json")) if os.path.isdir(os.path.join(mdir, "icount")) else []
        for f in icounts:
            print(f"  icount/{f}")
        if os.path.exists(os.path.join(mdir, "report.md")):
            print(f"  report: {paths.rel(os.path.join(mdir, 'report.md'))}")
    list_icount_builds(args.results_dir)
    return 0


def list_icount_builds(results_dir):
    """Prints results/icount/<build-key>/: each build's facts, runs and baseline."""
    for bdir in sorted(glob.glob(os.path.join(results_dir, "icount", "*", ""))):
        files = sorted(f for f in os.listdir(bdir) if f.endswith(".json"))
        base = os.path.join(bdir, "baseline.json")
        build = {}
        for f in ([base] if os.path.exists(base) else []) + [os.path.join(bdir, f) for f in files]:
            try:
                build = gbench.load_json(f).get("icount", {}).get("build", {})
                break
            except gbench.ResultError:
                continue
        libs = ", ".join(f"{k} {v}" for k, v in sorted(build.get("libraries", {}).items()))
        print(f"icount build {os.path.basename(os.path.dirname(bdir))}: {build.get('compiler', '?')}"
              f", {build.get('glibc', '?')}, {build.get('isa_level', '?')}, "
              f"simdjson {'/'.join(build.get('simdjson_kernels', [])) or '?'}; {libs}")
        for f in files:
            p = os.path.join(bdir, f)
            mark = "  [baseline]" if f != "baseline.json" and os.path.exists(base) and \
                filecmp.cmp(p, base, shallow=False) else ""
            print(f"  {f}{mark}")


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="tools/results", description="The per-machine result store, results/<machine-id>/:"
                                           + __doc__.split("results/<machine-id>/.", 1)[1],
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results-dir", default=paths.RESULTS_DIR,
                    help="the store (default: results/ in the repository)")
    ap.add_argument("--build-dir", default=paths.BUILD_DIR,
                    help="the build tree whose results/ and bench/parse_bench identify this "
                         "machine (default: build/)")
    ap.add_argument("--machine", metavar="ID", help="machine id (default: this machine)")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("save", help="copy build/results/*.json into results/<machine-id>/",
                       description="Copy Google Benchmark JSON files unmodified into "
                                   "results/<machine_id>/<date>_<sha>.<bench>.json (the matrices "
                                   "and load runs into <date>_<sha>.<kind>.json beside them; "
                                   "tools/icount "
                                   "files into results/icount/<build-key>/<date>_<sha>.json). "
                                   "Files whose machine_id differs from the others' are refused "
                                   "(exit 1); a file already saved is skipped.")
    p.add_argument("--from", dest="source", metavar="DIR",
                   help="folder to save from (default: <build-dir>/results)")
    p.add_argument("files", nargs="*", help="save these files instead of the folder's")
    p = sub.add_parser("baseline", help="set baseline.<bench>.json explicitly",
                       description="Copy a stored run to results/<machine>/baseline.<bench>.json. "
                                   "RUN: a stored file, a run prefix such as "
                                   "20250101-120000_<sha> (every bench of that run), or nothing "
                                   "(the newest stored file of every bench).")
    p.add_argument("--icount", action="store_true",
                   help="set results/icount/<build-key>/baseline.json instead (the build key "
                        "is the file's), from RUN = a tools/icount file or a name prefix in "
                        "results/icount/*/ (default: the newest there)")
    p.add_argument("run", nargs="?", metavar="RUN")
    sub.add_parser("list", help="list machines, runs, baselines, icount files and reports")
    args = ap.parse_args(argv)
    try:
        return {"save": cmd_save, "baseline": cmd_baseline, "list": cmd_list}[args.command](args)
    except gbench.ResultError as e:
        print(f"tools/results: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
