#!/usr/bin/python3
"""Tests of sbtools.sequential (ctest tools.sequential, label unit; seeded, a few seconds): its
error rates by simulation on A/A data and on planted shifts, with the noise a shared machine
makes (heavy tails: one run in ten up to 3x slower, on either side); the family's alpha split;
a lone shift found among thousands of comparisons; the decisions' rules (same within the
margin, different with the shift's interval, final)."""
import math
import random
import unittest

from sbtools import sequential
from sbtools.sequential import Family

SIGMA = 0.03      # spread of one round's log ratio (duet CPU time here: 3-6%)


def noisy_log_ratio(rng, shift=0.0):
    """One round's log(head / base): two runs' noise, and now and then a run the machine
    stretched (either side, so the A/A ratio stays symmetric)."""
    def run():
        x = rng.gauss(0.0, SIGMA / math.sqrt(2))
        return x + (math.log(1 + 2 * rng.random()) if rng.random() < 0.1 else 0.0)
    return math.log1p(shift) + run() - run()


def simulate(families, comparisons, rounds, alpha, shift_of, seed=1, margin=0.02):
    """Runs `families` families of `comparisons` comparisons for up to `rounds` rounds each;
    shift_of(k) is comparison k's true shift. Returns the families' decisions."""
    rng = random.Random(seed)
    out = []
    for _ in range(families):
        fam = Family(range(comparisons), alpha=alpha, margin=margin)
        for _r in range(rounds):
            left = fam.open()
            if not left:
                break
            for k in left:
                fam.add_log_ratio(k, noisy_log_ratio(rng, shift_of(k)))
        out.append(fam.decisions())
    return out


