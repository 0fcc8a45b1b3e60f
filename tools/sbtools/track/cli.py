"""tools/track: benchmark history across CI runs: record, gate, change points, dashboard."""
import argparse
import datetime as dt
import json
import os
import sys
import textwrap
import time

from sbtools import paths

from . import TrackError, ab, attribution, fingerprint, gate, history, importers, store, summary
from .store import DuplicateRun

PROG = "tools/track"
EPILOG = f"""\
store: --db PATH (SQLite, WAL) or --db postgresql://user@host/db (shared by many machines);
default ${store.DB_ENV}, else $XDG_DATA_HOME/soapbench/track.sqlite
(~/.local/share/soapbench/track.sqlite). The result files in git stay the source of truth:
`import results` rebuilds a store from them.

examples:
  tools/track import results                      # the committed history
  tools/track record build/results/*.json         # after ctest -L bench (tools/run_bench.sh does)
  tools/track gate build/icount.json              # a pull request's counts against the history
  tools/track changes --limit 10                  # newest change points first
  tools/track site build/track-site               # the dashboard (open index.html)
  tools/track ab ../base/build build              # timing A/B of two build trees (no store)
  tools/track prune --keep-runs 200               # retention: the newest 200 runs a suite
  tools/track zoo --help                          # the regression zoo: which gate catches what
"""


MACHINE_HELP = ("the machine of the files (default: their hardware, CPU model, cores and caches; "
                "a file without machine_id needs it)")


SITE_DOC = """\
Writes the static dashboard of the store into OUT: it opens from disk (no server, no internet).
index.html lists the machines (fingerprint, runs, the results/ ids and compilers behind each),
the open regressions (series whose newest change point made them worse, after the suite's
multiplicity), the gate's last verdicts with their blind spots, and the newest change points;
one page per machine and suite (paged, open regressions first) draws every
series over its runs with its noise bands and change points, with a filter box that searches
every page. Charts: Chart.js 3.9.1 from Debian's libjs-chart.js, copied into OUT.
Pages an earlier build wrote into OUT and this one does not are removed.
"""


class Progress:
    """A line on stderr at most every few seconds, for long runs."""

    def __init__(self, what, every=3.0):
        self.what, self.every = what, every     # the label, seconds between lines
        self.last = time.monotonic()            # when the last line went out

    def __call__(self, done, total):
        now = time.monotonic()
        if now - self.last >= self.every or done == total:
            print(f"{PROG}: {self.what}: {done}/{total}", file=sys.stderr, flush=True)
            self.last = now


def _read_all(paths, machine):
    runs, failed = [], 0
    for path in paths:
        try:
            runs.append(importers.read(path, machine))
        except TrackError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            failed += 1
    return runs, failed


def _environment(run, probe, cache):
    """What recording adds to a run: git facts always; this machine and its packages when the
    file was measured here, recently (fingerprint.measured_here)."""
    env = {"build": run.build, "git": cache.setdefault(("git", run.commit),
                                                       fingerprint.git_facts(run.commit))}
    if probe:
        if "machine" not in cache:
            cache["machine"] = fingerprint.machine()
        if fingerprint.measured_here(run.context, run.date, cache["machine"]):
            if "packages" not in cache:
                exes = sorted({e for e in cache.get("executables", []) if e})
                cache["packages"] = fingerprint.packages(exes)
            env["machine"] = cache["machine"]
            env["packages"], env["package_sources"] = cache["packages"]
    env["job"] = fingerprint.job()
    return env


def cmd_record(args, db):
    runs, failed = _read_all(args.files, args.machine)
    importers.resolve_machines(runs, db.machine_of)
    importers.fill_from_siblings(runs, args.commit or fingerprint.head_commit() or "unknown",
                                 store.now_utc())
    cache = {"executables": [r.context.get("executable") for r in runs]}
    recorded = 0
    for run in runs:
        if args.commit:
            run.commit = args.commit
        env = _environment(run, not args.no_probe, cache)
        env["git"] = dict(env["git"], **{k: v for k, v in (("branch", args.branch),
                                                           ("merge_base", args.merge_base))
                                         if v})
        try:
            run_id = db.add_run(run, env)
        except DuplicateRun as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            continue
        except TrackError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            failed += 1
            continue
        recorded += 1
        print(f"recorded {run.source}: {run.suite} of machine {run.machine}, commit {run.commit}, "
              f"{len(run.samples)} series (run {run_id})")
    print(f"{PROG}: {recorded} runs recorded into {db.name}" +
          (f", {failed} files refused" if failed else ""))
    return 1 if failed else 0


