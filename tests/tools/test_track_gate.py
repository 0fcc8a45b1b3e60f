#!/usr/bin/python3
"""Tests of sbtools.track.gate and summary (ctest label unit), through tools/track gate: an
instruction-count change of 0.5% caught on the commit itself, the threshold max(0.5%, the
series' noise floor), timings gating only when base and head were measured interleaved (real
A/A runs of this machine, tests/data/track/aa_runs.json), the Markdown summary and the GitHub
Actions annotations."""
import os
import shutil
import tempfile
import unittest

import track_testlib as lib

PUGIXML_PARSE = "/pugixml-dom/"


def pugixml_parse(name):
    return name.startswith("parse/") and PUGIXML_PARSE in name


class IcountGateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-gate-")
        self.db = os.path.join(self.tmp, "t.sqlite")
        lib.track("record", "--no-probe", lib.ICOUNT, db=self.db, check=0)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def variant(self, name, scale, commit="feed00000001", date="2026-12-03T10:00:00+00:00"):
        return lib.icount_variant(lib.ICOUNT, os.path.join(self.tmp, name), commit, date, scale)

    def test_half_a_percent_is_caught_on_the_commit(self):
        head = self.variant("slow.json", lambda n: 1.005 if pugixml_parse(n) else 1.0)
        md = os.path.join(self.tmp, "comment.md")
        summary = os.path.join(self.tmp, "step-summary.md")
        proc = lib.track("gate", "--no-probe", "--markdown", md, head, db=self.db, check=1,
                         env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary})
        flagged = {line.split()[1].split(":", 1)[1] for line in proc.stdout.splitlines()
                   if line.startswith("regression")}
        expected = {b for b in lib.load(head)["instructions"] if pugixml_parse(b)}
        self.assertEqual(flagged, expected)
        self.assertIn("verdict: FAIL", proc.stdout)
        errors = [l for l in proc.stdout.splitlines() if l.startswith("::error title=")]
        self.assertEqual(len(errors), len(expected))
        self.assertIn("+0.50%", errors[0])
        text = lib.text(md)
        self.assertIn("### soapbench gate: FAIL", text)
        rows = [l for l in text.splitlines() if l.startswith("| `icount:")]
        self.assertEqual(len(rows), len(expected))  # only the significant changes
        self.assertIn("±0.50%", rows[0])              # each with its noise band
        self.assertIn("commits 6790742da1f5..feed00000001", rows[0])
        self.assertEqual(lib.text(summary).strip(), text.strip())

    def test_the_same_counts_pass_quietly(self):
        head = self.variant("same.json", None)
        proc = lib.track("gate", "--no-probe", head, db=self.db, check=0)
        self.assertIn("verdict: PASS (612 comparisons)", proc.stdout)
        self.assertNotIn("::", proc.stdout)  # no annotations outside GitHub Actions

    def test_a_benchmark_that_is_noisy_in_history_has_a_wider_threshold(self):
        # History: one benchmark's count wanders by about 1% run to run; the others stay.
        noisy = next(b for b in lib.load(lib.ICOUNT)["instructions"] if "/expat-sax/" in b)
        for i in range(8):
            f = 1.0 + (0.01 if i % 2 else 0.0)
            lib.track("record", "--no-probe", self.variant(
                f"h{i}.json", lambda n, f=f: f if n == noisy else 1.0, f"hist0000000{i}",
                f"2026-12-02T2{i}:00:00+00:00"), db=self.db, check=0)
        head = self.variant("head.json", lambda n: 1.008 if n in (noisy,) or
                            n.startswith("decode/tinyxml2-dom/") else 1.0)
        proc = lib.track("gate", "--no-probe", head, db=self.db, check=1)
        flagged = {line.split()[1].split(":", 1)[1] for line in proc.stdout.splitlines()
                   if line.startswith("regression")}
        self.assertNotIn(noisy, flagged)  # within its own noise floor (> 0.8%)
        self.assertTrue(flagged and all(b.startswith("decode/tinyxml2-dom/") for b in flagged))

    def test_no_history_is_said_not_silent(self):
        empty = os.path.join(self.tmp, "empty.sqlite")
        proc = lib.track("gate", "--no-probe", self.variant("x.json", None), db=empty, check=0)
        self.assertIn("warning: icount: no history", proc.stdout)
        self.assertIn("verdict: WARN", proc.stdout)


class TimingGateTest(unittest.TestCase):
    """Real A/A runs of one binary: base = even runs, head = odd runs, in time order."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-gate-")
        self.db = os.path.join(self.tmp, "t.sqlite")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def files(self, scale=None, start=0):
        base, head = [], []
        for i in range(start, start + 18):
            side = base if i % 2 == 0 else head
            f = scale if side is head else None
            side.append(lib.aa_file(i, os.path.join(self.tmp, f"aa{i}.json"), f))
        return base, head

    def gate(self, base, head, check):
        args = ["gate", "--no-probe"]
        for b in base:
            args += ["--base", b]
        return lib.track(*args, *head, db=self.db, check=check)

    def test_aa_interleaved_passes(self):
        base, head = self.files()
        proc = self.gate(base, head, 0)
        self.assertNotIn("regression", proc.stdout)
        self.assertNotIn("timings are information only", proc.stdout)

    def test_a_slowdown_measured_interleaved_fails(self):
        doc = lib.load(lib.AA)
        slowed = [b for b, reps in zip(doc["benchmarks"], doc["runs"][0]["real_time"])
                  if len(reps) == 5][:3]
        # Three times slower: on this machine's noise under load (one benchmark's single runs
        # spread over 3x in runs 0-17) what 9 interleaved runs a side tell apart for sure; runs
        # 20-37 are the A/A's quieter stretch (docs/ci.md: the power study).
        base, head = self.files(lambda n: 3.0 if n in slowed else 1.0, start=20)
        proc = self.gate(base, head, 1)
        flagged = {line.split()[1].split(":", 1)[1] for line in proc.stdout.splitlines()
                   if line.startswith("regression") and " real_time " in line}
        self.assertEqual(flagged, set(slowed))

    def test_not_interleaved_is_information_only(self):
        base, head = self.files(lambda n: 1.5)
        # Every base file measured before every head file: not ABAB.
        for i, path in enumerate(base):
            doc = lib.load(path)
            doc["context"]["date"] = f"2026-12-01T00:{i:02d}:00+00:00"
            lib.dump(doc, path)
        proc = self.gate(base, head, 0)
        self.assertIn("do not alternate", proc.stdout)
        self.assertNotIn("regression", proc.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
