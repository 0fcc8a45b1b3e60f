#!/usr/bin/python3
"""sbtools.track.metrics (label unit): the one list of what each metric is, and what an unlisted
counter is taken to be (stored, not analyzed; a rate is better higher)."""
import unittest

from tools_common import main
from sbtools.track import metrics


class MetricsTest(unittest.TestCase):
    def test_the_listed_facts(self):
        self.assertEqual(metrics.metric("instructions"),
                         metrics.Metric("instructions", exact=True, lower_better=True,
                                        analyzed=True))
        self.assertFalse(metrics.metric("real_time").exact)
        self.assertFalse(metrics.metric("tps").lower_better)

    def test_an_unlisted_counter_is_stored_not_analyzed(self):
        self.assertEqual(metrics.metric("frames_per_s"),
                         metrics.Metric("", exact=False, lower_better=False, analyzed=False))
        self.assertEqual(metrics.metric("queue_ns"),
                         metrics.Metric("ns", exact=False, lower_better=True, analyzed=False))

    def test_the_analyzed_ones_sorted(self):
        got = metrics.analyzed_metrics()
        self.assertEqual(got, sorted(n for n, m in metrics.METRICS.items() if m.analyzed))
        self.assertIn("instructions", got)
        self.assertNotIn("bytes_per_second", got)

    def test_facts_are_frozen(self):
        with self.assertRaises(Exception):
            metrics.METRICS["real_time"].exact = True


if __name__ == "__main__":
    main()
