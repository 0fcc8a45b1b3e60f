#!/usr/bin/python3
"""Tests of the web page's Python parts (label unit): report.webcharts records the charts a
section draws as Chart.js specifications holding the section's own numbers; report.answer picks
per family the fastest with right answers, the faster ones that answered wrong and the parser
shares from the sections' data; report.fold lays a section out (charts first, long tables
folded); report.page says what a section without data lacks. The page
in a browser: test_report_page.py."""
import unittest

from tools_common import RANKING, ROUNDTRIP, Tmp, main  # noqa: E402
from sbtools import fmt  # noqa: E402
from sbtools.report import answer, decode, fold, links, load, page, right_answers  # noqa: E402
from sbtools.report.data import Data  # noqa: E402
from sbtools.report.run import Run  # noqa: E402
from sbtools.report.webcharts import WebCharts, split_by_format  # noqa: E402


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


class AnswerTest(Tmp):
    def test_pick_shares_and_what_a_wrong_answer_costs_a_row(self):
        run = sample_run(self.tmp)
        computed = {"links": links.compute(run), "right_answers": right_answers.compute(run)}
        d = answer.compute(run, computed)
        self.assertEqual(len(d["rows"]), 3)  # the sample: xmlrpc, soap11-rpc-encoded, jsonrpc
        row = d["rows"][0]
        # Only the benchmark corpus judged these files, and every adapter passed it.
        self.assertEqual([t for t, _r in d["checks"]], ["benchmark corpus"])
        self.assertEqual(row["faster"], [])
        self.assertIn("Not in these results: hostile inputs", answer.html_block(d))
        # The fastest answers one corpus message wrong: the next one is picked, it is listed.
        leader = row["pick"]
        check = computed["right_answers"]["verdicts"].checks[0]
        check.fail(leader, row["family"], "xmlrpc/complex.call (decode)",
                   "canonical JSON differs from the manifest")
        d = answer.compute(run, computed)
        row = d["rows"][0]
        self.assertNotEqual(row["pick"], leader)
        self.assertEqual(row["faster"][0]["adapter"], leader)
        self.assertLess(row["faster"][0]["ratio"], 1.0)
        self.assertEqual(row["faster"][0]["why"], "1 wrong in the benchmark corpus")
        html_text = answer.html_block(d)
        self.assertIn(f"<code>{leader}</code> <span class=\"why\">(", html_text)
        # Families by name, their codes beside; every link column says what it holds.
        self.assertIn("XML-RPC <small>xmlrpc</small>", html_text)
        self.assertIn('title="projected onto the LAN link model: 1 Gbit/s, 0.5 ms RTT">LAN'
                      "<small>1 Gbit/s, 0.5 ms</small>", html_text)

    def test_family_titles_once(self):
        self.assertEqual(fmt.family_title("soap11-rpc-encoded"), "SOAP 1.1 rpc/encoded")
        self.assertEqual(fmt.family_title("soap12-doc-literal"), "SOAP 1.2 document/literal")
        self.assertEqual(fmt.family_title("jsonrpc"), "JSON-RPC 2.0")
        self.assertEqual(fmt.family_title("grpc"), "grpc")  # unknown: as given


class FoldTest(unittest.TestCase):
    FIG = ('<figure class="chart-figure" id="chart-{0}" data-chart="{0}"><figcaption>{0} chart'
           '</figcaption></figure>\n')

    @staticmethod
    def table(rows):
        return ("<table>\n<thead>\n<tr>\n<th>adapter</th>\n<th>µs</th>\n</tr>\n</thead>\n"
                "<tbody>\n" + "".join(f"<tr>\n<td>a{i}</td>\n<td>{i}</td>\n</tr>\n"
                                      for i in range(rows)) + "</tbody>\n</table>")

    def test_charts_first_after_the_source_note_and_the_rest_folded(self):
        body = ("<p><em>Not from this run: x.json …</em></p>\n<p>Text.</p>\n" +
                self.FIG.format("a") + "<p>More.</p>\n" + self.FIG.format("b"))
        out = fold.lay_out(body)
        self.assertTrue(out.startswith("<p><em>Not from this run"))
        after_note = out.split("</p>\n", 1)[1]
        self.assertTrue(after_note.startswith('<figure class="chart-figure" id="chart-a"'))
        self.assertIn('<details class="fold fold-charts"><summary>1 more charts: b chart'
                      "</summary>", out)
        self.assertLess(out.index("chart-b"), out.index("<p>Text.</p>"))

    def test_long_and_late_tables_and_long_lists_fold(self):
        body = "\n".join([self.table(fold.FOLD_ROWS + 1), self.table(3), self.table(3),
                          "<ul>\n" + "".join(f"<li>item {i}</li>\n" for i in range(9)) + "</ul>",
                          "<ul>\n<li>short</li>\n</ul>"])
        out = fold.lay_out(body)
        self.assertIn(f"<summary>Table of {fold.FOLD_ROWS + 1} rows (adapter, µs)</summary>", out)
        parts = out.split("<table>")
        self.assertEqual(len(parts), 4)
        self.assertFalse(parts[1].rstrip().endswith("</summary>"))  # the second: short, open
        self.assertIn("<summary>Table of 3 rows (adapter, µs)</summary>", out)  # the third
        self.assertIn("<summary>List of 9 items (item 0; …)</summary>", out)
        self.assertIn("<ul>\n<li>short</li>\n</ul>", out)
        self.assertEqual(fold.lay_out("<p>x</p>"), "<p>x</p>")


class MissingTextTest(unittest.TestCase):
    def test_names_the_document_and_option(self):
        text = page.missing_text(load)
        self.assertIn("`tools/load_bench`", text)
        self.assertIn("--load FILE", text)
        self.assertIn("benchmark files", page.missing_text(decode))


if __name__ == "__main__":
    main()
