#!/usr/bin/python3
"""Tests of the report's rule for right answers (label unit): report.right_answers says per
family which adapters have right answers, from the wrong answers report.checks reads
(test_report_checks.py); report.answer recommends only those, whatever their name. Data: the
committed run of bab0702471ef with the committed standard suites' matrix (the inputs the
committed web page is rendered from) and tests/data/compare/compare.json."""
import os

from tools_common import REPO, Tmp, dump, load, main, tool  # noqa: E402
from sbtools.report import answer, checks, links, right_answers  # noqa: E402
from sbtools.report.data import Data  # noqa: E402
from sbtools.report.run import Run  # noqa: E402

MACHINE_DIR = os.path.join(REPO, "results", "bab0702471ef")
RUN_FILES = [os.path.join(MACHINE_DIR, f) for f in (
    "20261202-174809_6790742da1f5.parse_bench.json",
    "20261202-175209_6790742da1f5.roundtrip_bench.json")]
HOSTILE = os.path.join(MACHINE_DIR, "conformance.json")
SUITES = os.path.join(REPO, "results", "da5acefad890",
                      "20261203-072501_b243d88cbec1.conformance_suites.json")
COMPARE = os.path.join(REPO, "tests", "data", "compare", "compare.json")


def committed_run(tmp, files=None, **paths):
    """The committed run; paths: conformance / conformance_suites documents (default: both)."""
    given = {"conformance": HOSTILE, "conformance_suites": SUITES}
    given.update(paths)
    return Run(Data(files or RUN_FILES), given, [], tmp, True)


def wrong_of(check, adapter, where):
    return check.verdict(adapter, where) or []


class RuleTest(Tmp):
    def compute(self, **paths):
        run = committed_run(self.tmp, **paths)
        computed = {"right_answers": right_answers.compute(run), "links": links.compute(run)}
        return computed, {r["family"]: r for r in answer.compute(run, computed)["rows"]}

    def test_no_pick_has_a_wrong_answer(self):
        computed, rows = self.compute()
        verdicts = computed["right_answers"]["verdicts"]
        for fam, r in rows.items():
            self.assertEqual(verdicts.of(r["pick"], fam)[0], "right", fam)
            for x in r["faster"]:
                self.assertNotEqual(verdicts.of(x["adapter"], fam)[0], "right")
        self.assertEqual(rows["xmlrpc"]["pick"], "expat-sax")
        self.assertEqual(rows["xmlrpc"]["faster"][0]["adapter"], "rapidxml-dom-fastest")
        self.assertIn("124 wrong in the standard suites", rows["xmlrpc"]["faster"][0]["why"])
        self.assertEqual(rows["jsonrpc"]["pick"], "simdjson-dom")
        self.assertEqual(rows["jsonrpc"]["faster"], [])

    def test_the_rule_reads_answers_not_names(self):
        # Without the suites' matrix nothing caught the named fastest mode answering wrong: it
        # is recommended where it is fastest; the rule says which checks ran.
        computed, rows = self.compute(conformance_suites=None)
        self.assertEqual(rows["soap11-doc-literal"]["pick"], "rapidxml-dom-fastest")
        self.assertIn(("standard suites", checks.ABSENT["suites"][1]),
                      computed["right_answers"]["absent"])

    def test_an_adapter_a_check_did_not_judge_is_not_checked(self):
        doc = load(SUITES)
        for suite in doc["suites"]:
            suite["records"] = [r for r in suite["records"] if r["adapter"] != "expat/sax"]
        path = dump(doc, self.path("suites.json"))
        computed, rows = self.compute(conformance_suites=path)
        verdicts = computed["right_answers"]["verdicts"]
        state, _wrong, unjudged = verdicts.of("expat-sax", "xmlrpc")
        self.assertEqual((state, [c.key for c in unjudged]), ("not checked", ["suites"]))
        self.assertIsNone(rows["xmlrpc"]["pick"])  # no XML adapter left with right answers
        self.assertIn("none: no adapter", answer.html_block(answer.compute(
            committed_run(self.tmp, conformance_suites=path), computed)))

    def test_section_names_every_wrong_answer_kind(self):
        run = committed_run(self.tmp)
        text = right_answers.markdown(right_answers.compute(run), None)
        self.assertIn("| `rapidxml-dom-fastest` | xml | 0 of 128 | **124 of 273** | 0 of 225 | "
                      "wrong |", text)
        self.assertIn("| `expat-sax` | xml | 0 of 128 | 0 of 273 | 0 of 226 | right |", text)
        self.assertIn("- `rapidxml-dom-fastest`, standard suites: accepted a not-well-formed "
                      "document: 122 — ", text)
        self.assertIn("Held against no adapter: w3c-xml: disputed", text)


class ReportTest(Tmp):
    def test_report_md_has_the_section_and_the_page_the_rule(self):
        out = self.path("out")
        tool("report", *RUN_FILES, "--conformance", HOSTILE, "--conformance-suites", SUITES,
             "--html", "--no-charts", "--out-dir", out, check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertIn("## Right answers", md)
        self.assertIn("- [Right answers](#right-answers)", md)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = f.read()
        row = page.split('<tr data-family="xmlrpc">', 1)[1].split("</tr>", 1)[0]
        # The row recommends expat-sax; the faster named mode stands among the wrong answers.
        self.assertIn('<td class="unranked" data-label="fastest with right answers">'
                      '<code>expat-sax</code>, the only one with right answers', row)
        self.assertRegex(row, r'<td class="wrong"[^>]*><code>rapidxml-dom-fastest</code>')


if __name__ == "__main__":
    main()
