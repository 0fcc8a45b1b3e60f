"""tools/track ab BASE_BUILD HEAD_BUILD: timing verdicts for what exact counts cannot see.

Both build trees' benchmarks run in the same job, round after round (interleaved: one after the
other; or a duet: both at once, one per CPU), the placement drawn by a fair coin every round.
After each round a sequential test (sbtools.sequential: a confidence sequence) decides
each benchmark and metric: "same" (its interval lies within +/-MARGIN), "different" (the shift
with its interval) or still open; decided rows stop running, and the A/B stops when all are
decided or the budget would be overrun by the next round. Every interval holds at every round
at once, and the family's alpha is split over its comparisons (Bonferroni): with probability at
least 1 - alpha every decision stated is right, together.

Exit status: 0 when no row is decided slower (same, faster and undecided rows pass), 1 when one
is (a regression) or a row fails in head only, 2 on bad input or a program that cannot run,
130 when interrupted (the report then covers the rounds run).
"""
import argparse
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field

from sbtools import sequential

from . import TrackError, ab_report, ab_runs
from .metrics import metric

PROG = "tools/track ab"
EPILOG = """\
examples:
  tools/track ab ../base/build build                          # the default set, 10 minutes
  tools/track ab base/build build --parse '^decode/pugixml-dom/' --budget 5m
  tools/track ab base/build build --roundtrip '^roundtrip/keepalive/jsonrpc/' --mode interleaved
  tools/track ab build build --load soap11-doc-literal:getRate:4 --budget 3m
  tools/track ab build build --plant 5:^decode/pugixml-dom/xmlrpc/add\\.call$
      --markdown ab.md --json ab.json     # a calibrated 5% slowdown (docs/ci.md)
docs/ci.md "Timing A/B of a pull request" gives the recipe and the measured power.
"""


@dataclass
class Outcome:
    suite: str
    row: str
    metric: str
    decision: sequential.Decision
    base: list = field(default_factory=list)   # the rounds' values, paired with head's
    head: list = field(default_factory=list)
    error: str = ""

    @property
    def worse(self):
        """Decided different, in the metric's bad direction."""
        d = self.decision
        return d.state == "different" and (d.shift > 0) == metric(self.metric).lower_better

    @property
    def name(self):
        return f"{self.suite}:{self.row}"


@dataclass
class Result:
    base: ab_runs.Tree
    head: ab_runs.Tree
    settings: ab_runs.Settings
    alpha: float
    margin: float
    budget: float
    outcomes: list = field(default_factory=list)
    notes: list = field(default_factory=list)    # [(level, text)]
    rounds: int = 0
    seconds: float = 0.0
    stopped_by: str = ""
    commits: dict = field(default_factory=dict)  # side -> git sha of its programs
    load: list = field(default_factory=list)     # load averages seen, one per round

    @property
    def verdict(self):
        return "FAIL" if self.exit_code == 1 else "PASS"

    @property
    def exit_code(self):
        if any(o.worse for o in self.outcomes) or any(o.error.startswith("head") for o in
                                                       self.outcomes):
            return 1
        return 130 if self.stopped_by == "interrupted" else 0


def parse_duration(text):
    """Seconds of '10m', '90s', '1h', '1h30m' or a plain number of seconds."""
    t = text.strip().lower()
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", t):
        return float(t)
    parts = re.fullmatch(r"(?:([0-9.]+)h)?(?:([0-9.]+)m)?(?:([0-9.]+)s)?", t)
    if not t or not parts or not any(parts.groups()):
        raise argparse.ArgumentTypeError(f"{text!r}: a duration like 10m, 90s, 1h30m")
    h, m, s = (float(g) if g else 0.0 for g in parts.groups())
    return h * 3600 + m * 60 + s


def env_pair(text):
    name, eq, value = text.partition("=")
    if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE")
    return name, value


def clock(seconds):
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


def rows_of(trees, filters, settings, notes):
    """{suite: [rows in both trees]}; rows only one side has become notes."""
    extra = {"parse": [f"--set={settings.parse_set}"], "roundtrip": []}
    out = {}
    for suite, regex in filters.items():
        if suite == "load":
            out[suite] = ab_runs.load_points(regex)
            continue
        base, head = (ab_runs.list_rows(t, suite, regex, extra[suite]) for t in trees)
        for side, only in (("base", set(base) - set(head)), ("head", set(head) - set(base))):
            if only:
                notes.append(("notice", f"{suite}: {len(only)} rows only in {side}, not compared "
                                        f"(e.g. {sorted(only)[0]})"))
        out[suite] = [r for r in head if r in set(base)]
        if not out[suite]:
            raise TrackError(f"{suite}: the filter {regex!r} picks no row both trees have")
    return out


