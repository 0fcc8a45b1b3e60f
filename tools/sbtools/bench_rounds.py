"""tools/bench_rounds: the first screen's benchmarks in rounds until decided (sbtools.rounds
says how), each round one parse_bench process; the rounds are written as Google Benchmark
repetitions, with the decisions under "rounds_until_decided", in a results file of their own
(kind parse_bench_rounds, which the report, tools/results and tools/track read beside
parse_bench's)."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, OrderedDict

from sbtools import gbench
from sbtools.rounds import (MAX_ROUNDS, MIN_ROUNDS, ROUNDS_KEY, RoundsError, decisions_doc,
                            run_rounds)
from sbtools.track.ab import parse_duration
from sbtools.track.ab_runs import exact_filter

# The first screen's rows (report.answer), whatever suffix a set gives their names (/repeats:5);
# bench.parse runs the default set without them (bench/CMakeLists.txt, tested to agree).
HEADLINE = r"^decode/[^/]+/[^/]+/complex\.call(/|$)"
DEFAULT_BUDGET = "100s"   # keeps the first screen within 3 minutes of the build (issue 42)
BUDGET_ENV = "SB_ROUNDS_BUDGET"   # a default from the environment (tools/run_bench.sh --budget)
_ROW = re.compile(r"^decode/([^/]+)/([^/]+)/complex\.call$")


def families_of(rows):
    """{family: [(adapter, row)]} of headline rows."""
    out = OrderedDict()
    for row in sorted(rows):
        m = _ROW.match(row)
        if not m:
            raise RoundsError(f"{row}: not a headline row (decode/<adapter>/<family>/complex.call)")
        out.setdefault(m.group(2), []).append((m.group(1), row))
    return out


class ParseBench:
    """Runs rounds in one parse_bench program (one process per round) and keeps its entries."""

    def __init__(self, program, min_time):
        self.program, self.min_time = program, min_time
        self.work = tempfile.mkdtemp(prefix="sb-rounds-")
        self.runs = {}         # row -> its entries, one per round it ran
        self.context = None

    def _argv(self, extra):
        return [self.program, "--set=default", "--core-repetitions=1", *extra]

    def list_rows(self):
        proc = subprocess.run(self._argv(["--benchmark_list_tests=true",
                                          f"--benchmark_filter={HEADLINE}"]),
                              capture_output=True, text=True, timeout=300, check=False)
        if proc.returncode != 0:
            raise RoundsError(f"{self.program} --benchmark_list_tests exited {proc.returncode}: "
                              f"{proc.stderr.strip()[-300:]}")
        return [gbench.series_name(x.strip()) for x in proc.stdout.splitlines() if x.strip()]

    def __call__(self, rows):
        out = os.path.join(self.work, "round.json")
        if os.path.exists(out):
            os.remove(out)
        argv = self._argv([f"--benchmark_filter={exact_filter(rows)}",
                           "--benchmark_repetitions=1", f"--benchmark_min_time={self.min_time:g}",
                           "--benchmark_enable_random_interleaving=true",
                           f"--benchmark_out={out}", "--benchmark_out_format=json"])
        proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=3600, check=False)
        try:
            doc = gbench.load_json(out)
        except gbench.ResultError as e:
            raise RoundsError(f"{self.program} exited {proc.returncode} without results: "
                              f"{proc.stderr.strip()[-300:] or e}") from None
        if self.context is None:
            self.context = dict(gbench.context(doc))
        for e in doc.get("benchmarks", []):
            if e.get("run_type", "iteration") == "iteration":
                row = gbench.series_name(str(e.get("run_name") or e.get("name", "")))
                self.runs.setdefault(row, []).append(e)
        values, errors = {}, {}
        for run_name, r in gbench.results_of(doc).items():
            row = gbench.series_name(run_name)
            if r.error:
                errors[row] = r.error
            elif r.times:
                values[row] = r.times[0]
        return values, errors


def repetitions(runs):
    """Google Benchmark entries of one row's rounds: each round a repetition, then the mean,
    median and stddev aggregates, as --benchmark_repetitions writes them."""
    n = len(runs)
    if any(e.get("error_occurred") or e.get("skipped") for e in runs):
        bad = next(e for e in runs if e.get("error_occurred") or e.get("skipped"))
        return [dict(bad, repetitions=1, repetition_index=0)]
    out = [dict(e, repetitions=n, repetition_index=i, run_type="iteration")
           for i, e in enumerate(runs)]
    if n < 2:
        return out
    last = runs[-1]
    base = {k: last[k] for k in ("family_index", "per_family_instance_index", "run_name",
                                 "threads", "time_unit") if k in last}
    run_name = last.get("run_name", last.get("name"))
    for agg, fn in (("mean", statistics.mean), ("median", statistics.median),
                    ("stddev", statistics.stdev)):
        out.append(dict(base, name=f"{run_name}_{agg}", run_type="aggregate", repetitions=n,
                        aggregate_name=agg, aggregate_unit="time", iterations=n,
                        real_time=fn([float(e["real_time"]) for e in runs]),
                        cpu_time=fn([float(e["cpu_time"]) for e in runs])))
    return out


def results_doc(bench, outcome, budget):
    """The results file: the first round's context (saying the rounds wrote it), every row's
    rounds as repetitions, the decisions."""
    ctx = dict(bench.context or {}, rounds="until decided (tools/bench_rounds)")
    entries = [e for row in sorted(bench.runs) for e in repetitions(bench.runs[row])]
    return {"context": ctx, "benchmarks": entries, ROUNDS_KEY: decisions_doc(outcome, budget)}


def arguments(argv):
    p = argparse.ArgumentParser(
        prog="bench_rounds", description="Run the first screen's benchmarks (each family's "
        "complex.call decoded by every adapter) in rounds until a sequential test decides each "
        "adapter against the first two of its family in a pilot, and the third against the "
        "fourth, or the budget ends; write the rounds as repetitions and the decisions to --out.")
    p.add_argument("--parse-bench", required=True, help="the parse_bench program")
    p.add_argument("--out", required=True, help="the results file to write")
    budget = os.environ.get(BUDGET_ENV) or DEFAULT_BUDGET
    p.add_argument("--budget", type=parse_duration, default=budget,
                   help=f"time budget of the rounds (default {BUDGET_ENV} when set, which "
                   f"`tools/run_bench.sh --budget` sets, else {DEFAULT_BUDGET}); the pilot's "
                   "rounds run whatever it says")
    p.add_argument("--min-rounds", type=int, default=MIN_ROUNDS,
                   help=f"the pilot: rounds every row runs, which choose the comparisons "
                   f"(default {MIN_ROUNDS}, at least 3)")
    p.add_argument("--max-rounds", type=int, default=MAX_ROUNDS,
                   help=f"rounds at most (default {MAX_ROUNDS}; the budget ends them first)")
    p.add_argument("--min-time", type=float, default=0.01,
                   help="--benchmark_min_time of each row in a round (default 0.01 s)")
    p.add_argument("--alpha", type=float, default=0.01,
                   help="the error rate of all the decisions together (default 0.01)")
    p.add_argument("--margin", type=float, default=0.02,
                   help="equivalence margin of 'same' (default 0.02: within 2%%)")
    args = p.parse_args(argv)
    if args.min_rounds < 3 or args.max_rounds < args.min_rounds:
        p.error("--min-rounds must be at least 3 and --max-rounds at least --min-rounds")
    if not 0 < args.alpha < 1 or not 0 < args.margin < 1 or args.min_time <= 0:
        p.error("--alpha and --margin lie between 0 and 1; --min-time is positive")
    return args


def log(line):
    print(line, file=sys.stderr, flush=True)


def main(argv=None):
    args = arguments(argv)
    bench = ParseBench(args.parse_bench, args.min_time)
    try:
        families = families_of(bench.list_rows())
        if not families:
            raise RoundsError(f"{args.parse_bench}: no benchmark matches {HEADLINE}")
        log(f"bench_rounds: {sum(map(len, families.values()))} rows in {len(families)} "
            f"families, budget {args.budget:.0f} s")
        outcome = run_rounds(bench, families, args.budget, args.alpha, args.margin,
                             args.min_rounds, args.max_rounds, log=log)
    except (RoundsError, gbench.ResultError, OSError, subprocess.SubprocessError) as e:
        log(f"bench_rounds: {e}")
        return 1
    write_json(args.out, results_doc(bench, outcome, args.budget))
    states = Counter(d.state for d in outcome.family.decisions())
    log(f"bench_rounds: {outcome.rounds} rounds in {outcome.seconds:.0f} s (stopped: "
        f"{outcome.why}): {states['different']} different, {states['same']} same, "
        f"{states['undecided']} undecided of {len(outcome.pairs)}; {args.out}")
    if outcome.failed:   # as parse_bench: a benchmark that skipped with an error fails the run
        log(f"bench_rounds: {len(outcome.failed)} rows failed, e.g. "
            f"{next(iter(outcome.failed.items()))}")
        return 1
    return 0


def write_json(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)
