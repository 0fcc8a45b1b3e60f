#!/usr/bin/python3
"""The report's "Real-world messages" section and its right-answers check (label unit):
report.real_world and report.checks.wild on a small tools/wild document (document() below: the
shape `tools/wild --both --json` writes), over the committed run the other right-answers tests
use; kept by `tools/results save` and read by tools/track."""
import io
import os

from tools_common import Tmp, dump, load, main, tool  # noqa: E402
from test_right_answers import (HOSTILE, RUN_FILES, SUITES, committed_run)  # noqa: E402
from sbtools.report import answer, links, page, real_world, right_answers, summary  # noqa: E402
from sbtools.track import importers  # noqa: E402

SHARED = "axis1/fault.xml"    # every XML adapter answers it wrong: held against none
WRONG = "ethereum/eth_call.io.json"  # simdjson/dom alone answers it wrong


def verdict(path, family, adapter, v="right", detail="", with_wsdl=False):
    return {"path": path, "family": family, "adapter": adapter, "with_wsdl": with_wsdl,
            "verdict": v, "detail": detail}


def document(data, wrong_adapter="simdjson/dom"):
    """Every adapter of the committed run judged on a few wild messages: xmlrpc right for all,
    one SOAP message wrong for every XML adapter, one jsonrpc message wrong for wrong_adapter
    only, one refused by two JSON adapters (the same reason), one with its WSDL."""
    fmt = {a: row.get("format") for a, row in data.adapters.items()}
    xml = sorted(a.replace("-", "/", 1) for a, f in fmt.items() if f == "xml")
    js = sorted(a.replace("-", "/", 1) for a, f in fmt.items() if f == "json")
    out = []
    for a in xml:
        out.append(verdict("phpxmlrpc/value.xml", "xmlrpc", a))
        out.append(verdict(SHARED, "soap11-doc-literal", a, "wrong",
                           "typed without its WSDL -> {\"kind\":\"fault\"}"))
        out.append(verdict("node-soap/r.xml", "soap11-doc-literal", a, "right", "", True))
    for a in js:
        bad = a == wrong_adapter
        out.append(verdict(WRONG, "jsonrpc", a, "wrong" if bad else "right",
                           "typed to another answer: {\"kind\":\"call\",\"params\":[<1>]}"
                           if bad else ""))
        refused = a in js[:2]
        out.append(verdict("go/batch.json", "jsonrpc", a, "refused" if refused else "right",
                           "missing \"jsonrpc\"" if refused else ""))
    return {"tool": "tools/wild", "machine_id": "bab0702471ef",
            "context": {"date": "2026-12-02T18:00:00Z", "git_sha": "6790742da1f5",
                        "corpus": "corpus/wild", "command": "tools/wild --both --json F"},
            "verdicts": out}


