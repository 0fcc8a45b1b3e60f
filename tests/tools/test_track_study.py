#!/usr/bin/python3
"""sbtools.track.study (label unit): the tracker's study on this machine's recorded A/A runs
(tests/data/track/aa_runs.json): the runs read back as a matrix, each run's common factor taken
out, the windows, the noise figures, and a planted slowdown found where it was planted while
the unchanged series stay quiet. The study's long commands themselves are run by hand
(docs/ci.md); tools/track_study's help is checked here."""
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

import track_testlib as lib
from sbtools.track import study

RUNS = 50  # one study window


class StudyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="sb-track-study-")
        for i in range(RUNS):
            lib.aa_file(i, os.path.join(cls.tmp, f"aa-{i:03d}.json"))
        cls.runs = study.aa_runs(cls.tmp)
        cls.names, cls.values = study.aa_matrix(cls.runs)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_the_runs_as_a_matrix_of_medians(self):
        self.assertEqual(len(self.runs), RUNS)
        self.assertEqual([r.date for r in self.runs], sorted(r.date for r in self.runs))
        self.assertEqual(self.values.shape, (RUNS, len(self.names)))
        doc = lib.load(lib.AA)
        j = self.names.index(doc["benchmarks"][1])
        self.assertAlmostEqual(self.values[0, j], float(np.median(doc["runs"][0]["real_time"][1])))

    def test_a_runs_common_factor_is_taken_out(self):
        slowed = self.values.copy()
        slowed[7] *= 1.5  # the whole run on a slower moment
        self.assertTrue(np.allclose(study.ratios(slowed)[7], study.ratios(self.values)[7],
                                    rtol=0.02))
        self.assertFalse(np.allclose(slowed[7], self.values[7], rtol=0.02))

    def test_windows(self):
        self.assertEqual(study.windows(80), [(0, 50), (30, 80)])
        self.assertEqual(study.windows(20), [(0, 20)])

    def test_noise_figures(self):
        got = study.noise(self.values)
        self.assertEqual(sorted(got), ["run_factor_max", "run_factor_min", "spread_as_measured",
                                       "spread_as_ratios"])
        self.assertLessEqual(got["run_factor_min"], 1.0)
        self.assertGreaterEqual(got["run_factor_max"], 1.0)

    def test_a_planted_slowdown_is_found_and_quiet_series_stay_quiet(self):
        # docs/ci.md's power table: a 300% wall-time slowdown in the last 5 of 50 runs is found
        # in about 81% of trials here; nothing planted, nothing found.
        hits, trials = study.planted_detection(self.values, self.names, 3.0)
        self.assertEqual(trials, len(self.names))
        self.assertGreaterEqual(hits / trials, 0.6)
        self.assertEqual(study.planted_detection(self.values, self.names, 0.0)[0], 0)

    def test_the_command_lists_its_studies(self):
        out = subprocess.run([lib.PY, os.path.join(lib.TOOLS, "track_study"), "--help"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        for name in ("aa-record", "false-alarms", "power", "icount-power", "cost", "ab-record",
                     "ab-power", "ab-trials"):
            self.assertIn(name, out.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