def cmd_import(args, db):
    if not os.path.isdir(args.dir):
        raise TrackError(f"{args.dir}: not a folder")
    paths = importers.stored_files(args.dir)
    runs, failed = _read_all(paths, None)
    importers.resolve_machines(runs, db.machine_of)
    importers.fill_from_siblings(runs)
    runs = [r for r in runs if r.commit and r.date]
    runs.sort(key=lambda r: (r.date, r.source))
    cache, recorded, known = {}, 0, 0
    progress = Progress("import")
    for i, run in enumerate(runs):
        env = _environment(run, False, cache)
        env["imported_from"] = os.path.relpath(run.source, args.dir)
        try:
            db.add_run(run, env)
            recorded += 1
        except DuplicateRun:
            known += 1
        except TrackError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            failed += 1
        progress(i + 1, len(runs))
    print(f"{PROG}: imported {recorded} runs from {args.dir} into {db.name}"
          f" ({known} already there" + (f", {failed} files refused" if failed else "") + ")")
    return 1 if failed else 0


def cmd_gate(args, db):
    head, failed = _read_all(args.files, args.machine)
    base, failed_base = _read_all(args.base or [], args.machine)
    if failed or failed_base:
        return 2
    importers.resolve_machines(head + base, db.machine_of)
    importers.fill_from_siblings(head, fingerprint.head_commit() or "unknown", store.now_utc())
    importers.fill_from_siblings(base, "unknown", store.now_utc())
    cache = {"executables": [r.context.get("executable") for r in head]}
    env = _environment(head[0], not args.no_probe, cache)
    base_commit = args.base_commit or env["git"].get("merge_base")
    result = gate.run_gate(db, head, env, base, base_commit,
                           args.results_dir or None, args.allow_empty)
    if env["git"].get("no_merge_base") and not base_commit:
        result.notes.append(("warning", env["git"]["no_merge_base"]))
    out = sys.stderr if args.json == "-" else sys.stdout  # stdout: the JSON alone
    for line in summary.text(result):
        print(line, file=out)
    md = summary.publish(result, args.markdown, out)
    if args.json:
        summary.write_json(result, args.json)
    if not args.no_save:
        db.add_verdict(result.machine, result.head_commit, result.base_commit, result.verdict, md,
                       summary.stored(result))
    return result.exit_code


def analysed(db, args):
    series = history.load(db, db.resolve_machine(args.machine), args.suite,
                          [args.metric] if getattr(args, "metric", None) else None,
                          getattr(args, "benchmark", None))
    return history.detect(db, series, args.jobs, Progress("change points"))


def change_groups(db, series):
    """[(after RunRow, before RunRow, [(Series, Change)], changed fields)] newest first: change
    points of one machine and suite between the same two runs, together."""
    groups = {}
    for x in series:
        for c in x.changes:
            before, after = x.runs[c.index - 1], x.runs[c.index]
            groups.setdefault((x.machine, x.suite, before.id, after.id), []).append((x, c))
    out = []
    for (_m, _s, _b, _a), items in groups.items():
        x0, c0 = items[0]
        before, after = x0.runs[c0.index - 1], x0.runs[c0.index]
        _ctx_b, env_b = db.run_details(before.id)
        _ctx_a, env_a = db.run_details(after.id)
        timing = any(not x.exact for x, _c in items)
        changed = attribution.diff(
            attribution.fields(env_b.get("build"), env_b, timing, before.build_key),
            attribution.fields(env_a.get("build"), env_a, timing, after.build_key))
        out.append((after, before, items, changed))
    out.sort(key=lambda g: (g[0].date, g[0].id), reverse=True)
    return out


