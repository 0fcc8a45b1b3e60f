#!/usr/bin/python3
"""`soapbench compare` end to end (cli/compare_command.cpp, measure/compare_*.cpp).

Bad input, each named in one line while the rest of the run goes on: an empty file, a binary
file, a file that is neither XML nor JSON, a 2 GB file (sparse: refused by its size before it is
read), a file only some adapters accept, a WSDL with an unsupported construct; a folder of 10,000
small files (sampled, in one line; listing is instant); the Google Benchmark JSON where each
benchmark's name carries the message's name; --icount under callgrind; a truncated, corrupt or
not-gzip .gz named as such (compare and decode); --budget kept on a big message; the peak-heap
column of the DOMs holding the document; the default JSON in the working folder.
Usage: test_compare.py SOAPBENCH [unittest args]
"""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOAPBENCH = None

BAD_WSDL = """<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t">
    <xs:element name="Order"><xs:complexType><xs:sequence><xs:any/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="in"><part name="p" element="t:Order"/></message>
  <portType name="P"><operation name="Order"><input message="t:in"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Order"><input><soap:body use="literal"/></input></operation></binding>
</definitions>"""


def big_message(items):
    """A SOAP document/literal echoInts call with `items` values (about 30 bytes each)."""
    rows = "".join(f"<item>{(i * 2654435761) % 4294967296 - 2147483648}</item>\n"
                   for i in range(items))
    return ('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>'
            f'<echoInts xmlns="urn:soapbench"><values>\n{rows}</values></echoInts>'
            '</soap:Body></soap:Envelope>\n').encode()


