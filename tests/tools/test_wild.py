#!/usr/bin/python3
"""Tests of tools/sbtools/wild.py (tools/wild): soapbench decode over a wild corpus, judged against
its manifest.

Usage: test_wild.py SOAPBENCH [unittest args]

The fixture (tests/data/wild/, its README.md) has four messages whose verdicts do not depend on
how far the decoders have come: one typed right by every XML adapter, one refused as its manifest
says, one that needs its WSDL, one whose manifest canonical is wrong on purpose."""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sbtools import wild  # noqa: E402

FIXTURE = os.path.join(REPO, "tests", "data", "wild")
SOAPBENCH = None
TYPED = {"path": "a.xml", "family": "xmlrpc", "expected": "typed",
         "canonical": '{"kind":"call","method":"m","params":[1]}'}


class JudgeTest(unittest.TestCase):
    def test_typed_right_refused_wrong(self):
        self.assertEqual(wild.judge(TYPED, ("typed", TYPED["canonical"])), ("right", ""))
        self.assertEqual(wild.judge(TYPED, ("refused", "bad int")), ("refused", "bad int"))
        verdict, detail = wild.judge(TYPED, ("typed", '{"kind":"call","method":"m","params":[]}'))
        self.assertEqual(verdict, "wrong")
        self.assertIn("another answer", detail)

    def test_hashed_canonical(self):
        line = '{"kind":"response","method":"","result":"x"}'
        e = {"expected": "typed",
             "canonical_sha256": "5a3f7d35d8de4c8bd1e69b1466c0a6fd5b2b8b74c1d8d1e7b8a6f8d9a7b6c5d4"}
        self.assertEqual(wild.judge(e, ("typed", line))[0], "wrong")
        e["canonical_sha256"] = hashlib.sha256(line.encode()).hexdigest()
        self.assertEqual(wild.judge(e, ("typed", line))[0], "right")

    def test_refused_and_needs_wsdl(self):
        refused = {"expected": "refused", "reason": "a DOCTYPE"}
        self.assertEqual(wild.judge(refused, ("refused", "DOCTYPE"))[0], "right")
        verdict, detail = wild.judge(refused, ("typed", "{}"))
        self.assertEqual(verdict, "wrong")
        self.assertIn("a DOCTYPE", detail)
        needs = {"expected": "needs-wsdl", "wsdl": "w.wsdl",
                 "canonical_with_wsdl": '{"kind":"call","method":"q","params":["DIS"]}'}
        self.assertEqual(wild.judge(needs, ("refused", "no xsi:type"))[0], "right")
        self.assertEqual(wild.judge(needs, ("typed", "{}"))[0], "wrong")
        self.assertEqual(wild.judge(needs, ("typed", needs["canonical_with_wsdl"]), True)[0],
                         "right")
        self.assertIsNone(wild.judge({"expected": "needs-wsdl", "with_wsdl_undecided": "x"},
                                     ("typed", "{}"), True))
        self.assertEqual(wild.judge({"expected": "needs-wsdl", "with_wsdl_refused": "attributes"},
                                    ("refused", "attribute"), True)[0], "right")


class OutputTest(unittest.TestCase):
    def test_stdout_lines_and_stderr_refusals_paired_in_file_order(self):
        entries = [{"path": p} for p in ("a.xml", "b.xml", "c.xml")]
        files = ["/c/a.xml", "/c/b.xml", "/c/c.xml"]
        out = wild.match_output(entries, files, "A\nC\n",
                                "wsdl: refused: op: attributes\n"
                                "soapbench: /c/b.xml: expat/sax: line 1: bad\n", "expat/sax")
        self.assertEqual(out, {"a.xml": ("typed", "A"), "b.xml": ("refused", "line 1: bad"),
                               "c.xml": ("typed", "C")})

    def test_a_refusal_of_the_whole_run_is_every_files_reason(self):
        out = wild.match_output([{"path": "a.xml"}], ["/c/a.xml"], "",
                                "soapbench: decode: w.wsdl: no SOAP 1.1 or 1.2 binding\n",
                                "expat/sax")
        self.assertEqual(out, {"a.xml": ("refused", "w.wsdl: no SOAP 1.1 or 1.2 binding")})

    def test_groups_share_method_and_wsdl(self):
        entries = [{"format": "json", "expected": "typed", "operation": "m"},
                   {"format": "json", "expected": "typed"},
                   {"format": "xml", "expected": "needs-wsdl", "wsdl": "w.wsdl"}]
        self.assertEqual(sorted(wild.groups(entries, False)),
                         [("json", "", None), ("json", "m", None), ("xml", "", None)])
        self.assertEqual(list(wild.groups(entries, True)), [("xml", "", "w.wsdl")])

    def test_table(self):
        rows = [({"family": "xmlrpc"}, "expat/sax", "right", ""),
                ({"family": "xmlrpc"}, "expat/sax", "wrong", "x")]
        text = wild.format_table(wild.table(rows))
        self.assertIn("| xmlrpc | expat/sax | 1 | 0 | 1 |", text)


