#!/usr/bin/python3
"""sbtools.report.webcharts (label unit): the charts a section draws recorded as Chart.js
specifications holding the section's own numbers: every value and gap kept, bar charts of both
formats split per format, phases in microseconds, one load figure per call."""
from tools_common import RANKING, ROUNDTRIP, Tmp, main
from sbtools.report import decode
from sbtools.report.data import Data
from sbtools.report.run import Run
from sbtools.report.webcharts import WebCharts, split_by_format


def sample_run(tmp):
    """A run of the hand-made decode results and round trips (tests/data/results/)."""
    return Run(Data([RANKING, ROUNDTRIP]), {}, [], tmp, True)


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

    def test_bars_of_both_formats_split_per_format(self):
        charts = WebCharts({"a": "xml", "b": "xml", "c": "json"})
        fig, _ax = charts.grouped([("xmlrpc", [("a", 1.0), ("b", 0.5)]), ("jsonrpc", [("c", 2.0)])],
                                  "y", "t", "x.svg")
        self.assertEqual([(s["title"], s["labels"],
                           [(d["label"], d["data"]) for d in s["datasets"]]) for s in fig],
                         [("t: XML adapters", ["xmlrpc"], [("a", [1.0]), ("b", [0.5])]),
                          ("t: JSON adapters", ["jsonrpc"], [("c", [2.0])])])
        one = {"title": "t", "labels": ["x"], "datasets": [{"label": "a", "data": [1]}]}
        self.assertEqual(split_by_format(one, {"a": "xml"}), [one])
        self.assertEqual(split_by_format(one, {}), [one])

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


if __name__ == "__main__":
    main()
