#!/usr/bin/python3
"""Tests of sbtools.rounds (ctest tools.rounds, label unit; seeded, seconds): the rounds until
decided on a simulated machine, whose rows' true times are known. Their error rates by
simulation: on A/A rows (every adapter as fast as the leader) no more false "different" than
the alpha claimed, with the leader picked by the pilot; planted shifts found with their sign and
covered by their intervals; ties never called different. Then the plan, rows stopping when
decided, the budget, a failing row."""
import math
import random
import sys
import unittest

from sbtools import rounds
from sbtools.rounds import Outcome, plan, run_rounds

SIGMA = 0.03      # spread of one run's log time


class Machine:
    """One round: every row's true time times noise, heavy-tailed as a shared machine's (one run
    in ten up to 3x slower)."""

    def __init__(self, true, seed, fail=()):
        self.true, self.rng, self.fail = true, random.Random(seed), set(fail)
        self.calls = []

    def __call__(self, rows):
        self.calls.append(list(rows))
        values = {}
        for r in rows:
            x = self.rng.gauss(0.0, SIGMA)
            if self.rng.random() < 0.1:
                x += math.log(1 + 2 * self.rng.random())
            values[r] = self.true[r] * math.exp(x)
        return ({r: v for r, v in values.items() if r not in self.fail},
                {r: "wrong answer" for r in rows if r in self.fail})


def families_of(true):
    """{family: [(adapter, row)]} of rows named '<family>/<adapter>'."""
    out = {}
    for row in sorted(true):
        fam, adapter = row.split("/")
        out.setdefault(fam, []).append((adapter, row))
    return out


def simulate(true, seed, alpha=0.05, max_rounds=80, budget=1e9):
    return run_rounds(Machine(true, seed), families_of(true), budget, alpha=alpha,
                      max_rounds=max_rounds)