def run(*args, timeout=600, cwd=None):
    return subprocess.run([SOAPBENCH, "compare", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


class BadInputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="sb-compare-")
        d = cls.dir = os.path.join(cls.tmp.name, "mine")
        os.makedirs(d)
        with open(os.path.join(REPO, "corpus", "xmlrpc", "getRate.call.xml"), "rb") as f:
            getrate = f.read()
        files = {"getRate.xml": getrate, "empty.xml": b"", "binary.xml": bytes(range(256)),
                 "text.xml": b"just words\n",
                 "late-pi.xml": b"<!-- c --><?pi x?><methodCall><methodName>boolean"
                                b"</methodName></methodCall>",
                 "batch.json": b'[{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1},'
                               b'{"jsonrpc":"2.0","method":"frob","params":{"x":1},"id":2}]',
                 "order.xml": b'<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">'
                              b'<s:Body><Order xmlns="urn:t"><n>1</n></Order></s:Body></s:Envelope>'}
        for name, data in files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        with open(os.path.join(d, "huge.xml"), "wb") as f:
            f.truncate(2 << 30)  # 2 GiB of holes
        with open(os.path.join(d, "cut.xml.gz"), "wb") as f:
            f.write(gzip.compress(big_message(2000))[:4000])  # an interrupted copy
        cls.wsdl = os.path.join(cls.tmp.name, "bad.wsdl")
        with open(cls.wsdl, "w", encoding="utf-8") as f:
            f.write(BAD_WSDL)
        cls.json = os.path.join(cls.tmp.name, "compare.json")
        cls.r = run(d, "--wsdl", cls.wsdl, "--min-time", "0.001", "--repetitions", "2",
                    "--no-pin", "--json", cls.json, cwd=cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_run_goes_on(self):
        self.assertEqual(self.r.returncode, 0, self.r.stderr)
        self.assertIn("== mine/getRate.xml (xmlrpc, ", self.r.stdout)
        self.assertIn("== mine/batch.json (jsonrpc, ", self.r.stdout)

    def test_one_line_each(self):
        err = self.r.stderr.splitlines()
        for expected in ("skipped: mine/empty.xml: empty file",
                         "skipped: mine/binary.xml: a binary file, not XML or JSON",
                         "skipped: mine/text.xml: not XML or JSON (it begins \"just words ",
                         "skipped: mine/huge.xml: 2 GiB, over the 64 MiB bound",
                         "skipped: mine/cut.xml.gz: truncated gzip: the file ends inside its "
                         "compressed stream",
                         "wsdl: refused: Order: <xsd:any> in Order (wildcard content)",
                         "not timed: mine/late-pi.xml: tinyxml2/dom at parse: refuses it: ",
                         "mine/order.xml: decode: no adapter decodes it: "):
            hits = [line for line in err if line.startswith(expected)]
            self.assertEqual(len(hits), 1, f"{expected!r} in\n{self.r.stderr}")

    def test_json_names_carry_the_message(self):
        with open(self.json, encoding="utf-8") as f:
            doc = json.load(f)
        names = {b["run_name"] for b in doc["benchmarks"]}
        self.assertIn("decode/pugixml-dom/xmlrpc/mine/getRate.xml", names)
        self.assertIn("decode/rapidjson-dom/jsonrpc/mine/batch.json", names)
        # Not decodable (its WSDL operation is refused): named by its format.
        self.assertIn("parse/pugixml-dom/xml/mine/order.xml", names)
        self.assertNotIn("parse/tinyxml2-dom/xmlrpc/mine/late-pi.xml", names)
        self.assertFalse([n for n in names if n.startswith("decode/") and "order.xml" in n])
        ctx = doc["context"]
        self.assertEqual(ctx["bench_set"], "compare")
        self.assertEqual(ctx["executable"], "compare")
        self.assertIn("compare_out:parse/tinyxml2-dom/xmlrpc/mine/late-pi.xml", ctx)
        self.assertTrue(ctx.get("machine_id"))


class ManyFilesTest(unittest.TestCase):
    def test_ten_thousand_files_listed_in_one_line(self):
        with tempfile.TemporaryDirectory(prefix="sb-many-") as tmp:
            for i in range(10000):
                with open(os.path.join(tmp, f"m{i:05d}.xml"), "w", encoding="utf-8") as f:
                    f.write("<m/>")
            r = run(tmp, "--list", timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(r.stdout.splitlines()), 100)
        self.assertIn("10000 message files named; comparing 100", r.stderr)
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)


class GzipTest(unittest.TestCase):
    """A damaged .gz is an error of its own, naming the file, never the XML's."""

    def test_truncated_and_corrupt(self):
        with tempfile.TemporaryDirectory(prefix="sb-gzip-") as tmp:
            whole = gzip.compress(big_message(2000))
            cases = {"cut.xml.gz": (whole[:len(whole) // 2], "truncated gzip: the file ends "
                                                             "inside its compressed stream"),
                     "header.xml.gz": (whole[:12], "truncated gzip"),
                     "crc.xml.gz": (whole[:-8] + bytes(8), "corrupt gzip: incorrect data check"),
                     "plain.xml.gz": (big_message(10), "not gzip: the file has no gzip header")}
            for name, (data, why) in cases.items():
                path = os.path.join(tmp, name)
                with open(path, "wb") as f:
                    f.write(data)
                with self.subTest(name=name):
                    r = run(path, "--list", cwd=tmp)
                    self.assertIn(f"skipped: {name}: {why}", r.stderr)
                    d = subprocess.run([SOAPBENCH, "decode", "--parser", "pugixml/dom", path],
                                       capture_output=True, text=True, timeout=60)
                    self.assertEqual(d.returncode, 1, d.stdout)
                    self.assertTrue(d.stderr.startswith(f"soapbench: {path}: {why}"), d.stderr)
                    self.assertNotIn("pugixml", d.stderr)


class BudgetTest(unittest.TestCase):
    """--budget bounds the whole command: the plan fits what is left, the rest cut with a word."""

    def test_a_big_message_keeps_the_budget(self):
        budget = 6
        with tempfile.TemporaryDirectory(prefix="sb-budget-") as tmp:
            path = os.path.join(tmp, "big.xml")
            with open(path, "wb") as f:
                f.write(big_message(150000))  # about 4.5 MB
            began = time.monotonic()
            r = run(path, "--parser", "pugixml/dom", "--parser", "libxml2/dom", "--parser",
                    "expat/sax", "--budget", str(budget), "--no-pin", "--json", "-", cwd=tmp)
            wall = time.monotonic() - began
        plan = re.search(r"about (\d+) s of the (\d+) s left of --budget 6\n", r.stderr)
        if plan is None:  # a machine too busy for even one repetition in the budget: said so
            self.assertIn("budget: nothing timed: ", r.stderr)
            self.assertEqual(r.returncode, 1, r.stderr)
        else:
            self.assertLessEqual(int(plan.group(1)), int(plan.group(2)), r.stderr)
        # The deadline holds whatever the model guessed; generous slack for a loaded machine.
        self.assertLess(wall, 3 * budget, r.stderr)
        for line in r.stderr.splitlines():
            if line.startswith("budget:"):
                self.assertRegex(line, r"^budget: (\d+ of \d+ benchmarks not timed|"
                                       r"\d+ repetitions? (instead of|not run)|nothing timed)")


class PeakHeapTest(unittest.TestCase):
    """The peak-heap column is a fresh adapter's heap for the message, never 0 for a DOM."""

    def test_dom_peaks_hold_the_document(self):
        with tempfile.TemporaryDirectory(prefix="sb-peak-") as tmp:
            path = os.path.join(tmp, "big.xml")
            data = big_message(30000)
            with open(path, "wb") as f:
                f.write(data)
            out = os.path.join(tmp, "peak.json")
            r = run(path, "--parser", "pugixml/dom", "--parser", "rapidxml/dom", "--parser",
                    "libxml2/dom", "--level", "parse", "--iterations", "1", "--no-pin",
                    "--json", out, cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out, encoding="utf-8") as f:
                peaks = {b["run_name"].split("/")[1]: b["peak_heap_bytes"]
                         for b in json.load(f)["benchmarks"]}
        self.assertEqual(set(peaks), {"pugixml-dom", "rapidxml-dom", "libxml2-dom"})
        for adapter, peak in peaks.items():
            # Each holds a tree of the whole document, its text included.
            self.assertGreater(peak, len(data), adapter)


class DefaultJsonTest(unittest.TestCase):
    """Without --json the results land in the working folder, and the run says where."""

    def test_compare_json_in_the_working_folder(self):
        with tempfile.TemporaryDirectory(prefix="sb-json-") as tmp:
            r = run(os.path.join(REPO, "corpus", "xmlrpc", "add.call.xml"), "--parser",
                    "pugixml/dom", "--level", "parse", "--iterations", "1", "--no-pin", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            path = os.path.join(os.path.realpath(tmp), "compare.json")
            self.assertTrue(os.path.exists(path), r.stderr)
            self.assertIn(f"results: {path} (tools/results save {path} keeps them)", r.stderr)


@unittest.skipIf(os.environ.get("SB_SANITIZE") == "1",
                 "callgrind cannot run an ASan binary: the release build's run of this test counts")
class IcountTest(unittest.TestCase):
    def test_instructions_per_message(self):
        with tempfile.TemporaryDirectory(prefix="sb-icount-") as tmp:
            out = os.path.join(tmp, "icount.json")
            r = run(os.path.join(REPO, "corpus", "xmlrpc", "add.call.xml"), "--icount",
                    "--parser", "pugixml/dom", "--parser", "expat/sax", "--level", "decode",
                    "--json", out, cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        self.assertIn("instructions per message", r.stdout)
        counts = doc["instructions"]
        self.assertEqual(set(counts), {"decode/pugixml-dom/xmlrpc/add.call.xml",
                                       "decode/expat-sax/xmlrpc/add.call.xml"})
        self.assertGreater(min(counts.values()), 1000)


if __name__ == "__main__":
    SOAPBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
