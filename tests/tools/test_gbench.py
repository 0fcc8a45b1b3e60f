#!/usr/bin/python3
"""Tests of tools/sbtools/gbench.py (label unit): reading a file (and why not), the names
benchmarks are paired by, and the repetitions, aggregates and units of a Google Benchmark
document. tools/report, tools/compare and tools/track all read result files through it."""
import json
import unittest

from tools_common import RUN1, Tmp, load  # noqa: E402
from sbtools import gbench  # noqa: E402


def entry(name, real, cpu, unit="ns", **extra):
    return dict({"name": name, "run_name": name, "run_type": "iteration", "real_time": real,
                 "cpu_time": cpu, "time_unit": unit, "iterations": 10}, **extra)


class ReadTest(Tmp):
    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def refused(self, path, *words):
        with self.assertRaises(gbench.ResultError) as ctx:
            gbench.read_json(path)
        msg = str(ctx.exception)
        self.assertTrue(msg.startswith(f"{path}: cannot read JSON: "), msg)
        self.assertEqual(len(msg.splitlines()), 1, msg)
        for w in words:
            self.assertIn(w, msg)

    def test_document_and_digest(self):
        doc, digest = gbench.read_json(RUN1)
        self.assertEqual(doc, load(RUN1))
        self.assertRegex(digest, r"^[0-9a-f]{64}$")
        self.assertEqual(gbench.load_json(RUN1), doc)

    def test_why_not(self):
        self.refused(self.path("missing.json"), "No such file")
        self.refused(self.write("bin.json", bytes(range(256))), "not UTF-8")
        with open(RUN1, "rb") as f:
            text = f.read()
        self.refused(self.write("cut.json", text[:len(text) // 2]), "not valid JSON",
                     "truncated", "line")


class StrictTest(Tmp):
    """Issue 39 item 13: the one reader of result files refuses what would let a file lie to its
    reader (a NaN compares as no change, the last of two keys wins, a run written twice reads as
    repetitions), with one line naming the file and the place; what Google Benchmark itself
    writes (NaN in a cv aggregate, "caches" twice in the context) is read."""

    def refused(self, text, *words):
        path = self.path("r.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        with self.assertRaises(gbench.ResultError) as ctx:
            gbench.read_json(path)
        msg = str(ctx.exception)
        self.assertTrue(msg.startswith(f"{path}: refused: at "), msg)
        self.assertEqual(len(msg.splitlines()), 1, msg)
        for w in words:
            self.assertIn(w, msg)

    def test_non_finite_numbers(self):
        for literal in ("NaN", "Infinity", "-Infinity", "1e999", "-1e999"):
            self.refused('{"instructions": {"decode/a/xmlrpc/add.call": 5, '
                         f'"parse/a/xmlrpc/add.call": {literal}}}}}',
                         'instructions["parse/a/xmlrpc/add.call"]', literal)

    def test_a_key_written_twice(self):
        self.refused('{"instructions": {"decode/a/xmlrpc/add.call": 1500, '
                     '"decode/a/xmlrpc/add.call": 1000}}',
                     'instructions["decode/a/xmlrpc/add.call"]', "written twice")

    def test_a_benchmark_file_written_twice(self):
        doc = load(RUN1)
        doc["benchmarks"] += doc["benchmarks"]
        n = len(doc["benchmarks"]) // 2
        self.refused(json.dumps(doc), f"benchmarks[{n}]", "written twice",
                     repr(doc["benchmarks"][0]["run_name"]))
        # Entries without repetition indexes: more than the repetitions they say they ran.
        one = entry("parse/a/xmlrpc/add.call", 10.0, 10.0, repetitions=1)
        self.refused(json.dumps({"benchmarks": [one, dict(one)]}), "benchmarks[1]",
                     "more entries than its 1 repetitions")

    def test_a_nan_row_in_a_benchmark_entry(self):
        doc = load(RUN1)
        row = next(i for i, e in enumerate(doc["benchmarks"]) if e["run_type"] == "iteration")
        text = json.dumps(doc).replace(
            json.dumps(doc["benchmarks"][row]["real_time"]), "NaN", 1)
        self.refused(text, f"benchmarks[{row}].real_time", "NaN is not a number",
                     repr(doc["benchmarks"][row]["name"]))

    def test_what_google_benchmark_writes_is_read(self):
        doc = gbench.load_json(RUN1)  # NaN cv aggregates and "caches" twice, as written
        cv = [e for e in doc["benchmarks"] if e.get("aggregate_name") == "cv" and
              any(v != v for v in e.values() if isinstance(v, float))]
        self.assertTrue(cv, "run1 holds Google Benchmark's NaN cv of a zero counter")
        self.assertIsInstance(doc["context"]["caches"], str)


class ResultsTest(unittest.TestCase):
    def test_names_without_how_a_benchmark_ran(self):
        name = "decode/pugixml-dom/xmlrpc/add.call"
        for suffix in ("/iterations:100000", "/repeats:5"):
            self.assertEqual(gbench.pair_name(name + suffix), name)
            self.assertEqual(gbench.series_name(name + suffix), name)
        # tools/report and tools/compare pair a tail benchmark with its /min_time:T; a history's
        # series continues when the minimum time changes.
        for suffix in ("/min_time:0.010", "/min_warmup_time:0.500", "/min_time:0.010/repeats:5"):
            self.assertEqual(gbench.series_name(name + suffix), name)
        self.assertEqual(gbench.pair_name(name + "/min_time:0.010"), name + "/min_time:0.010")
        self.assertEqual(gbench.series_name("roundtrip/floor/blocking/300"),
                         "roundtrip/floor/blocking/300")

    def test_units_repetitions_and_aggregates(self):
        doc = {"benchmarks": [
            entry("a", 1.5, 1.0, "us", allocs_per_msg=3, flag=True, nan=float("nan")),
            entry("a", 2.5, 2.0, "us", allocs_per_msg=3),
            dict(entry("a", 2.0, 1.5, "us"), run_type="aggregate", aggregate_name="median",
                 aggregate_unit="time"),
            dict(entry("a", 0.25, 0.5, "us"), run_type="aggregate", aggregate_name="cv",
                 aggregate_unit="percentage"),
            entry("b", 1.0, 1.0, "ms")]}
        got = gbench.results_of(doc)
        a = got["a"]
        self.assertEqual((a.times, a.cpu_times), ([1500.0, 2500.0], [1000.0, 2000.0]))
        self.assertEqual(a.rep_counters[0], {"allocs_per_msg": 3.0})  # no bool, no NaN
        self.assertEqual(a.agg["median"][0], 2000.0)
        self.assertEqual(a.agg["median"][2], 1500.0)      # the aggregate's CPU time, scaled
        self.assertEqual(a.agg["cv"][0], 0.25)            # a fraction: never scaled
        self.assertEqual(got["b"].times, [1e6])

    def test_failed_and_skipped_are_no_repetitions(self):
        doc = {"benchmarks": [
            entry("ok", 1.0, 1.0),
            entry("failed", 0.0, 0.0, error_occurred=True, error_message="wrong answer"),
            entry("skipped", 0.0, 0.0, skipped=True),
            entry("said", 0.0, 0.0, skipped=True, skip_message="no peer")]}
        got = gbench.results_of(doc)
        self.assertEqual(got["ok"].times, [1.0])
        for name, why in (("failed", "wrong answer"), ("skipped", "skipped"),
                          ("said", "no peer")):
            self.assertEqual((got[name].times, got[name].error), ([], why), name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