class RealWorldTest(Tmp):
    def run_with(self, doc):
        path = dump(doc, self.path("wild.json")) if doc else None
        return committed_run(self.tmp, wild=path)

    def rows(self, run):
        computed = {"right_answers": right_answers.compute(run), "links": links.compute(run),
                    "real_world": real_world.compute(run)}
        return computed, answer.compute(run, computed)

    def test_the_section_renders_from_the_verdicts(self):
        run = self.run_with(document(committed_run(self.tmp).data))
        text = real_world.markdown(real_world.compute(run), None)
        self.assertIn("5 messages (1 of them also with their WSDL)", text)
        self.assertIn(f"Reproduce with `{real_world.COMMAND}`", text)
        self.assertIn("**16 wrong answers** (adapter × message)", text)
        self.assertIn(f"- **soap11-doc-literal: `{SHARED}`**, every one of the 15 adapters: "
                      "typed without its WSDL; answered `{\"kind\":\"fault\"}`", text)
        # The adapter's answer as code: its tag-like text is shown, never read as HTML.
        self.assertIn(f"- **jsonrpc: `{WRONG}`**, `simdjson-dom`: typed to another answer: "
                      "`{\"kind\":\"call\",\"params\":[<1>]}`", text)
        # The two adapters that refused share a row; the one that answered wrong stands apart.
        self.assertRegex(text, r"\| `jsoncpp-dom`, `nlohmann-dom` \|[ |]*1 / 1 / 0")
        self.assertRegex(text, r"\| `simdjson-dom` \|[ |]*\*\*1 / 0 / 1\*\*")
        self.assertIn("- jsonrpc, `missing \"jsonrpc\"`: 2 adapters, 1 message: `go/batch.json`",
                      text)
        self.assertIn("The messages that need a WSDL, with it", text)
        self.assertIn('<code>{"kind":"call","params":[&lt;1&gt;]}</code>', page.md_html(text))

    def test_the_headline_timings_render_as_a_compare_run(self):
        doc = document(committed_run(self.tmp).data)
        without = real_world.markdown(real_world.compute(self.run_with(doc)), None)
        self.assertNotIn("Timed: the headline real-world messages", without)
        # tools/wild --time keeps a soapbench compare document (tests/data/compare/'s) inside.
        doc["timings"] = load(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data",
                                           "compare", "compare.json"))
        text = real_world.markdown(real_world.compute(self.run_with(doc)), None)
        self.assertIn("### Timed: the headline real-world messages", text)
        self.assertIn(f"`{real_world.TIMED_COMMAND}`", text)
        self.assertIn("`soapbench compare` on 3 of the wild corpus's messages", text)
        self.assertIn("| `fixture/getRate.call.xml` |", text)
        # Not a compare document: no timings shown.
        doc["timings"] = {"benchmarks": []}
        self.assertNotIn("Timed:", real_world.markdown(real_world.compute(self.run_with(doc)),
                                                       None))

    def test_a_wrong_answer_takes_the_adapter_out_of_the_recommendation(self):
        _c, before = self.rows(committed_run(self.tmp))
        jsonrpc = {r["family"]: r for r in before["rows"]}["jsonrpc"]
        self.assertEqual(jsonrpc["pick"], "simdjson-dom")
        computed, after = self.rows(self.run_with(document(committed_run(self.tmp).data)))
        rows = {r["family"]: r for r in after["rows"]}
        self.assertNotEqual(rows["jsonrpc"]["pick"], "simdjson-dom")
        self.assertIsNotNone(rows["jsonrpc"]["pick"])
        faster = {x["adapter"]: x["why"] for x in rows["jsonrpc"]["faster"]}
        self.assertEqual(faster["simdjson-dom"].split(": ", 1)[-1],
                         "1 wrong in the real-world messages")
        state, wrong, _ = computed["right_answers"]["verdicts"].of("simdjson-dom", "jsonrpc")
        self.assertEqual((state, [(c.key, m) for c, items in wrong for m, *_ in items]),
                         ("wrong", [("wild", WRONG)]))
        # Every XML adapter answered SHARED wrong: soapbench's decoding, held against none (the
        # XML picks stay), and named on the first screen in red with the other.
        self.assertEqual(rows["xmlrpc"]["pick"], {r["family"]: r for r in before["rows"]}
                         ["xmlrpc"]["pick"])
        self.assertEqual(computed["right_answers"]["verdicts"].of("expat-sax",
                                                                  "soap11-doc-literal")[0],
                         "right")
        html = answer.html_block(after)
        self.assertIn('<p class="note wild-wrong"><b>16 wrong answers on real-world messages'
                      f'</b>: every adapter on soap11-doc-literal <code>{SHARED}</code>', html)
        self.assertIn(f"<code>simdjson-dom</code> on jsonrpc <code>{WRONG}</code>", html)
        notes = right_answers.markdown(computed["right_answers"], None)
        self.assertIn(f"soap11-doc-literal `{SHARED}`, answered wrong by all 15 adapters", notes)

    def test_the_opening_paragraph_names_the_wrong_answers(self):
        run = self.run_with(document(committed_run(self.tmp).data))
        text = " ".join(summary.sentences(run))
        self.assertIn("**16 wrong answers on real-world messages**: every adapter on "
                      f"soap11-doc-literal `{SHARED}`", text)
        console = io.StringIO()  # tools/report --summary, which tools/run_bench.sh prints
        summary.print_summary(run, console)
        self.assertIn(f"16 wrong answers on real-world messages: every adapter on "
                      f"soap11-doc-literal {SHARED} (typed without its WSDL); simdjson-dom on "
                      f"jsonrpc {WRONG} (typed to another answer) (report section "
                      "\"Real-world messages\")\n", console.getvalue())
        clean = document(committed_run(self.tmp).data, wrong_adapter=None)
        clean["verdicts"] = [v for v in clean["verdicts"] if v["path"] != SHARED]
        self.assertNotIn("real-world messages**", " ".join(summary.sentences(
            self.run_with(clean))))

    def test_without_the_document_the_section_is_left_out_with_how_to_make_it(self):
        run = self.run_with(None)
        self.assertIsNone(real_world.compute(run))
        ra = right_answers.compute(run)
        self.assertIn(("real-world messages", f"no `tools/wild` document: {real_world.PRODUCE}"),
                      ra["absent"])
        self.assertIn("`ctest --test-dir build -R bench.wild`", right_answers.markdown(ra, None))
        self.assertEqual(page.missing_text(real_world), real_world.MISSING)
        self.assertIn("tools/wild --both --json FILE", real_world.MISSING)

    def test_a_document_of_another_tool_says_so(self):
        run = self.run_with({"tool": "tools/load_bench", "runs": []})
        d = real_world.compute(run)
        self.assertIn("could not be read: not a `tools/wild` document",
                      real_world.markdown(d, None))
        self.assertNotIn("wild", [c.key for c in right_answers.compute(run)["verdicts"].checks])


class CommandsTest(Tmp):
    def test_report_page_and_markdown(self):
        doc = document(committed_run(self.tmp).data)
        wild = dump(doc, self.path("wild.json"))
        out = self.path("out")
        tool("report", *RUN_FILES, "--conformance", HOSTILE, "--conformance-suites", SUITES,
             "--wild", wild, "--html", "--no-charts", "--out-dir", out, check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertIn("## Real-world messages", md)
        self.assertIn("- [Real-world messages](#real-world-messages)", md)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            html = f.read()
        self.assertIn('<section id="real-world-messages" class="section present"', html)
        first = html.split('<section id="answer"', 1)[1].split("</section>", 1)[0]
        self.assertIn('class="note wild-wrong"', first)

    def test_results_save_keeps_it_and_track_reads_it(self):
        doc = document(committed_run(self.tmp).data)
        wild = dump(doc, self.path("wild.json"))
        results = self.path("results")
        tool("results", "--results-dir", results, "save", wild, check=0)
        kept = os.listdir(os.path.join(results, "bab0702471ef"))
        self.assertEqual(kept, ["20261202-180000_6790742da1f5.wild.json"])
        self.assertEqual(load(os.path.join(results, "bab0702471ef", kept[0])), doc)
        run = importers.read(wild)
        self.assertEqual((run.suite, run.commit), ("wild", "6790742da1f5"))
        self.assertEqual(run.samples[(f"plain/simdjson/dom/{WRONG}", "right")], [0.0])
        self.assertEqual(run.samples[("with-wsdl/expat/sax/node-soap/r.xml", "right")], [1.0])


if __name__ == "__main__":
    main()
