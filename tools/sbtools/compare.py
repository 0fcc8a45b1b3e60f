"""tools/compare: the regression gate. Compares two result files benchmark by benchmark.

Timing files (Google Benchmark JSON with repetitions): a two-sided Mann-Whitney U test over
the repetitions' real_time; instruction-count files (tools/icount): a deterministic
comparison. Exit 1 when any benchmark regressed, 0 otherwise (2 on bad usage or input).
"""
import argparse
import glob
import json
import math
import os
import re
import sys

from sbtools import buildkey, gbench, paths, stats, store

ALPHA = stats.RANK_ALPHA
MIN_REPS = 3
DEFAULT_TIME_PCT = 5.0
DEFAULT_ICOUNT_PCT = 1.0

EPILOG = f"""\
verdicts, timing files (per benchmark, over the per-repetition `run_type: iteration` entries):
  regression    p <= {ALPHA} (Mann-Whitney U, two-sided) and median slowdown >= threshold
  improvement   p <= {ALPHA} and median speed-up >= threshold (new/base - 1 <= -threshold)
  same          p > {ALPHA}, or the change is under the threshold
  inconclusive  a side has fewer than {MIN_REPS} repetitions, or the two sample sizes are too
                small for any ordering to reach p <= {ALPHA} (3 against 3 cannot: use 5 or more)
  error         the benchmark failed in one of the files
verdicts, instruction-count files (tools/icount; deterministic, no statistics):
  regression / improvement when instructions per iteration grow / shrink by >= threshold

thresholds (percent): --threshold (default {DEFAULT_TIME_PCT:g} for times, {DEFAULT_ICOUNT_PCT:g} for
instructions), overridden per benchmark by results/thresholds.json (or --thresholds FILE):
  {{"^roundtrip/": 10, "^decode/xerces-": 8, "icount": {{"^parse/": 2}}}}
the first pattern (re.search on the benchmark name) that matches wins; the "icount" section
applies to instruction-count files, the other keys to timing files.

Benchmarks are paired by name without Google Benchmark's /iterations:N suffix.

the gate fails closed (exit 1, one line saying why): with --against-baseline, a named file that
is missing, unreadable, truncated or empty, one that holds no benchmarks or no counts, or an
instruction-count file that lacks benchmarks its baseline has. A benchmark removed on purpose is
named in the baseline's "removed" object (results/icount/<build-key>/baseline.json):
  "removed": {{"decode/old-adapter/xmlrpc/add.call": "adapter retired in <commit>"}}

examples:
  tools/compare results/<machine>/baseline.parse_bench.json build/results/parse_bench.json
  tools/compare results/icount/<build-key>/baseline.json build/icount.json
  tools/compare --against-baseline build/results/parse_bench.json build/results/roundtrip_bench.json
                                            # what `ctest -L bench` runs last (bench.compare)
"""


def load_thresholds(path, explicit):
    """(timing rules, icount rules): lists of (compiled regex, percent)."""
    if not path or not os.path.exists(path):
        if explicit:
            raise gbench.ResultError(f"{path}: no such thresholds file")
        return [], []
    doc = gbench.load_json(path)
    if not isinstance(doc, dict):
        raise gbench.ResultError(f"{path}: expected a JSON object of regex -> percent")

    def rules(obj, where):
        out = []
        for pattern, pct in obj.items():
            if not isinstance(pct, (int, float)) or isinstance(pct, bool) or pct < 0:
                raise gbench.ResultError(f"{path}: {where}{pattern!r}: threshold must be a percent >= 0")
            try:
                out.append((re.compile(pattern), float(pct)))
            except re.error as e:
                raise gbench.ResultError(f"{path}: {where}{pattern!r}: bad regex: {e}") from e
        return out

    icount = doc.get("icount", {})
    if not isinstance(icount, dict):
        raise gbench.ResultError(f'{path}: "icount" must be an object of regex -> percent')
    timing = {k: v for k, v in doc.items() if k != "icount"}
    return rules(timing, ""), rules(icount, "icount: ")


def threshold_for(name, rules, default):
    for rx, pct in rules:
        if rx.search(name):
            return pct
    return default