def cmd_changes(args, db):
    series = analysed(db, args)
    groups = change_groups(db, series)
    weak = sum(len(x.weak) for x in series)
    if args.json:
        print(json.dumps([{
            "machine": a.machine, "suite": a.suite, "from_commit": b.commit, "to_commit": a.commit,
            "from_date": b.date, "to_date": a.date, "changed": changed,
            "series": [{"benchmark": x.benchmark, "metric": x.metric, "shift": c.shift,
                        "low": c.low, "high": c.high, "p": c.p, "suite_p": c.q,
                        "regression": c.regression}
                       for x, c in items]} for a, b, items, changed in groups[:args.limit]],
            indent=1))
        return 0
    if not groups:
        print("no change points")
    for after, before, items, changed in groups[:args.limit]:
        worse = sum(1 for _x, c in items if c.regression)
        print(f"{after.date} {after.machine} {after.suite}: {before.commit}..{after.commit}: "
              f"{len(items)} series moved ({worse} worse)")
        commits = attribution.commits_between(before.commit, after.commit, 5)
        what = attribution.describe(changed)
        print(f"  changed: {what or 'no build or machine field'}" +
              (f"; commits: {', '.join(s for s, _t in commits)}" if commits else ""))
        shown = items if args.all else sorted(items, key=lambda i: -abs(i[1].shift))[:5]
        for x, c in shown:
            ci = f" [{c.low * 100:+.1f}%, {c.high * 100:+.1f}%]" if c.low != c.high else ""
            p = f" p={c.p:.3f}" if c.p is not None else ""
            q = f" ({c.q:.2g} over the suite)" if c.q is not None else ""
            print(f"  {c.shift * 100:+6.2f}%{ci}{p}{q}  {x.benchmark} ({x.metric})")
        if len(shown) < len(items):
            print(f"  ... {len(items) - len(shown)} more (--all)")
    if weak:
        print(f"{weak} more change points of measured series are below their suite's "
              f"multiplicity (Benjamini-Hochberg at {history.SUITE_FDR:g} over the suite): the "
              "noise of this many series, not listed")
    return 0


def cmd_prune(args, db):
    if args.keep_runs is None and args.older_than is None and args.keep_verdicts is None:
        raise TrackError("prune: say what to keep (--keep-runs N, --older-than DAYS, "
                         "--keep-verdicts N)")
    if any(v is not None and v < 0 for v in (args.keep_runs, args.older_than,
                                              args.keep_verdicts)):
        raise TrackError("prune: --keep-runs, --older-than and --keep-verdicts take a number >= 0")
    before = None
    if args.older_than is not None:
        before = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=args.older_than)) \
            .strftime(store.DATE_FORMAT)
    was = db.size()
    counts = db.prune(args.keep_runs, before, args.keep_verdicts, args.dry_run)
    what = (f"{counts['runs']} runs ({counts['samples']:,} samples), {counts['series']} series "
            f"left without runs, {counts['verdicts']} verdicts")
    if args.dry_run:
        print(f"{PROG}: would remove {what} from {db.name} (--dry-run: nothing removed)")
        return 0
    now = db.size()
    size = f"; {was / 2**20:.1f} MB -> {now / 2**20:.1f} MB" if was and now is not None else ""
    print(f"{PROG}: removed {what} from {db.name}{size}")
    return 0


def cmd_site(args, db):
    from . import site  # only this verb needs the templates
    series = analysed(db, args)
    pages = site.build(db, series, args.out, change_groups(db, series))
    print(f"{PROG}: dashboard in {args.out} ({pages} pages): open {os.path.join(args.out, 'index.html')}")
    return 0