class FixtureRunTest(unittest.TestCase):
    """The real soapbench on the fixture: every adapter of each format, every verdict."""

    def test_every_verdict_on_the_fixture(self):
        verdicts = wild.run(SOAPBENCH, FIXTURE)
        by = {}
        for e, adapter, verdict, _ in verdicts:
            by.setdefault(e["path"], set()).add(verdict)
        self.assertEqual(by["add.call.xml"], {"right"})
        self.assertEqual(by["not-json.call.json"], {"right"})
        self.assertEqual(by["quote.call.xml"], {"right"})
        self.assertEqual(by["subtract.call.json"], {"wrong"})
        names = wild.adapters(SOAPBENCH)
        self.assertEqual(len(verdicts), 2 * len(names["xml"]) + 2 * len(names["json"]))

    def test_cli_exit_codes_table_and_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "v.json")
            run = subprocess.run([sys.executable, os.path.join(REPO, "tools", "wild"),
                                  "--soapbench", SOAPBENCH, "--corpus", FIXTURE, "--details",
                                  "--json", out, "--parser", "rapidjson/dom"],
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn("wrong: subtract.call.json: rapidjson/dom:", run.stdout)
            self.assertIn("| jsonrpc | rapidjson/dom | 1 | 0 | 1 |", run.stdout)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
            self.assertEqual(doc["tool"], "tools/wild")
            self.assertEqual(len(doc["verdicts"]), 2)
            self.assertEqual({v["with_wsdl"] for v in doc["verdicts"]}, {False})
        run = subprocess.run([sys.executable, os.path.join(REPO, "tools", "wild"), "--soapbench",
                              "/nonexistent/soapbench", "--corpus", FIXTURE],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2)
        self.assertIn("no soapbench at", run.stderr)


class BothPassesTest(unittest.TestCase):
    """--both: the pass without WSDLs and the one with them, in one result document."""

    def test_both_passes_in_one_document(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "wild.json")
            run = subprocess.run([sys.executable, os.path.join(REPO, "tools", "wild"),
                                  "--soapbench", SOAPBENCH, "--corpus", FIXTURE, "--both",
                                  "--fail-on", "none", "--json", out, "--parser", "expat/sax"],
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 0, run.stderr)  # --fail-on none: exit 0 when it ran
            self.assertIn("without WSDLs:", run.stdout)
            # The second pass decoded quote.call.xml with its WSDL; its outcome with it is
            # undecided in the fixture, so it gives no verdict.
            self.assertIn("1 xml message(s), method '', quote.wsdl: judged", run.stderr)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        self.assertEqual({k: doc["context"][k] for k in ("corpus",)},
                         {"corpus": "tests/data/wild"})
        passes = {(v["path"], v["with_wsdl"]): v["verdict"] for v in doc["verdicts"]}
        self.assertEqual(passes, {("add.call.xml", False): "right",
                                  ("quote.call.xml", False): "right"})

    def test_with_wsdl_and_both_exclude_each_other(self):
        run = subprocess.run([sys.executable, os.path.join(REPO, "tools", "wild"), "--soapbench",
                              SOAPBENCH, "--both", "--with-wsdl"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2)
        self.assertIn("not allowed with", run.stderr)


if __name__ == "__main__":
    SOAPBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