def min_p_value(n1, n2):
    """Smallest two-sided p the exact Mann-Whitney U test can give for these sizes."""
    return min(1.0, 2.0 / math.comb(n1 + n2, n1))


def verdict_for(change_pct, p, threshold):
    if p is None or p > ALPHA or abs(change_pct) < threshold:
        return "same"
    return "regression" if change_pct > 0 else "improvement"


def compare_timing(base_doc, new_doc, rules, default_pct):
    base = {gbench.pair_name(k): v for k, v in gbench.results_of(base_doc).items()}
    new = {gbench.pair_name(k): v for k, v in gbench.results_of(new_doc).items()}
    rows = []
    for name, n in new.items():
        b = base.get(name)
        if b is None:
            continue
        thr = threshold_for(name, rules, default_pct)
        if b.error or n.error:
            rows.append(dict(name=name, base=b.time, new=n.time, change=None, p=None,
                             verdict="error", threshold=thr,
                             note=(n.error or b.error)))
            continue
        bt, nt = b.time, n.time
        change = (nt / bt - 1) * 100 if bt and nt else None
        p = None
        if b.reps < MIN_REPS or n.reps < MIN_REPS or min_p_value(b.reps, n.reps) > ALPHA:
            verdict = "inconclusive"
            note = f"{b.reps} vs {n.reps} repetitions"
        else:
            p = 1.0 if b.times == n.times else stats.mann_whitney_p(b.times, n.times)
            verdict = verdict_for(change or 0.0, p, thr)
            note = ""
        rows.append(dict(name=name, base=bt, new=nt, change=change, p=p, verdict=verdict,
                         threshold=thr, note=note))
    return rows, sorted(set(base) - set(new)), sorted(set(new) - set(base))


def compare_icount(base_doc, new_doc, rules, default_pct):
    base = {gbench.pair_name(k): float(v) for k, v in base_doc["instructions"].items()}
    new = {gbench.pair_name(k): float(v) for k, v in new_doc["instructions"].items()}
    rows = []
    for name, nv in new.items():
        bv = base.get(name)
        if bv is None:
            continue
        thr = threshold_for(name, rules, default_pct)
        change = (nv / bv - 1) * 100 if bv > 0 else (0.0 if nv == bv else math.inf)
        if change >= thr and nv != bv:
            verdict = "regression"
        elif change <= -thr and nv != bv:
            verdict = "improvement"
        else:
            verdict = "same"
        rows.append(dict(name=name, base=bv, new=nv, change=change, p=None, verdict=verdict,
                         threshold=thr, note=""))
    return rows, sorted(set(base) - set(new)), sorted(set(new) - set(base))


