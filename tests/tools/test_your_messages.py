#!/usr/bin/python3
"""Tests of tools/sbtools/report/your_messages.py: the report's "Your messages" section.

Data: tests/data/compare/compare.json, a real `soapbench compare` run (5 repetitions) on three
messages: an XML-RPC corpus call, a call with a late processing instruction (tinyxml2 refuses
it) and an rpc/encoded call outside our contract with an entity reference (RapidXML's fastest
mode is flagged at parse and left out at decode). The terminal table of that run said the same
ranking words the rows below check (measure/ranking.cpp and sbtools.stats agree).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sbtools import gbench  # noqa: E402
from sbtools.report import your_messages as ym  # noqa: E402

FIXTURE = os.path.join(REPO, "tests", "data", "compare", "compare.json")


def fixture():
    with open(FIXTURE, encoding="utf-8") as f:
        return json.load(f)


class RowsTest(unittest.TestCase):
    def setUp(self):
        self.doc = fixture()
        self.rows = ym.rows(self.doc)

    def row(self, message, level, adapter):
        hits = [r for r in self.rows if (r["message"], r["level"], r["adapter"]) ==
                (message, level, adapter)]
        self.assertEqual(len(hits), 1, (message, level, adapter))
        return hits[0]

    def test_messages_and_their_facts(self):
        self.assertTrue(ym.is_compare(self.doc))
        facts = ym.messages(self.doc)
        self.assertEqual(list(facts), ["fixture/getRate.call.xml", "fixture/late-pi.xml",
                                       "fixture/order.xml"])
        self.assertEqual(facts["fixture/order.xml"]["family"], "soap11-rpc-encoded")
        self.assertEqual(self.row("fixture/order.xml", "decode", "pugixml-dom")["bytes"], 655)

    def test_ranking_words_as_the_terminal_printed_them(self):
        self.assertEqual(self.row("fixture/getRate.call.xml", "decode", "rapidxml-dom-fastest")
                         ["word"], "fastest")
        self.assertEqual(self.row("fixture/getRate.call.xml", "decode", "expat-sax")["word"],
                         "behind")
        self.assertEqual(self.row("fixture/order.xml", "decode", "pugixml-dom")["word"], "tied")

    def test_rows_fastest_first_with_units(self):
        decode = [r for r in self.rows if r["message"] == "fixture/getRate.call.xml"
                  and r["level"] == "decode"]
        times = [r["time_ns"] for r in decode]
        self.assertEqual(times, sorted(times))
        r = decode[0]
        self.assertAlmostEqual(r["mb_s"], 260 / r["time_ns"] * 1e3)
        self.assertEqual(r["reps"], 5)
        self.assertIsNotNone(r["ci"])

    def test_flags_and_adapters_left_out(self):
        self.assertIn("no entity decoding",
                      self.row("fixture/order.xml", "parse", "rapidxml-dom-fastest")["flag"])
        out = {(m, lv, a) for m, lv, a, _why in ym.left_out(self.doc)}
        self.assertEqual(out, {("fixture/order.xml", "decode", "rapidxml-dom-fastest"),
                               ("fixture/late-pi.xml", "decode", "tinyxml2-dom"),
                               ("fixture/late-pi.xml", "parse", "tinyxml2-dom")})
        # Never timed where it was left out.
        self.assertFalse([r for r in self.rows if r["adapter"] == "tinyxml2-dom"
                          and r["message"] == "fixture/late-pi.xml"])

    def test_words_without_repetitions_or_company(self):
        one = gbench.Result("x")
        one.times = [100.0]
        two = gbench.Result("y")
        two.times = [200.0]
        self.assertEqual(ym.words({"a": one, "b": two}), {"a": "not ranked", "b": "not ranked"})
        self.assertEqual(ym.words({"a": one}), {"a": "only one"})

    def test_summary_geometric_means(self):
        s = ym.summary(self.rows)
        self.assertEqual(set(s), {"parse", "decode"})
        first = s["decode"][0]
        self.assertEqual(first[0], "rapidxml-dom-fastest")
        self.assertAlmostEqual(first[1], 1.0)
        self.assertEqual(first[3], 1)  # ranked fastest on one message

    def test_a_wrong_answer_never_wins(self):
        # RapidXML's fastest mode decodes order.xml differently (no entity decoding) and its parse
        # there is flagged: it is not ranked over the messages, and its flagged row is not ranked
        # on its message.
        wrong = ym.wrong_answers(self.doc)
        self.assertEqual(sorted(wrong), ["rapidxml-dom-fastest"])
        self.assertEqual(sorted(lv for _m, lv, _w in wrong["rapidxml-dom-fastest"]),
                         ["decode", "parse"])
        s = ym.summary(self.rows, wrong)
        for level in s:
            self.assertNotIn("rapidxml-dom-fastest", [a for a, *_x in s[level]])
        self.assertEqual(s["decode"][0][0], "rapidxml-dom")
        self.assertEqual(self.row("fixture/order.xml", "parse", "rapidxml-dom-fastest")["word"],
                         ym.DIFFERS)
        self.assertIn("Not ranked over the messages (a wrong answer on at least one",
                      ym.render([self.doc]))


class RenderTest(unittest.TestCase):
    def test_section(self):
        doc = fixture()
        doc["context"]["compare_skipped:0"] = "msgs/empty.xml: empty file"
        text = ym.render([doc])
        self.assertIn("`soapbench compare` on 3 of your messages (5 repetitions", text)
        self.assertIn("| `fixture/order.xml` | soap11-rpc-encoded | parse | "
                      "`rapidxml-dom-fastest` † |", text)
        self.assertIn("Not timed", text)
        self.assertIn("- msgs/empty.xml: empty file", text)

    def test_nothing_without_compare_results(self):
        doc = fixture()
        doc["context"]["bench_set"] = "default"
        self.assertEqual(ym.render([doc]), "")
        self.assertEqual(ym.render([]), "")

    def test_report_renders_the_section_and_keeps_compare_apart(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, os.path.join(REPO, "tools", "report"), FIXTURE,
                                "--out-dir", tmp, "--no-charts"], capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(tmp, "report.md"), encoding="utf-8") as f:
                report = f.read()
        self.assertIn("## Your messages", report)
        # compare's decode/... rows are not the corpus's: no decode section from them.
        self.assertNotIn("## Decode throughput per adapter and family", report)


if __name__ == "__main__":
    unittest.main()
