"""tools/track zoo: the regression zoo. Applies each planted patch (tests/data/zoo/) to a copy
of the tree (a git worktree of HEAD in a temporary folder, each patch a commit on top of HEAD),
builds it with ccache (the release preset, the gates' targets only), runs the exact-count gates
of the test command on it (tools/callcount and tools/icount, each judged by tools/track gate
against the unpatched tree's counts measured in the same study) and reports which gate caught
it, by which counts, on which commit, and how long the check took; plus A/A runs (the
unpatched tree counted again and judged the same way) for false alarms. Timing is not judged
here: what only a timing gate can see escapes, and the table says so. The copy is of HEAD:
commit what the study should see (the patches themselves are read from --dir as they are)."""
import argparse
import os
import shlex
import sys
import tempfile
import time

from sbtools import paths

from . import gates, patches, table
from .tree import Tree, TreeError

PROG = "tools/track zoo"
EPILOG = """\
output: OUT/zoo.md (the table) and OUT/zoo.json (every outcome, the moves, the seconds), written
after every patch so a stopped study keeps what it measured; OUT/zoo.log (builds, counts, gates).

examples:
  tools/track zoo                       # every patch, both gates (about an hour here)
  tools/track zoo --stop-at-first       # a patch's later gates skipped once one caught it
  tools/track zoo --gates callcount --patches nagle-left-on,dispatch-lock   # what CI runs
  tools/track zoo --list                # the patches and whether they apply

exit codes:
""" + "\n".join(f"  {c}  {t}" for c, t in table.EXIT_CODES.items())


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__, epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--patches", metavar="NAME[,NAME]",
                    help="only these patches (default: every tests/data/zoo/*.patch)")
    ap.add_argument("--dir", default=patches.ZOO_DIR,
                    help="the patches' folder (default: %(default)s)")
    ap.add_argument("--gates", default=",".join(gates.ORDER), metavar="GATE[,GATE]",
                    help="the gates, run in this order: " + "; ".join(
                        f"{g.name}: {g.what}" for g in gates.GATES.values()) +
                    " (default: %(default)s)")
    ap.add_argument("--aa", type=int, default=1, metavar="N",
                    help="A/A runs: the unpatched tree counted N more times and gated (default 1)")
    ap.add_argument("--stop-at-first", action="store_true",
                    help="a patch's later gates are skipped once one caught it (faster; the "
                         "table then names the first gate only)")
    ap.add_argument("--budget", type=float, default=7200, metavar="SECONDS",
                    help="no patch is started after this many seconds (default %(default)s); "
                         "the rest are reported 'not run' (exit 3)")
    ap.add_argument("--out", default=os.path.join(paths.BUILD_DIR, "zoo"), metavar="DIR",
                    help="where zoo.md, zoo.json and zoo.log go (default: build/zoo)")
    ap.add_argument("--keep-tree", action="store_true", help="keep the temporary worktree")
    ap.add_argument("--list", action="store_true",
                    help="list the patches and whether each applies to the work tree; "
                         "build nothing")
    args = ap.parse_args(argv)
    args.gates = [g for g in args.gates.split(",") if g]
    unknown = [g for g in args.gates if g not in gates.GATES]
    if unknown or not args.gates:
        ap.error(f"unknown gate {', '.join(unknown) or '(none)'}: "
                 f"choose from {', '.join(gates.GATES)}")
    if args.aa < 0 or args.budget <= 0:
        ap.error("--aa must be 0 or more and --budget positive")
    args.names = [n for n in (args.patches or "").split(",") if n]
    return args


def list_patches(chosen):
    bad = 0
    for p in chosen:
        why = patches.check_applies(p)
        bad += why is not None
        state = "applies" if why is None else "DOES NOT APPLY: " + why
        print(f"{p.name:32} {state}\n    {p.description}")
    return 2 if bad else 0


def reference(tree, chosen_gates, db, out, log, aa_runs):
    """Counts the unpatched tree: the reference (recorded at HEAD), then aa_runs A/A runs."""
    for g in chosen_gates:
        t0 = time.monotonic()
        counts = os.path.join(out, f"reference.{g.name}.json")
        gates.count(g, tree.path, counts, log)
        gates.record(tree.path, db, counts, log)
        gates.progress(f"reference: {g.name} counted in {time.monotonic() - t0:.0f} s")
    aa = []
    for i in range(aa_runs):
        for g in chosen_gates:
            o = gates.check(g, tree.path, db, tree.head, out, f"aa{i + 1}", log)
            aa.append(o)
            gates.progress(f"A/A {i + 1}/{aa_runs}: {g.name}: {o.status} "
                           f"({o.verdict or o.detail}) in {o.seconds:.0f} s")
    return aa


def study(tree, chosen, chosen_gates, args, out, log, started, write):
    """Every patch applied, built and gated in turn; results filled in as they come."""
    db = os.path.join(tree.folder, "zoo.sqlite")
    targets = sorted({t for g in chosen_gates for t in g.targets})
    results = [table.PatchResult(p.name, p.description, run=False) for p in chosen]
    secs = tree.build(targets, log)
    gates.progress(f"HEAD {tree.head[:12]} built in {secs:.0f} s ({', '.join(targets)})")
    aa = reference(tree, chosen_gates, db, out, log, args.aa)
    write(results, aa)
    for i, (p, r) in enumerate(zip(chosen, results)):
        if time.monotonic() - started > args.budget:
            gates.progress(f"budget of {args.budget:.0f} s spent: "
                           f"{len(chosen) - i} patches not run")
            break
        r.run = True
        try:
            r.commit = tree.apply(p)
            r.build_seconds = tree.build(targets, log)
        except TreeError as e:
            r.error = str(e)
        for g in ([] if r.error else chosen_gates):
            o = gates.check(g, tree.path, db, tree.head, out, p.name, log)
            r.outcomes.append(o)
            if args.stop_at_first and o.status == "caught":
                break
        gates.progress(f"[{i + 1}/{len(chosen)}] {p.name}: {r.verdict()}"
                       f"{' by ' + ', '.join(r.caught_by()) if r.caught_by() else ''}"
                       f"{': ' + r.error if r.error else ''} (build {r.build_seconds:.0f} s, "
                       f"gates {r.seconds() - r.build_seconds:.0f} s)")
        write(results, aa)
    tree.reset()
    return results, aa


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        chosen = patches.load(args.dir, args.names)
    except (patches.PatchError, OSError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    if args.list:
        return list_patches(chosen)
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    log = os.path.join(out, "zoo.log")
    open(log, "w").close()
    given = sys.argv[1:] if argv is None else argv
    command = "tools/track zoo " + " ".join(shlex.quote(a) for a in given)
    chosen_gates = [gates.GATES[g] for g in args.gates]
    started = time.monotonic()
    head = ""

    def write(results, aa):
        table.write(os.path.join(out, "zoo.md"), os.path.join(out, "zoo.json"), results, aa,
                    head, args.gates, command.strip())

    try:
        with Tree(keep=args.keep_tree) as tree:
            head = tree.head
            gates.progress(f"{len(chosen)} patches, gates {', '.join(args.gates)}, worktree "
                           f"{tree.path}; log {log}")
            results, aa = study(tree, chosen, chosen_gates, args, out, log, started, write)
    except (TreeError, gates.GateError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    write(results, aa)
    print("\n".join(table.markdown(results, aa, head, args.gates, command.strip())))
    print(f"{PROG}: {time.monotonic() - started:.0f} s; table in {out}/zoo.md, zoo.json")
    return table.exit_code(results, aa)
