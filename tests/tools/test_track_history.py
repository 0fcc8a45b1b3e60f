#!/usr/bin/python3
"""Tests of sbtools.track.history (ctest label unit): series out of a store, timings divided by
their run's common factor (a run the whole machine slowed is no change point; the factor
series shows it), exact series changing where they move by max(0.5%, their noise floor), open
regressions, and change points cached in the store per series and runs."""
import os
import random
import shutil
import tempfile
import time
import unittest

import track_testlib as lib
from sbtools.track import history, importers, store


def aa_ratios():
    """This machine's real noise, to draw series from: every A/A run's wall time of every
    benchmark as a ratio to that benchmark's median, divided by its run's common factor (as
    the history analyses timings)."""
    doc = lib.load(lib.AA)
    per = [[sorted(r["real_time"][k])[len(r["real_time"][k]) // 2] for r in doc["runs"]]
           for k in range(len(doc["benchmarks"]))]
    per = [[v / sorted(vals)[len(vals) // 2] for v in vals] for vals in per]
    factors = [sorted(col)[len(col) // 2] for col in zip(*per)]
    return [v / f for vals in per for v, f in zip(vals, factors)]


class HistoryTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-history-")
        self.db = store.open_store(os.path.join(self.tmp, "t.sqlite"))

    def tearDown(self):
        self.db.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def add(self, path):
        run = importers.read(path)
        self.db.add_run(run, {"build": run.build, "git": {}})

    def test_noise_does_not_flood_the_open_regressions(self):
        # Issue 44 item 13: over 30 runs of a default set, about 9,700 unplanted timing series
        # gave 55 change points (27 listed as open regressions beside the real ones). Here:
        # 40 runs of 2,000 series drawn from this machine's real A/A noise (as ratios within
        # their run) and 3 made twice as slow from run 20; only the planted ones may be open
        # regressions, the noise's points are kept apart as below the suite's multiplicity.
        rng = random.Random(44013)
        noise = aa_ratios()
        names = [f"decode/noise-{i:04d}/xmlrpc/add.call" for i in range(2000)]
        planted = [f"decode/planted-{i}/xmlrpc/add.call" for i in range(3)]
        base = {n: rng.uniform(1e3, 1e6) for n in names + planted}
        for r in range(40):
            samples = {(n, "real_time"): [base[n] * rng.choice(noise) *
                                          (2.0 if n in planted and r >= 20 else 1.0)]
                       for n in names + planted}
            run = importers.Run(f"run{r}", f"digest{r}", "m", "parse_bench", f"{r:012d}",
                                f"2026-12-01T{r // 60:02d}:{r % 60:02d}:00Z", {}, {}, "k",
                                samples, "m")
            self.db.add_run(run, {"build": {}, "git": {}})
        start = time.process_time()
        series = history.detect(self.db, history.load(self.db, metrics=["real_time"]), jobs=1)
        print(f"change points over {len(series)} series: {time.process_time() - start:.1f} s CPU")
        opened = {x.benchmark for x in series if x.open_regression}
        self.assertEqual(opened, set(planted))
        self.assertGreater(sum(len(x.weak) for x in series), 3,
                           "E-divisive alone finds false points in this much noise")
        for x in series:
            if x.benchmark in planted:
                self.assertEqual([c.index for c in x.changes], [20])
                self.assertLessEqual(x.changes[0].q, history.SUITE_FDR)

    def test_a_slow_machine_is_the_run_factor_not_a_change(self):
        # A/A runs 20-39 (runs 10 and 11 of the A/A took 4.5x and 2.7x: the real machine), and
        # from the 13th of them on every benchmark takes 1.6x (the machine, not the code).
        for i in range(20, 40):
            self.add(lib.aa_file(i, os.path.join(self.tmp, f"aa{i}.json"),
                                 lambda n, i=i: 1.6 if i >= 32 else 1.0, commit=f"{i:012d}"))
        series = history.detect(self.db, history.load(self.db, metrics=["real_time"]), jobs=1)
        factor = [x for x in series if x.benchmark == history.RUN_FACTOR]
        self.assertEqual(len(factor), 1)
        self.assertTrue(any(abs(c.index - 12) <= 1 for c in factor[0].changes), factor[0].changes)
        moved = [x.benchmark for x in series if x.benchmark != history.RUN_FACTOR and x.changes]
        self.assertLessEqual(len(moved), 2, moved)  # what A/A noise alone leaves (study: 3/190)

    def test_exact_series_change_where_they_move(self):
        for i in range(6):
            self.add(lib.icount_variant(
                lib.ICOUNT, os.path.join(self.tmp, f"ic{i}.json"), f"c{i:011d}",
                f"2026-12-04T0{i}:00:00+00:00",
                lambda n, i=i: (1.004 if i >= 2 and "/expat-sax/" in n else 1.0) *
                (1.02 if i >= 4 and "/yajl-sax/" in n else 1.0)))
        series = {x.benchmark: x for x in history.detect(
            self.db, history.load(self.db, suite="icount"), jobs=1)}
        expat = [x for b, x in series.items() if "/expat-sax/" in b]
        yajl = [x for b, x in series.items() if "/yajl-sax/" in b]
        self.assertTrue(expat and all(not x.changes for x in expat))  # 0.4% < 0.5%
        for x in yajl:
            self.assertEqual([(c.index, round(c.shift, 4)) for c in x.changes], [(4, 0.02)])
            self.assertTrue(x.open_regression)
        self.assertEqual(sum(1 for x in series.values() if x.open_regression), len(yajl))

    def test_change_points_are_cached_per_series_and_runs(self):
        for i in range(8):
            self.add(lib.aa_file(i, os.path.join(self.tmp, f"aa{i}.json"), commit=f"{i:012d}"))
        first = history.detect(self.db, history.load(self.db, metrics=["cpu_time"]), jobs=1)
        cached = self.db.count("changepoint_cache")
        self.assertEqual(cached, len([x for x in first if x.id]))
        calls = []
        original = history.detect_many
        history.detect_many = lambda tasks, *a, **k: calls.append(len(tasks)) or original(tasks)
        try:
            history.detect(self.db, history.load(self.db, metrics=["cpu_time"]), jobs=1)
            self.assertEqual(calls, [1])  # only the run factor series (not stored) again
            self.add(lib.aa_file(8, os.path.join(self.tmp, "aa8.json"), commit="8" * 12))
            history.detect(self.db, history.load(self.db, metrics=["cpu_time"]), jobs=1)
            self.assertEqual(calls[-1], cached + 1)  # a new run: every series again
        finally:
            history.detect_many = original


if __name__ == "__main__":
    unittest.main(verbosity=2)
