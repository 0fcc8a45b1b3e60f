#!/usr/bin/python3
"""Tests of sbtools.track.ab_study (ctest tools.track.ab_study, label unit; pure Python on
synthetic recorded rounds, seconds): the resampled A/B finds a slowdown planted into one row's
log ratios and raises no alarm on A/A; its budget stops it; the noise summary measures the
spread it was given; the current gate (9 + 9 runs) is judged on the same rounds; full trials
summarised. The real figures come from `tools/track_study ab-record / ab-power / ab-trials`
(docs/ci.md "Timing A/B of a pull request")."""
import math
import random
import unittest

from sbtools.track import ab_study

ROWS = [f"parse:decode/a/f{i}/getRate.call" for i in range(6)]
SIGMA = 0.03


def rounds(n, mode, seed=1):
    """Recorded A/A rounds: each side's value lognormal about 100 with spread SIGMA / sqrt(2)."""
    rng = random.Random(seed)
    def v():
        return 100.0 * math.exp(rng.gauss(0, SIGMA / math.sqrt(2)))
    return [{"mode": mode, "seconds": 0.5, "load": 2.0, "min_time": 0.002,
             "rows": {r: {side: {"cpu_time": v(), "real_time": v()} for side in ("base", "head")}
                      for r in ROWS}} for _ in range(n)]


class Resampled(unittest.TestCase):
    def test_a_planted_shift_is_found_and_aa_is_quiet(self):
        recorded = rounds(200, "duet")
        rng = random.Random(2)
        fam, n, seconds = ab_study.resampled_ab(recorded, ROWS, ROWS[2], 0.10, rng)
        found = {d.key[1]: d for d in fam.decisions() if d.key[0] == ROWS[2]}
        self.assertEqual({m: d.state for m, d in found.items()},
                         {"cpu_time": "different", "real_time": "different"})
        self.assertTrue(all(d.low <= 0.10 <= d.high for d in found.values()), found)
        self.assertFalse(any(d.state == "different" for d in fam.decisions()
                             if d.key[0] != ROWS[2]))
        aa, _n, _s = ab_study.resampled_ab(recorded, ROWS, None, 0.0, rng)
        self.assertFalse(any(d.state == "different" for d in aa.decisions()))
        self.assertGreater(sum(d.state == "same" for d in aa.decisions()), len(ROWS))

    def test_the_budget_stops_it(self):
        recorded = rounds(50, "duet")
        fam, n, seconds = ab_study.resampled_ab(recorded, ROWS, None, 0.0, random.Random(3),
                                                budget=3.0)
        self.assertLessEqual(seconds, 3.0)
        self.assertEqual(n, 6)   # 0.5 s a round of all six rows, nothing decided in 6 rounds
        self.assertTrue(all(d.state == "undecided" for d in fam.decisions()))

    def test_power_tables(self):
        recorded = rounds(60, "duet") + rounds(60, "interleaved", seed=2)
        seq = ab_study.sequential_power(recorded, "duet", 10, seed=4)
        self.assertEqual(seq["0.10"]["found_cpu_time"], 1.0)
        self.assertEqual(seq["0.00"]["trials_with_false_alarm"], 0)
        gate = ab_study.gate_power(recorded, 10, seed=4)
        self.assertEqual(set(gate), {"0.00", "0.02", "0.05", "0.10"})
        self.assertIn("found", gate["0.10"]["cpu_time"])


class Summaries(unittest.TestCase):
    def test_noise_measures_the_spread(self):
        n = ab_study.noise(rounds(400, "duet"))
        self.assertEqual(n["duet"]["rounds"], 400)
        self.assertAlmostEqual(n["duet"]["spread_cpu_time"], SIGMA, delta=0.005)

    def test_trials_summary(self):
        recs = [{"shift": 0.05, "found": {"cpu_time": True, "real_time": False},
                 "false_alarms": [], "seconds": 80.0, "load": [1.0, 2.0]},
                {"shift": 0.05, "found": {"cpu_time": True, "real_time": True},
                 "false_alarms": ["parse:x cpu_time"], "seconds": 120.0, "load": [1.5, 3.0]},
                {"shift": 0.0, "found": None, "false_alarms": [], "seconds": 60.0, "load": None}]
        out = ab_study.summarize_trials(recs)["trials"]
        self.assertEqual(out["0.05"], {"trials": 2, "found_cpu_time": 2, "found_real_time": 1,
                                       "with_false_alarm": 1, "max_seconds": 120.0,
                                       "load": [1.0, 3.0]})
        self.assertEqual(out["0.00"]["with_false_alarm"], 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