class ErrorRatesTest(unittest.TestCase):
    SETS = 200

    def test_a_a_rows_are_called_different_no_more_often_than_alpha(self):
        # Six adapters as fast as each other: any "different" is a false alarm, the leader the
        # pilot's luckiest (the count is printed; the sign test's sequence is cautious).
        true = {f"f/a{i}": 1.0 for i in range(6)}
        alpha = 0.05
        alarms = sum(any(d.state == "different"
                         for d in simulate(true, s, alpha).family.decisions())
                     for s in range(self.SETS))
        print(f"\nA/A: {alarms} of {self.SETS} sets with a false alarm at a claimed {alpha:.0%}",
              file=sys.stderr)
        # Binomial(200, 0.05): P(X > 18) < 0.01, so a test at its claimed rate passes.
        self.assertLessEqual(alarms, 18, f"{alarms} of {self.SETS} A/A sets had a false alarm")

    def test_planted_shifts_are_found_with_their_sign_and_covered(self):
        shifts = {"a1": 0.10, "a2": 0.25, "a3": 0.5, "a4": 1.0}
        true = {"f/a0": 1.0, **{f"f/{a}": 1.0 + s for a, s in shifts.items()}}
        missed = wrong = uncovered = 0
        for s in range(self.SETS // 4):
            out = simulate(true, 100 + s, alpha=0.01, max_rounds=120)
            for d in out.family.decisions():
                _fam, base, head = out.pairs[d.key]
                if base != "f/a0":
                    continue
                truth = true[head] / true[base] - 1
                missed += d.state != "different"
                wrong += d.state == "different" and d.shift <= 0
                uncovered += d.low is not None and not d.low <= truth <= d.high
        self.assertEqual(missed, 0)
        self.assertEqual(wrong, 0)
        self.assertLessEqual(uncovered, 2)   # 200 intervals at alpha 0.01 together

    def test_a_tie_within_the_margin_is_never_called_different(self):
        true = {"f/a0": 1.0, "f/a1": 1.003, "f/a2": 1.5}
        for s in range(self.SETS // 4):
            out = simulate(true, 300 + s, alpha=0.01, max_rounds=150)
            key = next(k for k, (_f, a, b) in out.pairs.items() if {a, b} == {"f/a0", "f/a1"})
            self.assertIn(out.family.decision(key).state, ("same", "undecided"))


class PlanTest(unittest.TestCase):
    def test_every_adapter_against_the_pilot_leaders_and_the_top_four_in_order(self):
        pilot = {f"f/a{i}": [1.0 + i, 1.0 + i, 1.0 + i] for i in range(6)}
        pilot["g/x"], pilot["g/y"] = [2.0, 2.1, 2.2], [1.0, 0.9, 1.1]
        pairs = plan(families_of(pilot), pilot)
        self.assertEqual(list(pairs), [
            "f: a0 vs a1", "f: a0 vs a2", "f: a0 vs a3", "f: a0 vs a4", "f: a0 vs a5",
            "f: a1 vs a2", "f: a1 vs a3", "f: a1 vs a4", "f: a1 vs a5", "f: a2 vs a3",
            "g: y vs x"])
        self.assertEqual(pairs["g: y vs x"], ("g", "g/y", "g/x"))
        self.assertEqual((rounds.LEADERS, rounds.TOP), (2, 4))

    def test_a_row_without_pilot_values_is_left_out(self):
        pilot = {"f/a": [1.0] * 3, "f/b": [], "f/c": [2.0] * 3}
        self.assertEqual(list(plan(families_of(pilot), pilot)), ["f: a vs c"])


class RoundsTest(unittest.TestCase):
    def test_the_pilot_runs_every_row_and_a_decided_row_stops(self):
        true = {"f/a0": 1.0, "f/a1": 1.004, "f/a2": 3.0}
        m = Machine(true, 7)
        out = run_rounds(m, families_of(true), budget=1e9, max_rounds=60)
        self.assertEqual(m.calls[:3], [sorted(true)] * 3)
        self.assertEqual(out.pilot_rounds, 3)
        slow = len(out.values["f/a2"])
        self.assertLess(slow, len(out.values["f/a0"]))   # the near tie kept a0 running
        key = next(k for k, (_f, _a, b) in out.pairs.items() if b == "f/a2")
        self.assertEqual(out.family.decision(key).state, "different")
        self.assertEqual(slow, 3 + out.family.decision(key).rounds)

    def test_the_budget_stops_the_rounds_and_says_so(self):
        ticks = iter(range(100000))
        true = {"f/a0": 1.0, "f/a1": 1.004}
        out = run_rounds(Machine(true, 3), families_of(true), budget=10,
                         clock=lambda: float(next(ticks)))
        self.assertEqual(out.why, "budget")
        self.assertEqual(out.family.open(), ["f: a0 vs a1"] if out.pairs["f: a0 vs a1"][1] ==
                         "f/a0" else ["f: a1 vs a0"])
        # The pilot runs whatever the budget says.
        out = run_rounds(Machine(true, 3), families_of(true), budget=1e-9)
        self.assertEqual((out.rounds, out.why), (3, "budget"))

    def test_everything_decided_stops_the_set(self):
        true = {"f/a0": 1.0, "f/a1": 2.0, "g/b0": 1.0, "g/b1": 1.5}
        out = run_rounds(Machine(true, 5), families_of(true), budget=1e9)
        self.assertEqual(out.why, "decided")
        self.assertEqual(out.family.open(), [])
        doc = rounds.decisions_doc(out, 60)
        self.assertEqual(doc["stopped"], "decided")
        self.assertEqual(doc["row_rounds"]["f/a1"], len(out.values["f/a1"]))
        self.assertEqual({c["base"] for c in doc["comparisons"]}, {"f/a0", "g/b0"})
        self.assertEqual(len(doc["comparisons"]), 2)

    def test_a_failing_row_is_left_out_and_named(self):
        true = {"f/a0": 1.0, "f/a1": 2.0, "f/a2": 3.0}
        out = run_rounds(Machine(true, 5, fail={"f/a1"}), families_of(true), budget=1e9)
        self.assertEqual(out.failed, {"f/a1": "wrong answer"})
        self.assertEqual([b for _f, _a, b in out.pairs.values()], ["f/a2"])
        self.assertIsInstance(out, Outcome)


if __name__ == "__main__":
    unittest.main(verbosity=2)
