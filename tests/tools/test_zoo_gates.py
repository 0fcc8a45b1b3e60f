#!/usr/bin/python3
"""The zoo's gates (sbtools/zoo/gates.py, label unit): tools/track gate's exit code and JSON
verdict read as caught, passed or an error, with what moved; and the real record-then-judge
path on a committed tools/callcount file: the reference recorded at its commit, a copy with one
more sendmsg per call judged against it (caught, by that count), the copy unchanged (passed)."""
import copy
import glob
import json
import os
import tempfile
import unittest

from tools_common import REPO, dump, load
from sbtools.zoo import gates

ROW = {"suite": "callcount", "benchmark": "callcount/server/keepalive/xmlrpc/pugixml-dom/getRate",
       "metric": "lock_calls", "move": 0.25, "gating": True}


class InterpretTest(unittest.TestCase):
    def test_exit_codes(self):
        self.assertEqual(gates.interpret("callcount", 0, {"verdict": "PASS"}).status, "passed")
        caught = gates.interpret("callcount", 1, {"verdict": "FAIL", "regressions": [ROW]}, 3.0)
        self.assertEqual((caught.status, caught.verdict, caught.seconds), ("caught", "FAIL", 3.0))
        self.assertEqual(caught.moved, {"lock_calls": {"rows": 1, "largest": 0.25,
                                                       "example": ROW["benchmark"]}})

    def test_failures_that_are_not_the_code(self):
        # Moves attributed to the environment do not count as a catch; nor does a bad file.
        env = gates.interpret("icount", 1, {"regressions": [{**ROW, "gating": False}]})
        self.assertEqual(env.status, "error")
        bad = gates.interpret("icount", 2, {"notes": [{"level": "error", "text": "truncated"}]})
        self.assertEqual(bad.status, "error")
        self.assertIn("truncated", bad.detail)
        self.assertEqual(gates.interpret("icount", 3, None).status, "error")

    def test_moved_keeps_the_largest_move_per_metric(self):
        rows = [ROW, {**ROW, "move": -0.5, "benchmark": "b"}, {**ROW, "metric": "syscalls"}]
        self.assertEqual(gates.moved(rows), {
            "lock_calls": {"rows": 2, "largest": -0.5, "example": "b"},
            "syscalls": {"rows": 1, "largest": 0.25, "example": ROW["benchmark"]}})


class JudgeTest(unittest.TestCase):
    def test_record_then_judge_a_real_callcount_file(self):
        reference = sorted(glob.glob(os.path.join(REPO, "results", "callcount", "*",
                                                  "baseline.json")))[0]
        doc = load(reference)
        base = doc["context"]["git_sha"]
        planted = copy.deepcopy(doc)
        planted["context"]["git_sha"] = "0123456789ab"
        for b in planted["benchmarks"]:
            if b["name"].startswith("callcount/server/"):
                b["syscalls:sendmsg"] = b.get("syscalls:sendmsg", 0) + 1
                b["syscalls"] += 1
        same = copy.deepcopy(doc)
        same["context"]["git_sha"] = "0123456789ac"
        with tempfile.TemporaryDirectory() as tmp:
            db, log = os.path.join(tmp, "zoo.sqlite"), os.path.join(tmp, "zoo.log")
            gates.record(REPO, db, dump(doc, os.path.join(tmp, "ref.json")), log)
            rc, verdict = gates.judge(REPO, db, dump(planted, os.path.join(tmp, "b.json")), base,
                                      os.path.join(tmp, "b.verdict.json"), log)
            caught = gates.interpret("callcount", rc, verdict)
            self.assertEqual(caught.status, "caught", open(log).read()[-2000:])
            self.assertEqual(set(caught.moved), {"syscalls", "syscalls:sendmsg"})
            self.assertEqual(caught.moved["syscalls:sendmsg"]["rows"],
                             sum(b["name"].startswith("callcount/server/") for b in doc["benchmarks"]))
            rc, verdict = gates.judge(REPO, db, dump(same, os.path.join(tmp, "a.json")), base,
                                      os.path.join(tmp, "a.verdict.json"), log)
            self.assertEqual(gates.interpret("callcount", rc, verdict).status, "passed",
                             json.dumps(verdict)[:2000])


if __name__ == "__main__":
    unittest.main()
