#!/usr/bin/python3
"""sbtools.report.data (label unit): a report's result files read once: the committed run of
bab0702471ef by kind (decode levels, round trips, the floor, messaging; stacks_bench's rows kept
apart), the instruction counts and why a column is empty, the warnings a reader must see, the
decode ranking and the families in the run's order."""
import os
import unittest

from tools_common import RANKING, REPO, Tmp, dump, gb_result as result, load, main
from sbtools.gbench import ResultError
from sbtools.report import data as report_data
from sbtools.report.data import Data

BAB = os.path.join(REPO, "results", "bab0702471ef")
FILES = [os.path.join(BAB, f) for f in ("20261202-174809_6790742da1f5.parse_bench.json",
                                        "20261202-175209_6790742da1f5.roundtrip_bench.json",
                                        "20261202-175532_6790742da1f5.stacks_bench.json")]
ICOUNT = os.path.join(REPO, "results", "icount", "18c92917448a",
                      "20261202-175341_6790742da1f5.json")


class CommittedRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = Data(FILES)

    def test_one_machine_its_context_and_no_warning(self):
        self.assertEqual(self.data.machine, "bab0702471ef")
        self.assertEqual(self.data.warnings, [])
        self.assertEqual(self.data.facts.families[0], "xmlrpc")
        self.assertIn("pugixml-dom", self.data.adapters)

    def test_results_by_kind_stacks_apart(self):
        self.assertTrue(self.data.stacks)
        self.assertFalse(set(self.data.stacks) & set(self.data.res))
        decode = self.data.level("decode")
        self.assertIn(("pugixml-dom", "xmlrpc", "complex.call"), decode)
        self.assertTrue(all(r.error is None and r.time for r in decode.values()))
        self.assertTrue(self.data.roundtrip())
        self.assertIn("blocking", self.data.floor_modes())
        self.assertTrue(all(isinstance(b, int) for b in self.data.floor()))
        self.assertTrue(self.data.messaging())

    def test_instruction_counts_and_why_a_column_is_empty(self):
        data = Data(FILES[:1])
        self.assertIn("No instruction counts were given", data.icount_note(["x"]))
        data.load_icount(ICOUNT)
        name = next(iter(data.icount))
        self.assertEqual(data.instr(name), data.icount[name])
        self.assertEqual(data.icount_note([name]), "")
        self.assertIn("holds no counts for these benchmarks", data.icount_note(["no/such"]))
        with self.assertRaisesRegex(ResultError, "not a tools/icount file"):
            data.load_icount(FILES[0])

    def test_helpers(self):
        r = result(2000.0, bytes_per_second=4e6, msgs_per_s=1000.0, bytes_sent=300,
                   bytes_received=700)
        self.assertEqual(report_data.bytes_per_msg(r), 4000.0)
        self.assertEqual(report_data.mb_per_s(r), 4.0)
        self.assertEqual(report_data.wire_bytes(r), 1000)
        self.assertEqual(report_data.total_ns(r), 2000.0)
        self.assertIsNone(report_data.bytes_per_msg(result(1.0)))
        self.assertEqual(report_data.call_key("getChain") < report_data.call_key("zzz"), True)
        keys = [(None, "binary"), (None, "jsonrpc"), (None, "custom"), (None, "xmlrpc")]
        self.assertEqual(report_data.families_in(self.data, keys),
                         ["xmlrpc", "jsonrpc", "custom", "binary"])


class WarningsTest(Tmp):
    def test_a_benchmark_twice_and_two_machines_are_said(self):
        other = load(FILES[0])
        other["context"]["machine_id"] = "another0machine"
        data = Data([FILES[0], dump(other, self.path("other.json"))])
        self.assertTrue(any("appears in more than one file" in w for w in data.warnings))
        self.assertIn("the files come from different machines: another0machine, bab0702471ef",
                      data.warnings)

    def test_counts_of_another_commit_are_said(self):
        doc = load(ICOUNT)
        doc["context"]["git_sha"] = "0123456789ab"
        data = Data(FILES[:1])
        data.load_icount(dump(doc, self.path("icount.json")))
        self.assertTrue(any("come from git `0123456789ab`" in w for w in data.warnings))

    def test_not_google_benchmark_json(self):
        with self.assertRaisesRegex(ResultError, "not Google Benchmark JSON"):
            Data([dump({"cells": []}, self.path("x.json"))])


class RankingTest(unittest.TestCase):
    def test_fastest_first_at_exactly_one(self):
        ranking = report_data.decode_ranking(Data([RANKING]))
        self.assertEqual(list(ranking), ["xmlrpc", "soap11-rpc-encoded", "jsonrpc"])
        for fam, rows in ranking.items():
            self.assertEqual(rows[0][1], 1.0, fam)
            self.assertEqual([g for _a, g, _n in rows], sorted(g for _a, g, _n in rows))
        heads = report_data.headline_decode(Data([RANKING]))
        self.assertEqual(list(heads), list(ranking))


if __name__ == "__main__":
    main()