def fmt_time(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_count(v):
    return "-" if v is None else f"{v:,.0f}"


def print_table(rows, icount, out):
    width = max([len("benchmark")] + [len(r["name"]) for r in rows])
    width = min(width, 90)
    fmt_v = fmt_count if icount else fmt_time
    head = "instr/iter" if icount else "median"
    out.write(f"{'benchmark':<{width}}  {'base ' + head:>14}  {'new ' + head:>14}  "
              f"{'change':>8}  {'p':>7}  verdict\n")
    for r in sorted(rows, key=lambda r: r["name"]):
        name = r["name"] if len(r["name"]) <= width else "…" + r["name"][-(width - 1):]
        change = "-" if r["change"] is None else f"{r['change']:+.2f}%"
        p = "-" if r["p"] is None else f"{r['p']:.4f}"
        verdict = r["verdict"]
        if verdict in ("regression", "improvement"):
            verdict += f" (>= {r['threshold']:g}%)"
        if r["note"]:
            verdict += f" [{r['note']}]"
        out.write(f"{name:<{width}}  {fmt_v(r['base']):>14}  {fmt_v(r['new']):>14}  "
                  f"{change:>8}  {p:>7}  {verdict}\n")


def kinds_of(base_path, base_doc, new_path, new_doc):
    """'icount' or 'timing' for a pair of documents of one kind; ResultError otherwise."""
    kinds = ["icount" if gbench.is_icount(d) else "timing" if gbench.is_gb(d) else None
             for d in (base_doc, new_doc)]
    for path, kind in zip((base_path, new_path), kinds):
        if kind is None:
            raise gbench.ResultError(f"{path}: neither Google Benchmark JSON nor a tools/icount file")
    if kinds[0] != kinds[1]:
        raise gbench.ResultError(f"cannot compare a {kinds[0]} file with a {kinds[1]} file")
    return kinds[0]


def print_header(base_path, base_doc, new_path, new_doc, icount, out):
    mid_b, mid_n = gbench.machine_id(base_doc), gbench.machine_id(new_doc)
    out.write(f"base: {paths.rel(base_path)}  ({gbench.context(base_doc).get('git_sha', '?')}, "
              f"machine {mid_b or '?'})\n")
    out.write(f"new:  {paths.rel(new_path)}  ({gbench.context(new_doc).get('git_sha', '?')}, "
              f"machine {mid_n or '?'})\n")
    key_b, key_n = (buildkey.icount_key(d) if icount else None for d in (base_doc, new_doc))
    if key_b and key_n:
        if key_b != key_n:
            out.write(f"WARNING: the counts come from different builds ({key_b}, {key_n}): "
                      + "; ".join(buildkey.build_differences(new_doc["icount"].get("build", {}),
                                                             base_doc["icount"].get("build", {}))[:6])
                      + "\n")
    elif mid_b and mid_n and mid_b != mid_n:
        out.write("WARNING: the files come from different machines; absolute numbers are not "
                  "comparable across machines\n")


def missing_counts(base_doc, removed):
    """The baseline's benchmarks a count file lacks that the baseline does not mark removed on
    purpose (its "removed" object: name -> why)."""
    on_purpose = base_doc.get("removed") if isinstance(base_doc.get("removed"), dict) else {}
    return [n for n in removed if n not in on_purpose]


def print_summary(rows, removed, added, icount, out):
    """The verdict counts, the geometric mean and the unpaired names; returns (counts, geomean)."""
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    ratios = [r["new"] / r["base"] for r in rows
              if r["verdict"] != "error" and r["base"] and r["new"]]
    gm = stats.geomean(ratios)
    summary = ", ".join(f"{counts[k]} {k}" for k in
                        ("regression", "improvement", "same", "inconclusive", "error") if k in counts)
    out.write(f"\n{len(rows)} paired benchmarks: {summary or 'none'}\n")
    if gm is not None:
        out.write(f"geometric mean of new/base ({'instructions' if icount else 'median real time'}"
                  f", {len(ratios)} benchmarks): {gm:.4f} ({(gm - 1) * 100:+.2f}%)\n")
    if removed:
        out.write(f"{len(removed)} only in base (not compared), e.g. {removed[0]}\n")
    if added:
        out.write(f"{len(added)} only in new (not compared), e.g. {added[0]}\n")
    if counts.get("inconclusive") and not icount:
        out.write("note: inconclusive = too few repetitions for a p <= 0.01; run the benchmarks "
                  "with --benchmark_repetitions=5 (or more) on both sides\n")
    return counts, gm


def compare_files(base_path, new_path, args, out=sys.stdout):
    """Prints the comparison; returns the number of failures: regressions and, for instruction
    counts, the baseline's benchmarks missing from the new file (not marked removed)."""
    base_doc, new_doc = gbench.load_json(base_path), gbench.load_json(new_path)
    icount = kinds_of(base_path, base_doc, new_path, new_doc) == "icount"
    timing_rules, icount_rules = load_thresholds(args.thresholds, args.thresholds_explicit)
    print_header(base_path, base_doc, new_path, new_doc, icount, out)
    if icount:
        default = args.threshold if args.threshold is not None else DEFAULT_ICOUNT_PCT
        rows, removed, added = compare_icount(base_doc, new_doc, icount_rules, default)
    else:
        default = args.threshold if args.threshold is not None else DEFAULT_TIME_PCT
        rows, removed, added = compare_timing(base_doc, new_doc, timing_rules, default)
    print_table([r for r in rows if r["verdict"] != "same"] if args.only_changes else rows,
                icount, out)
    counts, gm = print_summary(rows, removed, added, icount, out)
    missing = missing_counts(base_doc, removed) if icount else []
    if missing:
        out.write(f"FAIL: {paths.rel(new_path)} lacks {len(missing)} benchmarks the baseline has "
                  f"(e.g. {missing[0]}); a baseline marks benchmarks removed on purpose in its "
                  '"removed" object\n')
    if args.json:
        args.json_rows.append({"base": base_path, "new": new_path,
                               "kind": "icount" if icount else "timing",
                               "geomean": gm, "counts": counts, "rows": rows,
                               "only_in_base": removed, "only_in_new": added, "missing": missing})
    return counts.get("regression", 0) + len(missing)


def explain_missing_icount_baseline(doc, results_dir):
    """Why no baseline applies to this build: how it differs from the builds that have one."""
    build = doc["icount"].get("build", {})
    for other in sorted(glob.glob(os.path.join(results_dir, "icount", "*", "baseline.json"))):
        try:
            other_build = gbench.load_json(other).get("icount", {}).get("build", {})
        except gbench.ResultError:
            continue
        diff = buildkey.build_differences(build, other_build)
        print(f"  this build differs from {paths.rel(other)} in: " + "; ".join(diff[:6]))


def baseline_for(p, doc, results_dir):
    """(what, baseline path, command that sets it, build key or machine id) for a result file."""
    key = buildkey.icount_key(doc) if gbench.is_icount(doc) else None
    if key:
        return ("instruction counts", os.path.join(store.icount_dir(results_dir, key), "baseline.json"),
                "tools/results baseline --icount", f"build {key}")
    mid = gbench.machine_id(doc)
    if gbench.is_icount(doc):  # written before counts were keyed by build
        return ("instruction counts", os.path.join(results_dir, mid, "icount", "baseline.json"),
                "tools/results baseline --icount", f"machine {mid}")
    bench = gbench.bench_kind(doc, p)
    return (bench, os.path.join(results_dir, mid, f"baseline.{bench}.json"),
            "tools/results baseline", f"machine {mid}")


class GateError(Exception):
    """A result file the gate cannot judge: the gate fails (message: one line for the user)."""


def result_files(targets):
    """The files named (every *.json of a folder); a named file that does not exist, or a folder
    without one, is a GateError: a benchmark that should have written it failed."""
    files = []
    for target in targets:
        if os.path.isdir(target):
            found = sorted(glob.glob(os.path.join(target, "*.json")))
            if not found:
                raise GateError(f"{paths.rel(target)} holds no result files")
            files += found
        elif os.path.exists(target):
            files.append(target)
        else:
            raise GateError(f"{paths.rel(target)} does not exist (the run that writes it failed "
                            "or did not run)")
    return files


def judged(path):
    """The document of a result file to judge, None for another tool's document (a matrix or a
    load run: not compared), GateError for a file that is broken, empty or holds no results."""
    try:
        doc = gbench.load_json(path)
    except gbench.ResultError as e:
        raise GateError(str(e)) from e
    if isinstance(doc, dict) and doc.get("tool") in store.MACHINE_FILES:
        return None
    if gbench.is_icount(doc):
        if not doc["instructions"]:
            raise GateError(f"{paths.rel(path)} holds no instruction counts")
        if not (buildkey.icount_key(doc) or gbench.machine_id(doc)):
            raise GateError(f"{paths.rel(path)} names neither a build key nor a machine")
        return doc
    if not gbench.is_gb(doc):
        raise GateError(f"{paths.rel(path)} is neither Google Benchmark JSON nor a tools/icount file")
    if not doc["benchmarks"]:
        raise GateError(f"{paths.rel(path)} holds no benchmarks")
    if not gbench.machine_id(doc):
        raise GateError(f"{paths.rel(path)} has no machine_id in its context")
    return doc


def judge(args, p, doc):
    """One file against its baseline: the failures the exit status counts."""
    what, baseline, how, owner = baseline_for(p, doc, args.results_dir)
    if not os.path.exists(baseline):
        print(f"no baseline for {owner}: run {how} to set one "
              f"({paths.rel(baseline)} does not exist; {paths.rel(p)} not compared)")
        if buildkey.icount_key(doc):
            explain_missing_icount_baseline(doc, args.results_dir)
        return 0
    print(f"== {what}: {paths.rel(p)} against {paths.rel(baseline)} ==")
    found = compare_files(baseline, p, args)
    if found and args.gate == "icount" and not gbench.is_icount(doc):
        print(f"tools/compare: {found} timing regressions reported, not gated (--gate icount: "
              "on a shared machine only instruction counts decide)")
        found = 0
    elif gbench.is_icount(doc):
        print(f"verdict ({what}): {'FAIL, ' + str(found) + ' failures' if found else 'PASS'}")
    print()
    return found


def against_baseline(args):
    """ctest bench.compare and the test command's gate: each result file against its
    baseline (timings: the machine's; instruction counts: the build's). Fails closed: a file
    that is missing, unreadable, truncated, empty or without results fails the gate."""
    try:
        docs = [(p, doc) for p in result_files(args.against_baseline)
                for doc in [judged(p)] if doc is not None]
        if not docs:
            raise GateError("no result files to compare among " +
                            ", ".join(paths.rel(t) for t in args.against_baseline))
    except GateError as e:
        print(f"tools/compare: FAIL: {e}")
        return 1
    failures = sum(judge(args, p, doc) for p, doc in docs)
    if failures:
        print(f"tools/compare: {failures} failures against the baseline")
    return 1 if failures else 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="tools/compare",
        description="Compare two result files (Google Benchmark JSON with repetitions, or "
                    "tools/icount instruction counts) benchmark by benchmark and say "
                    "regression / improvement / same / inconclusive. Exit 1 on any regression.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", nargs="?", help="the reference file (e.g. a baseline)")
    ap.add_argument("new", nargs="?", help="the file to judge")
    ap.add_argument("--threshold", type=float, metavar="PCT",
                    help=f"default threshold in percent ({DEFAULT_TIME_PCT:g} for times, "
                         f"{DEFAULT_ICOUNT_PCT:g} for instruction counts)")
    ap.add_argument("--thresholds", metavar="FILE",
                    help="per-benchmark thresholds (default: results/thresholds.json if present)")
    ap.add_argument("--only-changes", action="store_true",
                    help="list only benchmarks whose verdict is not 'same'")
    ap.add_argument("--against-baseline", metavar="PATH", nargs="*",
                    help="compare each result file (or every *.json in a folder; default "
                         "build/results) with results/<machine_id>/baseline.<bench>.json (an "
                         "icount file with results/icount/<build-key>/baseline.json); where "
                         "there is no baseline say how to set one (exit 0); a file that is "
                         "missing, unreadable, empty or holds no results fails (exit 1)")
    ap.add_argument("--gate", choices=("all", "icount"), default="all",
                    help="with --against-baseline: which regressions set the exit status (icount: "
                         "timing verdicts are printed but only instruction counts fail)")
    ap.add_argument("--results-dir", default=paths.RESULTS_DIR, help="the results/ folder")
    ap.add_argument("--json", metavar="FILE",
                    help="also write the verdicts as JSON (a list, one entry per comparison)")
    args = ap.parse_args(argv)
    if args.against_baseline == []:
        args.against_baseline = [os.path.join(paths.BUILD_DIR, "results")]
    args.json_rows = []
    args.thresholds_explicit = args.thresholds is not None
    if args.thresholds is None:
        args.thresholds = os.path.join(args.results_dir, "thresholds.json")
    if args.against_baseline is not None and (args.base or args.new):
        ap.error("--against-baseline takes no BASE/NEW files")
    if args.against_baseline is None and (not args.base or not args.new):
        ap.error("BASE and NEW are required (or --against-baseline)")
    try:
        if args.against_baseline is not None:
            rc = against_baseline(args)
        else:
            rc = 1 if compare_files(args.base, args.new, args) else 0
    except gbench.ResultError as e:
        print(f"tools/compare: {e}", file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(args.json_rows, f, indent=1)
            f.write("\n")
    return rc

if __name__ == "__main__":
    sys.exit(main())