class ErrorRates(unittest.TestCase):
    """A/A: no family says "different" more often than alpha; every interval covers 0."""

    def test_aa(self):
        alpha, families = 0.1, 200
        runs = simulate(families, 10, 150, alpha, lambda k: 0.0)
        alarms = sum(1 for decs in runs if any(d.state == "different" for d in decs))
        same = sum(1 for decs in runs for d in decs if d.state == "same")
        # Binomial slack: alpha plus three standard errors.
        limit = alpha + 3 * math.sqrt(alpha * (1 - alpha) / families)
        print(f"A/A: families with a false 'different': {alarms}/{families} (alpha {alpha}); "
              f"'same' decided {same}/{families * 10}")
        self.assertLessEqual(alarms / families, limit)
        self.assertGreater(same, families * 10 // 2, "A/A should mostly be decided same")

    def test_planted_shift(self):
        alpha, families, shift = 0.01, 200, 0.05
        runs = simulate(families, 1, 200, alpha, lambda k: shift, seed=7)
        decs = [decs[0] for decs in runs]
        found = [d for d in decs if d.state == "different"]
        wrong_sign = [d for d in found if d.shift < 0]
        missed = [d for d in decs if d.low is not None and d.high is not None
                  and not d.low <= shift <= d.high]
        print(f"{shift:.0%} shift found {len(found)}/{families} (median "
              f"{sorted(d.rounds for d in found)[len(found) // 2]} rounds); intervals "
              f"missing it {len(missed)}")
        self.assertGreaterEqual(len(found) / families, 0.9)
        self.assertEqual(wrong_sign, [])
        self.assertFalse(any(d.state == "same" for d in decs), "a 5% shift is never 'same'")
        self.assertLessEqual(len(missed) / families, alpha + 3 * math.sqrt(alpha / families))


class Multiplicity(unittest.TestCase):
    def test_alpha_split_with_weights(self):
        fam = Family(["headline", "a", "b"], alpha=0.01, weights={"headline": 2})
        self.assertAlmostEqual(fam.decision("headline").alpha, 0.005)
        self.assertAlmostEqual(fam.decision("a").alpha, 0.0025)

    def test_a_lone_shift_among_thousands_is_reachable(self):
        """The p a family of 4,869 benchmarks x 2 metrics needs (alpha 0.01 / 9,738 = 1e-6,
        below the 2.1e-6 Benjamini-Hochberg needs and far below 9 + 9 runs' 4.1e-5) is reached
        by sampling on, at a logarithmic price in rounds."""
        big, small = Family(range(4869 * 2), alpha=0.01), Family(range(30 * 2), alpha=0.01)
        self.assertLess(big.decision(0).alpha, 2.1e-6)
        rng = random.Random(3)
        for _ in range(400):
            d = noisy_log_ratio(rng, 0.05)
            big.add_log_ratio(0, d)
            small.add_log_ratio(0, d)
        dec = big.decision(0)
        self.assertEqual(dec.state, "different")
        self.assertLessEqual(dec.p, dec.alpha)
        print(f"5% shift among 9,738 comparisons: decided after {dec.rounds} rounds, p "
              f"{dec.p:.2g}; among 60 after {small.decision(0).rounds}; fewest possible "
              f"{big.fewest_rounds(0)} vs {small.fewest_rounds(0)}")
        self.assertLess(big.fewest_rounds(0), 2 * small.fewest_rounds(0))
        self.assertLess(dec.rounds, 2 * small.decision(0).rounds)


class Decisions(unittest.TestCase):
    def test_different_has_shift_and_interval(self):
        fam = Family(["x"], alpha=0.01)
        rng = random.Random(5)
        while fam.open():
            fam.add("x", 100.0, 100.0 * 1.2 * math.exp(rng.gauss(0, 0.02)))
        d = fam.decision("x")
        self.assertEqual(d.state, "different")
        self.assertTrue(d.low <= d.shift <= d.high)
        self.assertAlmostEqual(d.shift, 0.2, delta=0.03)
        self.assertGreater(d.low, 0)

    def test_same_means_inside_the_margin(self):
        fam = Family(["x"], alpha=0.01, margin=0.02)
        rng = random.Random(6)
        while fam.open():
            fam.add_log_ratio("x", rng.gauss(0, 0.005))
        d = fam.decision("x")
        self.assertEqual(d.state, "same")
        self.assertTrue(-0.02 < d.low and d.high < 0.02)

    def test_a_decision_is_final(self):
        fam = Family(["x"], alpha=0.01)
        while fam.open():
            fam.add_log_ratio("x", 0.3)
        rounds = fam.decision("x").rounds
        for _ in range(50):
            fam.add_log_ratio("x", -0.3)
        self.assertEqual((fam.decision("x").state, fam.decision("x").rounds), ("different", rounds))

    def test_nothing_decided_before_the_fewest_rounds(self):
        fam = Family(["x"], alpha=0.001)
        need = fam.fewest_rounds("x")
        for _ in range(need - 1):
            fam.add_log_ratio("x", 1.0)
        self.assertEqual(fam.decision("x").state, "undecided")
        self.assertIsNone(fam.decision("x").low)
        fam.add_log_ratio("x", 1.0)
        self.assertEqual(fam.decision("x").state, "different")

    def test_bad_input(self):
        with self.assertRaises(ValueError):
            Family(["x", "x"])
        with self.assertRaises(ValueError):
            Family(["x"], alpha=1.5)
        with self.assertRaises(ValueError):
            Family(["x"]).add("x", 0.0, 1.0)
        with self.assertRaises(ValueError):
            Family(["x"]).add_log_ratio("x", math.nan)

    def test_boundary_matches_the_paper(self):
        """confseq's reference values (Howard et al.'s R implementation): rho for v_opt = 100
        at alpha 0.05, and the two-sided bound at v = 100."""
        rho = sequential.mixture_rho(100, 0.05)
        self.assertAlmostEqual(rho, 12.60056, places=4)
        self.assertAlmostEqual(sequential.boundary(100, rho, 0.05), 30.35209, places=4)


if __name__ == "__main__":
    unittest.main(verbosity=2)
