#!/usr/bin/python3
"""Tests of sbtools.cachecost (label unit): callgrind's totals read into events, and the
estimated cycles folded from them (L1 hits + 5 x LL hits + 35 x RAM accesses)."""
import unittest

from sbtools import cachecost

NAMES = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]


class CacheCostTest(unittest.TestCase):
    def test_trailing_zero_events_are_filled_in(self):
        ev = cachecost.events(NAMES, [100, 40, 10, 5])
        self.assertEqual(ev["I1mr"], 5)
        self.assertEqual(ev["DLmw"], 0)
        self.assertEqual(len(ev), len(NAMES))

    def test_the_formula(self):
        # 150 accesses; 5 + 3 + 2 = 10 L1 misses, of which 1 + 2 + 0 = 3 go to RAM:
        # 140 L1 hits + 5 x 7 LL hits + 35 x 3 RAM accesses.
        ev = cachecost.events(NAMES, [100, 40, 10, 5, 3, 2, 1, 2, 0])
        self.assertEqual(cachecost.estimated_cycles(ev), 140 + 5 * 7 + 35 * 3)

    def test_more_misses_same_instructions_cost_more(self):
        few = cachecost.events(NAMES, [100, 40, 10, 1, 1, 0, 0, 0, 0])
        many = cachecost.events(NAMES, [100, 40, 10, 1, 20, 0, 0, 10, 0])
        self.assertGreater(cachecost.estimated_cycles(many), cachecost.estimated_cycles(few))

    def test_no_simulation_no_estimate(self):
        self.assertIsNone(cachecost.estimated_cycles({"Ir": 100}))


if __name__ == "__main__":
    unittest.main(verbosity=2)
