#!/usr/bin/python3
"""Tests of what the report may claim: ranking words only where the statistics allow, facts
from the context, instruction counts beside the times (label unit)."""
import os
import re
import unittest

from tools_common import *  # noqa: E402,F401,F403  (paths, tool(), the samples, Tmp)


class ClaimsTest(Tmp):
    """The opening paragraph's ranking words, the context's facts and the instruction columns
    (tools/sbtools/report/summary.py, decode.py, levels.py, overhead.py)."""

    _reports = {}   # (files, extra) -> (stdout, report.md): the sample reports are made once

    def ranking_report(self, *files, extra=()):
        key = (files, tuple(extra))
        if key not in self._reports:
            out = self.path("out")
            proc = tool("report", *(files or (RANKING,)), "--out-dir", out, "--no-charts",
                        "--summary", *extra, check=0)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
                ClaimsTest._reports[key] = (proc, f.read())
        return self._reports[key]

    @staticmethod
    def clause(text, family):
        """The opening paragraph's clause about one family's headline decode."""
        opening = text.split("\n## ", 1)[0]
        m = re.search(re.escape(family) + r" `complex\.call`: ([^;]*?)(;|\. )", opening)
        assert m, opening
        return m.group(1)

    def test_clear_winner_gets_a_ranking_word(self):
        proc, text = self.ranking_report()
        self.assertRegex(self.clause(text, "xmlrpc"),
                         r"^`rapidxml-dom` fastest, 1\.30× ahead of `pugixml-dom` \(p = ")
        self.assertRegex(proc.stdout, r"xmlrpc +complex\.call +rapidxml-dom fastest")

    def test_overlapping_samples_are_tied_within_noise(self):
        proc, text = self.ranking_report()
        clause = self.clause(text, "soap11-rpc-encoded")
        self.assertEqual(clause, "tied within noise: `pugixml-dom`, `rapidxml-dom`")
        self.assertIn("tied within noise: pugixml-dom, rapidxml-dom", proc.stdout)
        # libxml2-sax is apart from the leader: not among the tied ones, "behind" in the table.
        self.assertRegex(text, r"\| s11-enc \| `complex\.call` \| `libxml2-sax` \| 5 \|.*behind")

    def test_single_repetitions_get_no_ranking_word(self):
        proc, text = self.ranking_report()
        clause = self.clause(text, "jsonrpc")
        self.assertTrue(clause.startswith("not ranked"), clause)
        for word in ("fastest", "ahead", "slower", "tied"):
            self.assertNotIn(word, clause)
        line = next(l for l in proc.stdout.splitlines() if l.strip().startswith("jsonrpc"))
        self.assertNotIn("fastest", line)
        # Nor across families: jsonrpc's single run cannot be ranked against the others.
        cross = re.search(r"Decoding the same call[^.]*", text).group(0)
        self.assertNotIn("fastest", cross)

    def test_no_ranking_word_without_its_statistics(self):
        # Every ranking word of the opening paragraph is backed by p <= 0.01 and apart intervals:
        # on the committed roundtrip sample (3 repetitions, p >= 0.1) none may appear.
        _proc, text = self.ranking_report(ROUNDTRIP)
        opening = text.split("\n## ", 1)[0]
        self.assertNotIn("fastest", opening)
        self.assertNotIn("ahead of", opening)
        self.assertIn("tied within noise", opening)

    def test_facts_from_the_context_and_old_files(self):
        # New files: families in the context's order, default adapters for the link rows.
        _proc, text = self.ranking_report()
        head = re.search(r"\| adapter \| ([^\n]*) \|\n", text).group(1)
        self.assertEqual(head.split(" | "), ["xmlrpc", "s11-enc", "jsonrpc"])
        self.assertNotIn("predate the context keys", text)
        # Old files (no facts in the context): said so, and the link section declines.
        old = load(ROUNDTRIP)
        for k in list(old["context"]):
            if k.startswith(("link", "families", "default_adapter", "variant:")):
                del old["context"][k]
        dump(old, self.path("old.json"))
        _proc, text = self.ranking_report(self.path("old.json"))
        self.assertIn("predate the context keys `families`", text)
        self.assertIn("These result files carry no link model", text)
        self.assertNotIn("projected call time =", text)

    def test_instruction_columns(self):
        # Without an icount file the report says so.
        _proc, text = self.ranking_report()
        self.assertIn("No instruction counts were given", text)
        # With one, the headline table shows the counts and their ratio to the fewest.
        doc = {"context": load(RANKING)["context"], "icount": {"iterations": 20},
               "instructions": {"decode/rapidxml-dom/xmlrpc/complex.call/iterations:20": 200000.0,
                                "decode/pugixml-dom/xmlrpc/complex.call/iterations:20": 250000.0}}
        dump(doc, self.path("icount.json"))
        _proc, text = self.ranking_report(extra=("--icount", self.path("icount.json")))
        self.assertNotIn("No instruction counts were given", text)
        self.assertRegex(text, r"\| `pugixml-dom` \| 5 \| [^|]+ \| 1\.30 \| 250,000 \| 1\.25 \|")
        # Overhead and level ratios are stated from the counts (the committed run1 sample).
        doc["instructions"] = {"parse/pugixml-dom-direct/xmlrpc/respond.64KB.response": 1000000.0,
                               "parse/pugixml-dom/xmlrpc/respond.64KB.response": 1000400.0,
                               "walk/pugixml-dom/xmlrpc/respond.64KB.response": 1300000.0,
                               "decode/pugixml-dom/xmlrpc/respond.64KB.response": 1200000.0}
        dump(doc, self.path("icount.json"))
        _proc, text = self.ranking_report(RUN1, extra=("--icount", self.path("icount.json")))
        self.assertIn("`pugixml/dom` +0.04% in instructions (1 file; time: ", text)
        self.assertRegex(text, r"`walk` costs [0-9.–]*1\.30×?[0-9.–]*× `parse` in instructions|"
                               r"`walk` costs 1\.30× `parse` in instructions")


if __name__ == "__main__":
    main()
