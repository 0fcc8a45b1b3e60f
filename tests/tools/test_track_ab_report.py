#!/usr/bin/python3
"""Tests of sbtools.track.ab_report (ctest tools.track.ab_report, label unit; pure Python, under
a second): what `tools/track ab` says about a result whose decisions come from the sequential
test itself: the slower row in the text, the Markdown's table and the ::error annotation; faster,
same and undecided rows collapsed; a row failing in head fails the A/B; the JSON for scripts;
the job summary under GitHub Actions."""
import io
import json
import math
import os
import tempfile
import unittest
from contextlib import redirect_stdout

from sbtools.sequential import Family
from sbtools.track import ab, ab_report, ab_runs

SLOW, FAST, SAME, OPEN = ("decode/a/x/add.call", "decode/a/x/getRate.call",
                          "parse/a/x/respond.64KB.response", "decode/b/y/add.call")


def result(shifts, rounds=80, failed=None):
    """A Result of rows {row: shift} fed `rounds` rounds of log ratios alternating about the
    shift by 1% (cpu_time only) until each is decided; OPEN gets a single round."""
    keys = [("parse", r, "cpu_time") for r in shifts]
    fam = Family(keys, alpha=0.01, margin=0.02)
    res = ab.Result(ab_runs.Tree("base", "/b"), ab_runs.Tree("head", "/h"),
                    ab_runs.Settings("duet"), 0.01, 0.02, 600.0)
    res.outcomes = [ab.Outcome(*k, fam.decision(k)) for k in keys]
    for i in range(rounds):
        for o, k in zip(res.outcomes, keys):
            if (o.row == OPEN and i) or o.decision.state != "undecided":
                continue   # as the A/B runs: a decided row stops
            base = 100.0
            head = base * (1 + shifts[o.row]) * math.exp(0.01 if i % 2 else -0.01)
            o.base.append(base)
            o.head.append(head)
            fam.add(k, base, head)
    for o in res.outcomes:
        if o.row == failed:
            o.error = "head: the answer was wrong"
    res.rounds, res.seconds, res.stopped_by, res.load = rounds, 95.0, "budget", [1.5, 2.5]
    res.commits = {"base": "aaaa", "head": "bbbb"}
    return res


class Report(unittest.TestCase):
    def setUp(self):
        self.res = result({SLOW: 0.10, FAST: -0.10, SAME: 0.0, OPEN: 0.0})

    def test_decisions_and_verdict(self):
        states = {o.row: (o.decision.state, o.worse) for o in self.res.outcomes}
        self.assertEqual(states, {SLOW: ("different", True), FAST: ("different", False),
                                  SAME: ("same", False), OPEN: ("undecided", False)})
        self.assertEqual((self.res.verdict, self.res.exit_code), ("FAIL", 1))

    def test_text(self):
        lines = ab_report.text(self.res)
        self.assertTrue(any(line.startswith(f"slower      parse:{SLOW} cpu_time +")
                            for line in lines), lines)
        self.assertTrue(any(line.startswith(f"faster      parse:{FAST}") for line in lines))
        self.assertTrue(any(line.startswith("undecided   1:") for line in lines))
        self.assertEqual(lines[-1], "verdict: FAIL (1 slower, 1 faster, 1 same, 1 undecided)")

    def test_markdown(self):
        md = ab_report.markdown(self.res)
        self.assertTrue(md.startswith("### soapbench timing A/B: FAIL\n"))
        slower = md[md.index("**Slower (1)**"):md.index("<details>")]
        self.assertIn(f"`parse:{SLOW}`", slower)
        self.assertNotIn(FAST, slower)
        for title in ("Faster (1)", "Undecided within the budget (1)", "Same (1)"):
            self.assertIn(f"<details><summary>{title}</summary>", md)

    def test_annotations_and_job_summary(self):
        with tempfile.TemporaryDirectory() as tmp:
            summary = os.path.join(tmp, "summary.md")
            old = {k: os.environ.get(k) for k in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY")}
            os.environ.update(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=summary)
            try:
                out = io.StringIO()
                with redirect_stdout(out):
                    ab_report.publish(self.res, os.path.join(tmp, "ab.md"))
            finally:
                for k, v in old.items():
                    os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
            with open(summary, encoding="utf-8") as f:
                self.assertIn("timing A/B: FAIL", f.read())
        errors = [line for line in out.getvalue().splitlines() if line.startswith("::error")]
        self.assertEqual(len(errors), 1, out.getvalue())
        self.assertIn(SLOW, errors[0])

    def test_json(self):
        doc = json.loads(json.dumps(ab_report.as_json(self.res)))
        self.assertEqual((doc["verdict"], doc["exit"], doc["rounds"]), ("FAIL", 1, 80))
        by_row = {c["benchmark"]: c for c in doc["comparisons"]}
        self.assertTrue(by_row[SLOW]["slower"])
        self.assertEqual(len(by_row[SLOW]["base"]), by_row[SLOW]["rounds"])
        self.assertTrue(by_row[SLOW]["low"] <= 0.10 <= by_row[SLOW]["high"], by_row[SLOW])

    def test_a_row_failing_in_head_fails(self):
        res = result({SAME: 0.0}, failed=SAME)
        self.assertEqual(res.exit_code, 1)
        self.assertIn("::error title=fails", "\n".join(ab_report.annotations(res)))

    def test_nothing_slower_passes(self):
        res = result({FAST: -0.10, SAME: 0.0})
        self.assertEqual((res.verdict, res.exit_code), ("PASS", 0))
        self.assertEqual(ab_report.annotations(res), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
