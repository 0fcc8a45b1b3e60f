#!/usr/bin/python3
"""sbtools.corpus_calls (label unit): corpus calls as HTTP requests (path, headers, body, the
manifest's expected answer) and the answer check by `soapbench decode` ($SB_SOAPBENCH, default
build/soapbench): the corpus response passes, another value or status is named."""
import json
import os
import unittest

from tools_common import REPO, main
from sbtools import corpus_calls as cc
from sbtools.corpusgen import contract

SOAPBENCH = os.environ.get("SB_SOAPBENCH") or os.path.join(REPO, "build", "soapbench")


class CallsTest(unittest.TestCase):
    def test_names(self):
        self.assertEqual(cc.protocol_of("soap11-doc-literal"), "soap11")
        self.assertEqual(cc.style_of("soap11-rpc-encoded"), "rpc-encoded")
        self.assertIsNone(cc.style_of("jsonrpc"))
        self.assertEqual(cc.operation_of("echoBase64.100"), "echoBase64")
        self.assertEqual([cc.format_of(f) for f in ("xmlrpc", "soap12-doc-literal", "jsonrpc")],
                         ["xml", "xml", "json"])
        self.assertEqual(list(cc.FAMILIES), ["xmlrpc", "soap11-rpc-encoded", "soap11-rpc-literal",
                                             "soap11-doc-literal", "soap12-doc-literal", "jsonrpc"])

    def test_the_soap_action_travels_as_each_version_sends_it(self):
        action = f'"{contract.OPERATIONS["getRate"].namespace}#getRate"'
        self.assertEqual(cc.headers("soap11-doc-literal", "getRate"),
                         {"Content-Type": "text/xml; charset=utf-8", "SOAPAction": action})
        self.assertEqual(cc.headers("soap12-doc-literal", "getRate"),
                         {"Content-Type": "application/soap+xml; charset=utf-8; action=" + action})
        self.assertEqual(cc.headers("jsonrpc", "getRate"), {"Content-Type": "application/json"})

    def test_a_call_carries_its_file_and_the_manifests_answer(self):
        call = cc.load_call("soap11-doc-literal", "add")
        with open(os.path.join(REPO, "corpus", "soap11-doc-literal", "add.call.xml"), "rb") as f:
            self.assertEqual(call.body, f.read())
        with open(os.path.join(REPO, "corpus", "manifest.json"), encoding="utf-8") as f:
            entry = next(e for e in json.load(f)["entries"]
                         if e["path"] == "soap11-doc-literal/add.response.xml")
        self.assertEqual((call.operation, call.path, call.expected), ("add", "/soap",
                                                                      entry["canonical"]))

    def test_unknown_family_or_call(self):
        with self.assertRaisesRegex(KeyError, "unknown family 'grpc'"):
            cc.load_call("grpc", "add")
        with self.assertRaises(OSError):
            cc.load_call("xmlrpc", "noSuchCall")


class AnswerCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.check = cc.AnswerCheck(SOAPBENCH)
        cls.call = cc.load_call("xmlrpc", "add")

    def answer(self, family, name):
        with open(cc.corpus_path(family, name, "response"), "rb") as f:
            return f.read()

    def test_the_corpus_response_is_right(self):
        self.assertIsNone(self.check.problem(self.call, 200, self.answer("xmlrpc", "add")))

    def test_another_value_is_named_with_both(self):
        problem = self.check.problem(self.call, 200, self.answer("xmlrpc", "getRate"))
        self.assertTrue(problem.startswith("wrong answer: "), problem)
        self.assertIn(f"(expected {self.call.expected})", problem)

    def test_a_status_other_than_200(self):
        self.assertEqual(self.check.problem(self.call, 503, b"busy"), "HTTP 503: b'busy'")

    def test_each_answer_is_decoded_once_and_the_memory_bounded(self):
        check = cc.AnswerCheck(SOAPBENCH, parser="pugixml/dom")
        body = self.answer("xmlrpc", "add")
        check.problem(self.call, 200, body)
        check.decoded = None  # a second decode would fail
        self.assertIsNone(check.problem(self.call, 200, body))
        check.seen_ = {("f", str(i), b""): None for i in range(cc.CHECK_CACHE)}
        del check.decoded
        check.problem(self.call, 200, b"<methodResponse/>")
        self.assertLessEqual(len(check.seen_), cc.CHECK_CACHE)


if __name__ == "__main__":
    main()
