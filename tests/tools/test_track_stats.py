#!/usr/bin/python3
"""sbtools.track.stats (label unit): quantiles as numpy takes them, the Hodges-Lehmann shift and
its interval, Benjamini-Hochberg, a series' noise floor and noise band."""
import math
import random
import unittest

import numpy as np

from tools_common import main
from sbtools.track import stats


class QuantileTest(unittest.TestCase):
    def test_as_numpys_default(self):
        rng = random.Random(5)
        values = [rng.uniform(0, 100) for _ in range(37)]
        for q in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0):
            self.assertAlmostEqual(stats.quantile(values, q), float(np.quantile(values, q)))
        self.assertIsNone(stats.quantile([], 0.5))


class HodgesLehmannTest(unittest.TestCase):
    def test_a_five_percent_shift_and_an_interval_around_it(self):
        rng = random.Random(1)
        base = [100 * rng.uniform(0.98, 1.02) for _ in range(15)]
        head = [v * 1.05 for v in base]
        shift, low, high = stats.hodges_lehmann(base, head)
        self.assertAlmostEqual(shift, 0.05, places=2)
        self.assertLess(low, shift)
        self.assertLess(shift, high)
        self.assertLess(high - low, 0.05)

    def test_the_median_of_the_pairwise_log_ratios(self):
        base, head = [10.0, 11.0, 13.0], [12.0, 12.5, 20.0, 14.0]
        want = math.expm1(float(np.median([math.log(y) - math.log(x)
                                           for x in base for y in head])))
        self.assertAlmostEqual(stats.hodges_lehmann(base, head)[0], want)

    def test_symmetric_in_which_side_is_the_base(self):
        base, head = [10.0, 11.0, 12.0, 10.5], [13.0, 12.0, 14.0, 12.5]
        up, down = stats.hodges_lehmann(base, head)[0], stats.hodges_lehmann(head, base)[0]
        self.assertAlmostEqual(math.log1p(up), -math.log1p(down))

    def test_no_positive_values_no_estimate(self):
        self.assertIsNone(stats.hodges_lehmann([0.0, -1.0], [1.0]))
        self.assertIsNone(stats.hodges_lehmann([1.0], []))


class BenjaminiHochbergTest(unittest.TestCase):
    def test_adjusted_p_and_rejections_in_the_order_given(self):
        rejected, adjusted = stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.5], 0.05)
        self.assertEqual(rejected, [True, False, False, False])
        for got, want in zip(adjusted, [0.04, 0.16 / 3, 0.16 / 3, 0.5]):
            self.assertAlmostEqual(got, want)
        self.assertEqual(stats.benjamini_hochberg([], 0.05), ([], []))


class NoiseTest(unittest.TestCase):
    def test_the_floor_is_q3_plus_three_iqr_of_the_recent_changes(self):
        values = [100, 101, 100, 102, 100, 103, 100]
        changes = sorted(abs(b / a - 1) for a, b in zip(values, values[1:]))
        q1, q3 = np.quantile(changes, 0.25), np.quantile(changes, 0.75)
        self.assertAlmostEqual(stats.noise_floor(values), q3 + 3 * (q3 - q1))
        self.assertEqual(stats.noise_floor([100, 101, 102, 103]), 0.0)  # three changes: too few
        old = [100, 200] * 200  # wild changes long ago fall out of the window
        self.assertAlmostEqual(stats.noise_floor(old + [100.0] * (stats.FLOOR_WINDOW + 1)), 0.0)

    def test_the_band_is_tukeys_fences_clipped_to_what_was_seen(self):
        low, high = stats.band([10, 10.2, 10.1, 9.9, 10.0, 30.0])
        self.assertEqual(low, 9.9)
        self.assertLess(high, 30.0)
        self.assertEqual(stats.band([5.0, 5.0, 5.0]), (5.0, 5.0))


if __name__ == "__main__":
    main()
