#!/usr/bin/python3
"""Tests of tools/sbtools/wild_timing.py (tools/wild --time): the headline messages of a wild
corpus chosen from its manifest and timed by soapbench compare, on the fixture tests/data/wild/.

Usage: test_wild_timing.py SOAPBENCH [unittest args]"""
import json
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
from tools_common import REPO, tool  # noqa: E402
from sbtools import wild_timing  # noqa: E402

FIXTURE = os.path.join(REPO, "tests", "data", "wild")
SOAPBENCH = None


class TimingTest(unittest.TestCase):
    """--time: the headline messages (per family the largest and the median-sized typed without a
    WSDL) timed by soapbench compare, its document kept under "timings"."""

    def test_headline_is_the_largest_and_the_median_per_family(self):
        sizes = {"xmlrpc": [5, 1, 9, 3], "jsonrpc": [7]}
        entries = [{"path": f"{fam}-{b}", "family": fam, "bytes": b, "expected": "typed"}
                   for fam, bs in sizes.items() for b in bs]
        entries += [{"path": "big-refused", "family": "xmlrpc", "bytes": 99, "expected": "refused"},
                    {"path": "big-wsdl", "family": "xmlrpc", "bytes": 98,
                     "expected": "needs-wsdl"}]
        # xmlrpc by size 1, 3, 5, 9: the largest 9 and the lower median 3; one jsonrpc message.
        self.assertEqual([e["path"] for e in wild_timing.headline(entries)],
                         ["jsonrpc-7", "xmlrpc-3", "xmlrpc-9"])

    def test_time_keeps_the_compare_document(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "wild.json")
            run = tool("wild", "--soapbench", SOAPBENCH, "--corpus", FIXTURE, "--fail-on", "none",
                       "--time", "3", "--json", out, "--parser", "expat/sax", "--parser",
                       "rapidjson/dom", check=0)
            self.assertIn("timing 2 headline message(s) within 3 s", run.stderr)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        ctx = doc["timings"]["context"]
        self.assertEqual(ctx["bench_set"], "compare")
        self.assertEqual(sorted(k for k in ctx if k.startswith("compare_file:")),
                         ["compare_file:add.call.xml", "compare_file:subtract.call.json"])
        timed = {b["name"].split("/")[1] for b in doc["timings"]["benchmarks"]}
        self.assertEqual(timed, {"expat-sax", "rapidjson-dom"})  # --parser holds for the timing

    def test_time_takes_positive_seconds(self):
        run = tool("wild", "--soapbench", SOAPBENCH, "--corpus", FIXTURE, "--time", "0", check=2)
        self.assertIn("--time takes a positive number of seconds", run.stderr)


if __name__ == "__main__":
    SOAPBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
