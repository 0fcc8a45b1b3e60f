"""Repetitions until decided: the first screen's benchmarks (every family's complex.call decoded
by each of its adapters) run in rounds until the sequential test (sbtools.sequential, the one
`tools/track ab` uses) decides each comparison the first screen makes, or the time budget ends.
Nothing here runs a program: run_rounds() takes the round runner (sbtools.bench_rounds runs
parse_bench; the tests run a simulated machine).

The comparisons, declared before the test sees a value (their number splits alpha, Bonferroni):
  - a pilot of --min-rounds rounds runs every row; its medians give each family's order;
  - per family, every adapter against each of the pilot's first LEADERS ("the adapter against
    the family's best": with two, the best of a near tie at the top is one of them however the
    pilot ordered them), and each neighbour pair of the pilot's first TOP ("the family's order
    at the top");
  - the pilot's rounds choose the comparisons and are not fed to the test: a leader picked by
    its lowest pilot median is lucky in the pilot, and a test fed the rounds that picked it
    starts from that luck (the winner's curse). Left out, the comparisons are fixed before the
    test's first value, as the sequential test's error rate requires (tests/tools/test_rounds.py
    measures it on A/A rows). The pilot's rounds stay repetitions of the rows.
Every pair of adapters instead (580 comparisons over the 86 rows) was tried: with its alpha share
no pair can be decided before round 27 (24 with these 160), and the leaders' rows would run to
the budget anyway, as they are in the ties. One leader (92 comparisons, 23 rounds) left a
quarter of what the fixed design decided unanswered (its leader was the pilot's second).

A round runs every still-open row once (one repetition; the runner interleaves them). A row runs
while a comparison it is in is open. The set stops when nothing is open, at max_rounds, or when
the next round (estimated from the last) would end after the budget.
"""
import statistics
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from sbtools import names
from sbtools.sequential import Family

LEADERS = 2          # every adapter compared with each of its pilot's first LEADERS
TOP = 4              # the family's order decided among its pilot's first TOP adapters
MIN_ROUNDS = 3       # the pilot: rounds every row runs (the report's medians need three)
MAX_ROUNDS = 1000    # a bound beside the budget: a near tie's last rows take ~0.1 s a round
ROUNDS_KEY = "rounds_until_decided"   # the decisions' key in the results file


class RoundsError(Exception):
    """A round that could not run or be read."""


def median_order(rows, values):
    """The rows with values, fastest (lowest median) first."""
    return sorted((r for r in rows if values.get(r)), key=lambda r: statistics.median(values[r]))


def plan(families, pilot):
    """OrderedDict {key: (family, base row, head row)} from the pilot's values: per family every
    row against each of the first LEADERS, and the neighbour pairs of the first TOP. families:
    {family: [(adapter, row)]}; pilot: {row: [values]}. Key '<family>: <base> vs <head>', base
    the faster in the pilot (a decision's shift is head / base - 1)."""
    out = OrderedDict()
    for fam, members in families.items():
        name = {row: adapter for adapter, row in members}
        order = median_order(list(name), pilot)
        pairs = [(order[i], r) for i in range(min(LEADERS, len(order))) for r in order[i + 1:]]
        pairs += [(order[i], order[i + 1]) for i in range(LEADERS, min(TOP, len(order)) - 1)]
        for a, b in pairs:
            out[f"{fam}: {name[a]} vs {name[b]}"] = (fam, a, b)
    return out


@dataclass
class Outcome:
    """What the rounds did: values per row (one per round it ran), the comparisons and their
    family of decisions, and why they stopped (decided, budget, max-rounds, pilot)."""
    values: dict
    pairs: OrderedDict = field(default_factory=OrderedDict)
    family: Family = None
    rounds: int = 0
    pilot_rounds: int = 0
    why: str = "pilot"
    seconds: float = 0.0
    failed: dict = field(default_factory=dict)   # row -> its error


