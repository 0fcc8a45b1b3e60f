#!/usr/bin/python3
"""Tests of the web page's Python parts (label unit): report.webcharts records the charts a
section draws as Chart.js specifications holding the section's own numbers; report.answer picks
per family the leader, the fastest that came through the conformance checks and the parser
shares from the sections' data; report.page says what a section without data lacks. The page
in a browser: test_report_page.py."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tools_common import RANKING, ROUNDTRIP, Tmp, main  # noqa: E402
from sbtools.report import answer, decode, links, load, page  # noqa: E402
from sbtools.report.data import Data  # noqa: E402
from sbtools.report.run import Run  # noqa: E402
from sbtools.report.webcharts import WebCharts  # noqa: E402


def sample_run(tmp):
    data = Data([RANKING, ROUNDTRIP])
    return Run(data, {}, [], tmp, True)


class WebChartsTest(Tmp):
    def test_grouped_keeps_every_value_and_gap(self):
        charts = WebCharts()
        fig, _ax = charts.grouped([("xmlrpc", [("a", 1.0), ("b", 0.5)]), ("jsonrpc", [("c", 2.0)])],
                                  "y", "t", "x.svg", ref=1.0)
        marker = charts.save(fig, "x.svg", "a title")
        self.assertIn('data-chart="x"', marker)
        spec = charts.figures["x"]["specs"][0]
        self.assertEqual(spec["labels"], ["xmlrpc", "jsonrpc"])
        self.assertEqual([(d["label"], d["data"]) for d in spec["datasets"]],
                         [("a", [1.0, None]), ("b", [0.5, None]), ("c", [None, 2.0])])
        self.assertEqual(spec["ref"], 1.0)

    def test_phase_bars_in_microseconds(self):
        spec = WebCharts().phase_bars([("xmlrpc / p", [1000, 2500])], ["encode", "decode"], "t")[0]
        self.assertTrue(spec["stacked"] and spec["horizontal"])
        self.assertEqual([d["data"] for d in spec["datasets"]], [[1.0], [2.5]])

    def test_a_section_draws_its_computed_numbers(self):
        run = sample_run(self.tmp)
        d = decode.compute(run)
        charts = WebCharts()
        text = decode.markdown(d, charts)
        self.assertIn('data-chart="decode"', text)
        spec = charts.figures["decode"]["specs"][0]
        for row in d["relative"]:
            got = next(x["data"] for x in spec["datasets"] if x["label"] == row["adapter"])
            want = [None if r is None else 1.0 / r for r in row["ratios"].values()]
            for g, w in zip(got, want):
                self.assertTrue(g == w is None or abs(g - w) <= 1e-5 * w, (g, w))

    def test_load_charts_one_figure_per_call(self):
        runs = [{"call": "respond.2500B", "mode": "closed", "family": "xmlrpc", "server": "s",
                 "points": [{"connections": 4, "tps": 20.0}, {"connections": 1, "tps": 10.0}]}]
        charts = WebCharts()
        out = charts.load_charts(runs, lambda r: r["server"])
        self.assertEqual(len(out), 1)
        spec = charts.figures["load_tps_respond-2500B"]["specs"][0]
        self.assertEqual(spec["datasets"][0]["data"], [{"x": 1, "y": 10.0}, {"x": 4, "y": 20.0}])


class AnswerTest(Tmp):
    def test_leader_passing_and_shares(self):
        run = sample_run(self.tmp)
        computed = {"links": links.compute(run)}
        d = answer.compute(run, computed)
        self.assertTrue(d["rows"])
        row = d["rows"][0]
        self.assertIsNone(row["passing"])  # no conformance results: nothing claimed
        self.assertEqual(d["checks"], [])
        self.assertIn("no conformance results", answer.html_block(d))
        # The leader hung on a hostile input (policy mode): the next by median is named.
        leader = row["leader"]
        computed["conformance"] = {"error": None, "broken": [
            {"mode": "policy", "result": "timeout", "adapter": leader},
            {"mode": "library", "result": "crashed", "adapter": "someone-else"}]}
        d = answer.compute(run, computed)
        row = d["rows"][0]
        self.assertNotEqual(row["passing"], leader)
        self.assertGreaterEqual(row["passing_ratio"], 1.0)
        self.assertIn("timeout", row["leader_fails"])
        self.assertIn(f"<code>{leader}</code> timeout on a hostile input", answer.html_block(d))

    def test_failing_reads_the_suites(self):
        suites = {"doc": {"suites": [{"suite": "w3c-xml", "records": [
            {"config": "policy", "adapter": "a/dom", "crashes": 1, "hangs": 0},
            {"config": "library", "adapter": "b/dom", "crashes": 1, "hangs": 0}]}]}}
        why, checks = answer.failing({"conformance_suites": suites})
        self.assertEqual(checks, ["standard suites"])
        self.assertEqual(list(why), ["a-dom"])


class MissingTextTest(unittest.TestCase):
    def test_names_the_document_and_option(self):
        text = page.missing_text(load)
        self.assertIn("`tools/load_bench`", text)
        self.assertIn("--load FILE", text)
        self.assertIn("benchmark files", page.missing_text(decode))


if __name__ == "__main__":
    main()
