#!/usr/bin/python3
"""Tests of tools/sbtools/stats.py: the interval of the median and the ranking rule (label unit)."""
import re
import unittest

from tools_common import *  # noqa: E402,F401,F403  (paths, tool(), the samples, Tmp)
from sbtools import gbench, stats  # noqa: E402

class StatsTest(unittest.TestCase):
    """tools/sbtools/stats.py: the interval of the median and the ranking rule."""


    @staticmethod
    def result(times):
        r = gbench.Result("x")
        r.times = list(times)
        return r

    def test_median_interval_from_order_statistics(self):
        self.assertIsNone(stats.median_ci([1.0]))
        lo, hi, cov = stats.median_ci([5, 1, 4, 2, 3])     # n = 5: [min, max] covers 93.75%
        self.assertEqual((lo, hi), (1, 5))
        self.assertAlmostEqual(cov, 0.9375)
        lo, hi, cov = stats.median_ci(range(1, 10))        # n = 9: [x2, x8] covers 96.1%
        self.assertEqual((lo, hi), (2, 8))
        self.assertAlmostEqual(cov, 1 - 2 * 10 / 512)
        self.assertEqual(stats.min_ci_n(), 6)

    def test_ranking(self):
        fast, slow = self.result([10, 11, 10.5, 10.2, 10.8]), self.result([20, 21, 20.5, 20.2, 20.8])
        rk = stats.Ranking({"slow": slow, "fast": fast})
        self.assertTrue(rk.clear)
        self.assertEqual((rk.leader, rk.tied), ("fast", ["fast"]))
        rk = stats.Ranking({"a": fast, "b": self.result([10.1, 10.9, 10.4, 10.3, 10.7]), "c": slow})
        self.assertFalse(rk.clear)
        self.assertEqual(sorted(rk.tied), ["a", "b"])
        rk = stats.Ranking({"a": self.result([1.0]), "b": self.result([2.0])})
        self.assertFalse(rk.clear)
        self.assertFalse(rk.repeated)

    def test_mann_whitney_exact_without_ties(self):
        # 9 against 9, apart: exact p = 2 / C(18, 9); the normal approximation (scipy's default
        # from 8 a side) would say 3e-4. tools/report, tools/compare and tools/track share it.
        self.assertAlmostEqual(stats.mann_whitney_p(range(9), range(10, 19)), 2 / 48620)
        self.assertEqual(stats.mann_whitney_p([1.0, 1.0], [1.0]), 1.0)
        tied = stats.mann_whitney_p([1, 2, 2, 3] * 3, [2, 3, 3, 4] * 3)  # ties: approximation
        self.assertTrue(0.0 < tied < 1.0)


if __name__ == "__main__":
    main()