def parser():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", metavar="PATH|URL", default=None,
                    help="the store: a SQLite file or postgresql://... (default: see below)")
    sub = ap.add_subparsers(dest="verb", required=True, metavar="VERB")

    p = sub.add_parser("import", help="load stored result files (results/) into the store",
                       description="Loads every result file of a results/ folder (tools/results' "
                                   "layout: results/<machine>/, results/icount/<key>/; baselines "
                                   "are copies and are skipped) into the store, oldest first. "
                                   "Files already recorded are skipped, so import is repeatable.")
    p.add_argument("dir", help="the results folder, e.g. results")
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("record", help="store the result files of one run",
                       description="Stores the result files of one run (Google Benchmark JSON, "
                                   "tools/icount files, the matrices), each in one transaction, "
                                   "with this machine's fingerprint and Debian package versions "
                                   "when the files were measured here. A file already recorded "
                                   "is reported and skipped.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--machine", metavar="ID", help=MACHINE_HELP)
    p.add_argument("--commit", metavar="SHA", help="the measured commit (default: the files' git_sha)")
    p.add_argument("--branch", help="the branch (default: from the CI environment or git)")
    p.add_argument("--merge-base", metavar="SHA", help="the pull request's merge base")
    p.add_argument("--no-probe", action="store_true",
                   help="do not record this machine's fingerprint and packages")
    p.set_defaults(run=cmd_record)

    p = sub.add_parser("gate", help="judge a run against the history (exit 1 on a regression)",
                       description=gate.__doc__.replace("MIN_REPS", str(gate.MIN_REPS))
                       .replace("TIMING_FDR", str(gate.TIMING_FDR)),
                       epilog="exit codes:\n" + "\n".join(
                           textwrap.fill(f"{code}  {text}", 96, subsequent_indent="   ")
                           for code, text in gate.EXIT_CODES.items()),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="the head's result files")
    p.add_argument("--base", action="append", metavar="FILE",
                   help="a base run measured in this job, interleaved with the head's (repeat: "
                        "base1 head1 base2 head2 ...); makes timings gate")
    p.add_argument("--base-commit", metavar="SHA",
                   help="compare with runs of this commit (default: the merge base, if known: "
                        "GITHUB_BASE_REF, CI_MERGE_REQUEST_DIFF_BASE_SHA)")
    p.add_argument("--machine", metavar="ID", help=MACHINE_HELP)
    p.add_argument("--markdown", metavar="FILE", help="write the pull-request comment here")
    p.add_argument("--json", metavar="FILE",
                   help="write the verdict as JSON here ('-': standard output, the text then "
                        "goes to standard error)")
    p.add_argument("--allow-empty", action="store_true",
                   help="nothing to compare with (an empty store, a cache miss) passes (exit 0) "
                        "instead of failing (exit 3)")
    p.add_argument("--results-dir", metavar="DIR", default=paths.RESULTS_DIR,
                   help="where the committed baselines are, results/icount/<build-key>/"
                        "baseline.json and results/callcount/<build-key>/baseline.json "
                        "(default: the checkout's results/; '' for none)")
    p.add_argument("--no-save", action="store_true", help="do not keep the verdict in the store")
    p.add_argument("--no-probe", action="store_true", help="do not read this machine's packages")
    p.set_defaults(run=cmd_gate)

    p = sub.add_parser("prune", help="remove old runs and verdicts (retention)",
                       description="Keeps the store small: removes the runs beyond the newest N "
                                   "of each machine and suite, or older than DAYS, with their "
                                   "samples, the series left without runs and their cached "
                                   "change points, and the gate's verdicts beyond the newest N; "
                                   "then gives the space back (SQLite: VACUUM). One "
                                   "transaction. The result files in git stay the source of "
                                   "truth: `import` brings pruned runs back.",
                       epilog="examples:\n  tools/track prune --keep-runs 200 --keep-verdicts "
                              "500   # before a CI saves the store as its cache\n"
                              "  tools/track prune --older-than 365 --dry-run",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--keep-runs", type=int, metavar="N",
                   help="keep the newest N runs of each machine and suite")
    p.add_argument("--older-than", type=float, metavar="DAYS",
                   help="remove runs dated more than DAYS days ago")
    p.add_argument("--keep-verdicts", type=int, metavar="N", help="keep the newest N verdicts")
    p.add_argument("--dry-run", action="store_true", help="say what would go; remove nothing")
    p.set_defaults(run=cmd_prune)

    sub.add_parser("zoo", help="the regression zoo: planted patches built and gated, which "
                               "gate caught each (tools/track zoo --help)", add_help=False)

    for name, helptext in (("changes", "the change points found, newest first"),
                           ("site", "write the static dashboard")):
        doc = history.__doc__ if name == "changes" else SITE_DOC
        p = sub.add_parser(name, help=helptext, description=doc,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "site":
            p.add_argument("out", help="output folder (index.html and one page per machine)")
        p.add_argument("--machine", metavar="ID", help="only this machine")
        p.add_argument("--suite", help="only this suite (parse_bench, icount, ...)")
        p.add_argument("--jobs", type=int, default=None,
                       help="processes for change-point detection (default: the CPUs)")
        if name == "changes":
            p.add_argument("--metric", help="only this metric (real_time, instructions, ...)")
            p.add_argument("--benchmark", help="only this benchmark")
            p.add_argument("--limit", type=int, default=20, help="groups shown (default 20)")
            p.add_argument("--all", action="store_true", help="every series of each group")
            p.add_argument("--json", action="store_true", help="machine-readable output")
        p.set_defaults(run=cmd_changes if name == "changes" else cmd_site)
    ab.add_parser(sub)  # tools/track ab: its own module, no store
    return ap


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["zoo"]:  # its own command line (sbtools/zoo/cli.py); it needs no store
        from sbtools.zoo import cli as zoo_cli
        return zoo_cli.main(argv[1:])
    args = parser().parse_args(argv)
    try:
        if getattr(args, "no_store", False):
            return args.run(args)
        create = args.verb in ("import", "record", "gate")  # prune: an existing store only
        with store.open_store(args.db, create=create) as db:
            return args.run(args, db)
    except TrackError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; every run recorded so far is complete", file=sys.stderr)
        return 130
