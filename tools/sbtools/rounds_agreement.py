"""tools/rounds_agreement: do the rounds until decided (bench.headline) say what the fixed design
said? Runs both designs on the first screen's rows, alternately, N times each (or reads their
files), and sets every comparison the fixed design decides beside the rounds' decision on it.

The fixed design is what bench.parse ran before the rounds: every row 5 interleaved repetitions
of at least 0.02 s, and the report's rule (sbtools.stats.Ranking: the family's lowest median
ahead of an adapter where a two-sided Mann-Whitney U p <= 0.01 and the intervals of the medians
are apart). A comparison it decides is one such "leader ahead of adapter". The rounds' answer on
the same pair, from any rounds run: the same way (decided different, the same adapter faster),
undecided, not compared (not one of the pairs the rounds declared: their pilot picked another
leader), or contradicted (decided different the other way, or the same within the margin). The
target (issue 42): no contradiction over every pairing of a fixed run with a rounds run.
"""
import argparse
import os
import subprocess
import sys
from collections import Counter, defaultdict

from sbtools import gbench, names, stats
from sbtools.bench_rounds import HEADLINE
from sbtools.rounds import ROUNDS_KEY, decided_pairs

OUTCOMES = ("same way", "undecided", "not compared", "contradicted")


def fixed_decisions(doc):
    """{(family, leader, adapter)} the fixed design decides: leader ahead of adapter."""
    by = defaultdict(dict)
    for name, r in gbench.results_of(doc).items():
        f = names.fields(gbench.pair_name(name), "level")
        if f and f["file"] == "complex.call" and r.error is None and r.times:
            by[f["family"]][f["adapter"]] = r
    out = set()
    for fam, cands in by.items():
        rk = stats.Ranking(cands)
        out |= {(fam, rk.leader, a) for a, (apart, _p) in rk.apart.items() if apart}
    return out


def rounds_decisions(doc):
    """{(family, frozenset of the two adapters): (state, the faster adapter)}."""
    return {k: (state, faster) for k, (state, faster, _p) in decided_pairs(doc[ROUNDS_KEY]).items()}


def outcome(decision, leader):
    """How a rounds decision answers 'leader ahead of the other'."""
    if decision is None:
        return "not compared"
    if decision[0] == "undecided":
        return "undecided"
    state, faster = decision
    return "same way" if state == "different" and faster == leader else "contradicted"


def agreement(fixed_docs, rounds_docs):
    """(Counter of outcomes over every pairing, [(pairing, fam, leader, other, outcome)] of the
    contradictions, decided per fixed run, decided per rounds run)."""
    total, bad = Counter(), []
    fixed = [fixed_decisions(d) for d in fixed_docs]
    rounds = [rounds_decisions(d) for d in rounds_docs]
    for i, fd in enumerate(fixed):
        for j, rd in enumerate(rounds):
            for fam, leader, other in sorted(fd):
                got = outcome(rd.get((fam, frozenset((leader, other)))), leader)
                total[got] += 1
                if got == "contradicted":
                    bad.append((f"fixed {i + 1} / rounds {j + 1}", fam, leader, other))
    decided_r = [sum(1 for s, _f in rd.values() if s != "undecided") for rd in rounds]
    return total, bad, [len(fd) for fd in fixed], decided_r


def markdown(total, bad, decided_f, decided_r, n_rounds_cmp):
    n = sum(total.values())
    lines = ["| the fixed design decides | rounds: the same way | rounds: undecided | "
             "rounds: not compared | rounds: contradicted |",
             "| ---: | ---: | ---: | ---: | ---: |",
             f"| {n} ({len(decided_f)} runs × {len(decided_r)}) | " +
             " | ".join(f"{total[o]} ({total[o] / n:.1%})" if n else "0" for o in OUTCOMES) + " |",
             "", f"Decided per run: fixed design {', '.join(map(str, decided_f))} (leader ahead "
             f"of an adapter); rounds {', '.join(map(str, decided_r))} of {n_rounds_cmp} "
             "comparisons (different or same)."]
    lines += [f"- contradicted ({p}): {fam}: `{a}` ahead of `{b}`" for p, fam, a, b in bad[:20]]
    return "\n".join(lines)


def run_both(args):
    """Runs the designs alternately; returns their files."""
    fixed, rounds = [], []
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for i in range(1, args.runs + 1):
        f = os.path.join(args.out_dir, f"fixed{i}.json")
        r = os.path.join(args.out_dir, f"rounds{i}.json")
        print(f"rounds_agreement: run {i} of {args.runs}: the fixed design", file=sys.stderr,
              flush=True)
        subprocess.run([args.parse_bench, "--set=default", f"--benchmark_filter={HEADLINE}",
                        "--core-repetitions=5", "--benchmark_min_time=0.02",
                        "--benchmark_enable_random_interleaving=true", f"--benchmark_out={f}",
                        "--benchmark_out_format=json"], stdout=subprocess.DEVNULL, check=True,
                       timeout=1800)
        print(f"rounds_agreement: run {i} of {args.runs}: the rounds", file=sys.stderr,
              flush=True)
        subprocess.run([sys.executable, os.path.join(here, "bench_rounds"), "--parse-bench",
                        args.parse_bench, "--out", r], check=True, timeout=1800)
        fixed.append(f)
        rounds.append(r)
    return fixed, rounds


def main(argv=None):
    p = argparse.ArgumentParser(prog="rounds_agreement", description=__doc__.split("\n\n")[0])
    p.add_argument("--parse-bench", help="run both designs with this parse_bench")
    p.add_argument("--runs", type=int, default=5, help="runs of each design (default 5)")
    p.add_argument("--out-dir", help="where the runs' files go (with --parse-bench)")
    p.add_argument("--fixed", nargs="*", default=[], help="fixed-design files to read instead")
    p.add_argument("--rounds", nargs="*", default=[], help="tools/bench_rounds files to read")
    args = p.parse_args(argv)
    if args.parse_bench:
        if not args.out_dir or args.runs < 1:
            p.error("--parse-bench needs --out-dir and --runs >= 1")
        os.makedirs(args.out_dir, exist_ok=True)
        args.fixed, args.rounds = run_both(args)
    if not args.fixed or not args.rounds:
        p.error("give --parse-bench (to run both designs) or --fixed and --rounds files")
    try:
        fixed = [gbench.load_json(x) for x in args.fixed]
        rounds = [gbench.load_json(x) for x in args.rounds]
        if not all(ROUNDS_KEY in d for d in rounds):
            raise gbench.ResultError("a --rounds file without the rounds' decisions")
    except gbench.ResultError as e:
        print(f"rounds_agreement: {e}", file=sys.stderr)
        return 1
    total, bad, df, dr = agreement(fixed, rounds)
    print(markdown(total, bad, df, dr, len(rounds[0][ROUNDS_KEY]["comparisons"])))
    return 1 if bad else 0