class Progress:
    """The terminal's lines: what runs, how far, the time left; a round's line at most every
    EVERY seconds unless a decision changed."""
    EVERY = 10.0

    def __init__(self, stream=sys.stderr, quiet=False):
        self.stream, self.quiet = stream, quiet
        self.last, self.shown = None, None   # when the last round's line went out, its counts

    def __call__(self, text):
        if not self.quiet:
            print(f"{PROG}: {text}", file=self.stream, flush=True)

    def round(self, text, counts):
        now = time.monotonic()
        if self.last is None or now - self.last >= self.EVERY or counts != self.shown:
            self(text)
            self.last, self.shown = now, counts


def run_ab(base, head, filters, settings, alpha=0.01, margin=0.02, budget=600.0, seed=None,
           max_rounds=None, metrics=None, progress=None, work=None):
    """The A/B: a Result. filters: {suite: regex, or for load a list of points}."""
    progress = progress or Progress(quiet=True)
    started = time.monotonic()
    result = Result(base, head, settings, alpha, margin, budget)
    rows = rows_of((base, head), filters, settings, result.notes)
    if "load" in rows and settings.mode == "duet":
        result.notes.append(("notice", "load points run interleaved (a server and its generator "
                                       "need both CPUs)"))
    keys = [(s, r, m) for s, rs in rows.items() for r in rs for m in ab_runs.METRICS[s]
            if s == "load" or not metrics or m in metrics]
    family = sequential.Family(keys, alpha=alpha, margin=margin)
    outcomes = {k: Outcome(*k, family.decision(k)) for k in keys}
    result.outcomes = list(outcomes.values())
    need = family.fewest_rounds(keys[0])
    progress(f"{settings.mode}: " + ", ".join(f"{len(r)} {s} rows" for s, r in rows.items()) +
             f"; {len(keys)} comparisons at alpha {alpha:g} (each "
             f"{family.decision(keys[0]).alpha:.2g}, decidable after {need} rounds); margin "
             f"±{margin * 100:g}%; budget {clock(budget)}")
    rng = random.Random(seed)
    failed, per_row = set(), None
    with tempfile.TemporaryDirectory(prefix="sb-ab-", dir=work) as tmp:
        runner = ab_runs.Rounds((base, head), settings, rng, tmp)
        try:
            while True:
                pending = {}
                for s, r, _m in family.open():
                    if (s, r) not in failed and r not in pending.setdefault(s, []):
                        pending[s].append(r)
                count = sum(len(v) for v in pending.values())
                elapsed = time.monotonic() - started
                if not count:
                    result.stopped_by = "decided"
                    break
                if max_rounds and result.rounds >= max_rounds:
                    result.stopped_by = "max rounds"
                    break
                if per_row is not None and elapsed + per_row * count > budget:
                    result.stopped_by = "budget"
                    break
                t0 = time.monotonic()
                values, errors = runner.round(pending)
                per_row = (time.monotonic() - t0) / count
                result.rounds += 1
                result.load.append(os.getloadavg()[0])
                _record(values, errors, outcomes, family, failed)
                _progress_line(progress, result, family, count, started, budget, per_row)
        except KeyboardInterrupt:
            result.stopped_by = "interrupted"
        result.commits = {side: ctx.get("git_sha", "") for side, ctx in runner.contexts.items()}
    result.seconds = time.monotonic() - started
    return result


def _record(values, errors, outcomes, family, failed):
    for (suite, row), message in errors.items():
        failed.add((suite, row))
        for o in outcomes.values():
            if (o.suite, o.row) == (suite, row) and not o.error:
                o.error = message
    for key, o in outcomes.items():
        suite, row, met = key
        b = values["base"].get((suite, row), {}).get(met)
        h = values["head"].get((suite, row), {}).get(met)
        if b and h and (suite, row) not in failed:
            o.base.append(b)
            o.head.append(h)
            family.add(key, b, h)


def _progress_line(progress, result, family, count, started, budget, per_row):
    states = [d.state for d in family.decisions()]
    elapsed = time.monotonic() - started
    worse = sum(1 for o in result.outcomes if o.worse)
    counts = (states.count("same"), states.count("different"), worse)
    progress.round(f"round {result.rounds}: {count} rows in {clock(per_row * count)}; "
                   f"{counts[0]} same, {counts[1]} different ({worse} slower), "
                   f"{states.count('undecided')} open; {clock(elapsed)} of {clock(budget)}, "
                   f"{clock(max(0.0, budget - elapsed))} left, load {result.load[-1]:.1f}",
                   counts)


