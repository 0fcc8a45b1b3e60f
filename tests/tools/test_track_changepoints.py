#!/usr/bin/python3
"""Tests of sbtools.track.changepoints and stats (ctest label unit): the E-divisive statistic
against its definition, change points found where they are, none in noise at the stated rate,
and on this machine's real A/A timings (tests/data/track/aa_runs.json): no change point in the
A/A series, a slowdown planted into them found within 5 runs."""
import itertools
import math
import os
import unittest

import numpy as np

import track_testlib as lib
from sbtools.track import changepoints as cp
from sbtools.track import history, stats, study


def q_by_definition(x, y):
    """Matteson & James' Q for exponent 1, written out."""
    n, m = len(x), len(y)
    between = sum(abs(a - b) for a in x for b in y)
    within_x = sum(abs(a - b) for a, b in itertools.combinations(x, 2))
    within_y = sum(abs(a - b) for a, b in itertools.combinations(y, 2))
    e = 2 * between / (n * m) - within_x / math.comb(n, 2) - within_y / math.comb(m, 2)
    return n * m / (n + m) * e


class StatisticTest(unittest.TestCase):
    def test_best_split_matches_the_definition(self):
        rng = np.random.default_rng(7)
        for length in (6, 11, 17):
            z = rng.normal(size=length)
            best = max((q_by_definition(z[:t], z[t:k]), t)
                       for t in range(cp.MIN_SIZE, length - cp.MIN_SIZE + 1)
                       for k in range(t + cp.MIN_SIZE, length + 1))
            q, tau = cp.best_splits(z[None, :])
            self.assertAlmostEqual(q[0], best[0], places=9)
            self.assertEqual(tau[0], best[1])

    def test_too_short_or_constant_has_none(self):
        self.assertEqual(cp.e_divisive([1.0, 2.0, 3.0]), [])
        self.assertEqual(cp.e_divisive([5.0] * 40), [])


class DetectionTest(unittest.TestCase):
    def test_one_step_found_where_it_is(self):
        rng = np.random.default_rng(1)
        x = np.concatenate([rng.normal(100, 1, 40), rng.normal(104, 1, 20)])
        found = cp.e_divisive(x, seed=3)
        self.assertEqual([c.index for c in found], [40])
        self.assertLessEqual(found[0].p, cp.SIGNIFICANCE)

    def test_two_steps_and_a_late_one(self):
        rng = np.random.default_rng(2)
        x = np.concatenate([rng.normal(100, 1, 30), rng.normal(110, 1, 30),
                            rng.normal(95, 1, 5)])
        self.assertEqual([c.index for c in cp.e_divisive(x, seed=3)], [30, 60])

    def test_the_same_history_gives_the_same_answer(self):
        rng = np.random.default_rng(3)
        x = np.concatenate([rng.normal(100, 3, 25), rng.normal(103, 3, 25)])
        self.assertEqual(cp.e_divisive(x, seed=11), cp.e_divisive(x, seed=11))

    def test_false_change_points_in_noise_at_the_stated_rate(self):
        # 300 series of 50 i.i.d. values: the first split's false rate is at most SIGNIFICANCE;
        # 300 * 0.01 = 3 expected, P(more than 9) < 0.002 (binomial).
        rng = np.random.default_rng(4)
        hits = sum(1 for i in range(300) if cp.e_divisive(rng.lognormal(0, 0.1, 50), seed=i))
        self.assertLessEqual(hits, 9)


class RealNoiseTest(unittest.TestCase):
    """This machine's A/A runs (tests/data/track/aa_runs.json: one parse_bench binary run 80
    times while other jobs loaded the machine), in the two windows of 50 runs the power study
    uses, divided by each run's common factor as history.py does (study.ratios)."""

    @classmethod
    def setUpClass(cls):
        doc = lib.load(lib.AA)
        cls.names = doc["benchmarks"]
        cls.values = {m: np.array([[np.median(reps) for reps in run[m]] for run in doc["runs"]])
                      for m in ("real_time", "cpu_time")}

    def found(self, metric, shift=0.0):
        """[(benchmark, window start, [Change])] with `shift` planted in each window's last 5."""
        out = []
        for start, end in study.windows(self.values[metric].shape[0]):
            for j, name in enumerate(self.names):
                window = self.values[metric][start:end].copy()
                window[-study.AFTER:, j] *= 1 + shift
                x = study.ratios(window)[:, j]
                out.append((name, start, study.changes_in(x, history.seed_of(name, str(start)))))
        return out

    def test_no_change_point_in_the_aa_cpu_times(self):
        self.assertEqual([(n, s) for n, s, c in self.found("cpu_time") if c], [])

    def test_few_in_the_aa_wall_times(self):
        # Wall time is what the load moves: the study found 3 of 190 (docs/ci.md).
        self.assertLessEqual(len([1 for _n, _s, c in self.found("real_time") if c]), 4)

    def test_a_planted_slowdown_is_found_within_five_runs(self):
        for metric, shift, share in (("cpu_time", 1.0, 0.9), ("real_time", 3.0, 0.75)):
            found = self.found(metric, shift)
            at = study.WINDOW - study.AFTER
            hits = sum(1 for _n, _s, changes in found
                       if any(abs(c.index - at) <= 1 and c.regression for c in changes))
            self.assertGreaterEqual(hits / len(found), share, (metric, hits, len(found)))


class StatsTest(unittest.TestCase):
    def test_hodges_lehmann(self):
        base = [100, 102, 98, 101, 99, 100, 103, 97, 100]
        head = [v * 1.1 for v in base]
        shift, lo, hi = stats.hodges_lehmann(base, head)
        self.assertAlmostEqual(shift, 0.1, places=9)
        self.assertLess(lo, 0.1)
        self.assertGreater(hi, 0.1)
        brute = np.median([math.log(h) - math.log(b) for b in base for h in head])
        self.assertAlmostEqual(math.log1p(shift), brute, places=12)

    def test_benjamini_hochberg(self):
        # Benjamini & Hochberg (1995)'s worked example, 15 p-values at q = 0.05: 4 rejected.
        p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
             0.4262, 0.5719, 0.6528, 0.7590, 1.0]
        rejected, _adj = stats.benjamini_hochberg(p, 0.05)
        self.assertEqual(sum(rejected), 4)
        self.assertTrue(all(rejected[:4]))

    def test_noise_floor(self):
        self.assertEqual(stats.noise_floor([100.0] * 10), 0.0)
        self.assertEqual(stats.noise_floor([100.0, 101.0]), 0.0)  # too little to learn from
        floor = stats.noise_floor([100, 101, 100, 101, 100, 101, 100, 150, 101, 100])
        self.assertLess(floor, 0.1)  # the one jump is an outlier, not the noise
        self.assertGreater(floor, 0.0)

    def test_band_ignores_one_outlier(self):
        lo, hi = stats.band([10, 11, 10, 12, 11, 10, 50])
        self.assertLess(hi, 50)
        self.assertEqual(lo, 10)


if __name__ == "__main__":
    unittest.main(verbosity=2)