def open_rows(outcome):
    """The rows the next round runs: those in an open comparison."""
    rows = set()
    for key in outcome.family.open():
        _fam, a, b = outcome.pairs[key]
        if a not in outcome.failed and b not in outcome.failed:
            rows.update((a, b))
    return sorted(rows)


def one_round(run_round, rows, outcome, feed):
    """Runs rows once; keeps the values, and feeds them to the test when feed."""
    got, errors = run_round(rows)
    outcome.failed.update(errors)
    for row, v in got.items():
        outcome.values[row].append(v)
    outcome.rounds += 1
    if feed:
        for key in outcome.family.open():
            _fam, a, b = outcome.pairs[key]
            if a in got and b in got:
                outcome.family.add(key, got[a], got[b])


def run_rounds(run_round, families, budget, alpha=0.01, margin=0.02, min_rounds=MIN_ROUNDS,
               max_rounds=MAX_ROUNDS, clock=time.monotonic, log=lambda line: None):
    """Rounds until decided. run_round(rows) -> ({row: value}, {row: error});
    families {family: [(adapter, row)]}. Returns an Outcome."""
    rows = sorted(row for members in families.values() for _a, row in members)
    outcome = Outcome({r: [] for r in rows})
    start = clock()
    for _ in range(min_rounds):
        one_round(run_round, [r for r in rows if r not in outcome.failed], outcome, False)
    outcome.pilot_rounds = outcome.rounds
    outcome.pairs = plan(families, outcome.values)
    outcome.family = Family(outcome.pairs, alpha=alpha, margin=margin)
    log(f"bench_rounds: pilot of {min_rounds} rounds done in {clock() - start:.0f} s; "
        f"{len(outcome.pairs)} comparisons, none decided before {min_rounds} + "
        f"{max((outcome.family.fewest_rounds(k) for k in outcome.pairs), default=0)} rounds")
    last = 0.0
    while True:
        pending = open_rows(outcome)
        if not pending:
            outcome.why = "decided"
            break
        if outcome.rounds >= max_rounds:
            outcome.why = "max-rounds"
            break
        if last > budget - (clock() - start):
            outcome.why = "budget"
            break
        t0 = clock()
        one_round(run_round, pending, outcome, True)
        last = clock() - t0
        log(f"bench_rounds: round {outcome.rounds}: {len(pending)} rows, "
            f"{len(outcome.family.open())} of {len(outcome.pairs)} comparisons open, "
            f"{max(0.0, budget - (clock() - start)):.0f} s left")
    outcome.seconds = clock() - start
    return outcome


def adapter_of(row):
    """The adapter of a headline row (decode/<adapter>/<family>/complex.call)."""
    return names.fields(row, "level")["adapter"]


def decided_pairs(doc):
    """{(family, frozenset of the two adapters): (state, the faster adapter, p)} of a decisions
    document (decisions_doc), for whoever reads the decisions pair by pair."""
    out = {}
    for c in doc.get("comparisons", []):
        a, b = adapter_of(c["base"]), adapter_of(c["head"])
        faster = a if (c.get("shift") or 0) > 0 else b
        out[(c["family"], frozenset((a, b)))] = (c["state"], faster, c.get("p"))
    return out


def decisions_doc(outcome, budget):
    """The document the report reads (the "rounds_until_decided" key of the results file)."""
    fam = outcome.family
    rows = []
    for d in fam.decisions():
        family, a, b = outcome.pairs[d.key]
        rows.append(dict(d.as_dict(), family=family, base=a, head=b))
    return {"alpha": fam.alpha, "margin": fam.margin, "leaders": LEADERS, "top": TOP,
            "budget_s": budget,
            "seconds": round(outcome.seconds, 1), "rounds": outcome.rounds,
            "pilot_rounds": outcome.pilot_rounds, "stopped": outcome.why,
            "row_rounds": {r: len(v) for r, v in outcome.values.items()},
            "failed": outcome.failed, "comparisons": rows}