def add_parser(sub):
    """Registers the verb on tools/track's subparsers."""
    p = sub.add_parser("ab", help="timing A/B of two build trees, decided sequentially",
                       description=__doc__, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base_build", metavar="BASE_BUILD",
                   help="the base's build tree (e.g. ../base/build)")
    p.add_argument("head_build", metavar="HEAD_BUILD", help="the head's build tree (e.g. build)")
    p.add_argument("--parse", metavar="REGEX", help="parse_bench rows (default: the default "
                   "adapters' headline rows, unless --roundtrip or --load is given)")
    p.add_argument("--roundtrip", metavar="REGEX", help="roundtrip_bench rows (default: the "
                   "default adapters' keep-alive getRate, unless --parse or --load is given)")
    p.add_argument("--load", metavar="FAMILY:CALL:CONN", action="append",
                   help="a `soapbench load` point (repeat); always interleaved")
    p.add_argument("--mode", choices=("interleaved", "duet"), default="interleaved",
                   help="one after the other (default), or both at once, one per CPU (a duet: "
                        "measured no more accurate on this machine, docs/ci.md)")
    p.add_argument("--budget", type=parse_duration, default=600.0, metavar="TIME",
                   help="wall time the A/B may take, e.g. 10m (default), 90s")
    p.add_argument("--max-rounds", type=int, metavar="N", help="stop after N rounds")
    p.add_argument("--alpha", type=float, default=0.01,
                   help="the family's error rate, split over its comparisons (default 0.01)")
    p.add_argument("--margin", type=float, default=2.0, metavar="PCT",
                   help="'same' means within ±PCT%% (default 2)")
    p.add_argument("--metrics", default="cpu_time,real_time",
                   help="timings decided per row (default cpu_time,real_time)")
    p.add_argument("--min-time", type=float, default=0.002, metavar="S",
                   help="Google Benchmark's minimum seconds per row and run (default 0.002)")
    p.add_argument("--parse-set", default="default", help="parse_bench --set (default default)")
    p.add_argument("--load-seconds", type=float, default=1.0,
                   help="measured seconds per load point (default 1)")
    p.add_argument("--base-env", type=env_pair, action="append", default=[], metavar="NAME=VALUE",
                   help="set in base's environment (repeat)")
    p.add_argument("--head-env", type=env_pair, action="append", default=[], metavar="NAME=VALUE",
                   help="set in head's environment (repeat)")
    p.add_argument("--plant", metavar="PCT:REGEX", help="a calibrated PCT%% slowdown of the rows "
                   "matching REGEX in head (parse_bench's SOAPBENCH_PLANTED_SLOWDOWN; base gets it "
                   "at 0%%, so the environments differ in one digit): for checking the A/B itself")
    p.add_argument("--seed", type=int, help="the coin's seed (default: random)")
    p.add_argument("--markdown", metavar="FILE", help="write the pull-request comment here")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON ('-': stdout)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(run=cmd_ab, no_store=True)
    return p


def cmd_ab(args, _db=None):
    base_env, head_env = ab_runs.planted_envs(args.plant) if args.plant else ({}, {})
    base = ab_runs.Tree("base", args.base_build, dict(base_env, **dict(args.base_env)))
    head = ab_runs.Tree("head", args.head_build, dict(head_env, **dict(args.head_env)))
    filters = {}
    if args.parse:
        filters["parse"] = args.parse
    if args.roundtrip:
        filters["roundtrip"] = args.roundtrip
    if args.load:
        filters["load"] = args.load
    suites = list(filters) or ["parse", "roundtrip"]
    for tree in (base, head):
        ab_runs.check_tree(tree, suites)
    if not filters:
        filters = ab_runs.default_filters(ab_runs.default_adapters(base))
    if not 0 < args.margin < 100 or not 0 < args.alpha < 1 or args.min_time <= 0:
        raise TrackError("--margin must lie in (0, 100), --alpha in (0, 1), --min-time above 0")
    cpus = ab_runs.duet_cpus()
    settings = ab_runs.Settings(args.mode, args.min_time, args.parse_set, args.load_seconds, cpus)
    progress = Progress(quiet=args.quiet)
    if args.mode == "duet" and not cpus:
        progress("one CPU only: interleaved instead of a duet")
        settings.mode = "interleaved"
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    result = run_ab(base, head, filters, settings, args.alpha, args.margin / 100, args.budget,
                    args.seed, args.max_rounds, metrics, progress)
    for line in ab_report.text(result):
        print(line, file=sys.stderr if args.json == "-" else sys.stdout)
    ab_report.publish(result, args.markdown, args.json)
    return result.exit_code
