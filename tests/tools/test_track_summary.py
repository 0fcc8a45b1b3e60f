#!/usr/bin/python3
"""sbtools.track.summary (label unit): what the gate says about a real verdict (the committed
instruction counts with a planted 6% regression and a 10% improvement): the Markdown for a pull
request, the terminal's lines, GitHub's annotations and job summary, the JSON verdict."""
import json
import os
import shutil
import tempfile
import unittest
from unittest import mock

import track_testlib as lib
from sbtools.track import gate, importers, store, summary

SLOWER = "parse/pugixml-dom/"   # 6% more instructions in head
FASTER = "decode/expat-sax/"    # 10% fewer


def scale(name):
    return 1.06 if name.startswith(SLOWER) else 0.9 if name.startswith(FASTER) else 1.0


class SummaryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="sb-track-summary-")
        db = store.open_store(os.path.join(cls.tmp, "t.sqlite"))
        for i in range(6):
            run = importers.read(lib.icount_variant(
                lib.ICOUNT, os.path.join(cls.tmp, f"ic{i}.json"), f"c0mm1t{i:06d}",
                f"2026-12-04T{i:02d}:00:00+00:00"))
            db.add_run(run, {"build": run.build, "git": {}})
        head = importers.read(lib.icount_variant(
            lib.ICOUNT, os.path.join(cls.tmp, "head.json"), "headc0mm1t0",
            "2026-12-05T00:00:00+00:00", scale))
        cls.result = gate.run_gate(db, [head], {"build": head.build})
        db.close()
        cls.slower = sorted(r.benchmark for r in cls.result.rows if r.status == "regression")
        cls.faster = sorted(r.benchmark for r in cls.result.rows if r.status == "improvement")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_the_verdict_is_a_failure_on_the_planted_rows(self):
        self.assertEqual(self.result.verdict, "FAIL")
        self.assertTrue(self.slower and all(b.startswith(SLOWER) for b in self.slower))
        self.assertTrue(self.faster and all(b.startswith(FASTER) for b in self.faster))

    def test_markdown_lists_regressions_and_folds_improvements(self):
        md = summary.markdown(self.result)
        self.assertTrue(md.startswith("### soapbench gate: FAIL\n"))
        self.assertIn(f"**Regressions ({len(self.slower)})**", md)
        self.assertIn(f"<details><summary>Improvements ({len(self.faster)})</summary>", md)
        self.assertIn(f"| `icount:{self.slower[0]}` | instructions |", md)
        self.assertIn("+6.00%", md)
        self.assertIn("-10.00%", md)
        self.assertNotIn("No significant change.", md)

    def test_the_terminal_ends_with_the_verdict(self):
        lines = summary.text(self.result)
        self.assertTrue(lines[-1].startswith("verdict: FAIL ("), lines[-1])
        self.assertTrue(any(line.startswith(f"regression  icount:{SLOWER}") for line in lines))

    def test_annotations_are_errors_with_escaped_text(self):
        notes = summary.annotations(self.result)
        self.assertLessEqual(len(notes), summary.MAX_ANNOTATIONS)
        # GitHub's workflow commands: % and line breaks escaped, one command a line.
        self.assertTrue(notes[0].startswith("::error title=instructions +6.00%25: " + SLOWER))
        self.assertTrue(all("\n" not in n and "%:" not in n for n in notes))
        self.assertEqual(summary._escape("a%\nb"), "a%25%0Ab")

    def test_the_json_verdict(self):
        path = os.path.join(self.tmp, "verdict.json")
        summary.write_json(self.result, path)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual((doc["verdict"], doc["exit_code"]), ("FAIL", 1))
        self.assertEqual(sorted(r["benchmark"] for r in doc["regressions"]), self.slower)
        self.assertEqual(len(doc["improvements"]), len(self.faster))
        self.assertEqual(doc, summary.as_json(self.result))
        self.assertEqual(len(summary.stored(self.result)["rows"]), min(200, len(self.result.rows)))

    def test_under_github_actions_annotations_and_the_job_summary(self):
        job = os.path.join(self.tmp, "step_summary.md")
        printed = []
        out = mock.Mock(write=lambda s: printed.append(s))
        with mock.patch.dict(os.environ, {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": job}):
            md = summary.publish(self.result, os.path.join(self.tmp, "gate.md"), out=out)
        with open(job, encoding="utf-8") as f:
            self.assertEqual(f.read(), md + "\n")
        self.assertTrue("".join(printed).startswith("::error title="))
        with mock.patch.dict(os.environ, {"GITHUB_ACTIONS": ""}):
            printed.clear()
            summary.publish(self.result, out=out)
        self.assertEqual(printed, [])

    def test_numbers(self):
        self.assertEqual(summary.pct(0.0123), "+1.23%")
        self.assertEqual([summary.value(v) for v in (None, 12345.6, 0.012345)],
                         ["-", "12,346", "0.0123"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
