#!/usr/bin/python3
"""sbtools.facts (label unit): the facts a run's context carries (families, default adapters,
links, the link model, round trips, the registry rows), read from a committed run, and what an
older file without them falls back to."""
import os
import unittest

from tools_common import REPO, load, main
from sbtools import facts

RUN = os.path.join(REPO, "results", "bab0702471ef",
                   "20261202-175209_6790742da1f5.roundtrip_bench.json")
OLD_NAMES = ["decode/pugixml-dom/xmlrpc/add.call", "decode/pugixml-dom/jsonrpc/add.call",
             "roundtrip/keepalive/binary/x/add", "decode/pugixml-dom/xmlrpc/getRate.call"]


class FactsTest(unittest.TestCase):
    def test_packed_values(self):
        self.assertEqual(facts.packed("a=1;b=x=y;;c"), {"a": "1", "b": "x=y"})

    def test_a_committed_runs_context(self):
        f = facts.Facts(load(RUN)["context"], [])
        self.assertEqual(f.missing, [])
        self.assertEqual(f.families, ["xmlrpc", "soap11-rpc-encoded", "soap11-rpc-literal",
                                      "soap11-doc-literal", "soap12-doc-literal", "jsonrpc"])
        self.assertEqual(f.default, {"xml": "pugixml/dom", "json": "rapidjson/dom"})
        self.assertEqual(f.default_bench_name("xml"), "pugixml-dom")
        self.assertEqual(f.links[0], ("datacenter", 1e10, 0.0001))  # fastest first; no loopback
        self.assertEqual(f.round_trips["tls-full"], 3)
        self.assertEqual(f.format_of("pugixml-dom"), "xml")
        self.assertIsNone(f.format_of("no-such-adapter"))

    def test_registry_rows_by_bench_name(self):
        rows = facts.adapter_rows({"adapter:rapidxml/dom-fastest": "format=xml;mode=fastest",
                                   "adapter:pugixml/dom": "format=xml"})
        self.assertEqual(rows["rapidxml-dom-fastest"],
                         {"format": "xml", "mode": "fastest", "registry": "rapidxml/dom-fastest"})
        self.assertEqual(list(rows), ["rapidxml-dom-fastest", "pugixml-dom"])

    def test_an_older_file_names_what_it_lacks_and_orders_families_as_its_names(self):
        f = facts.Facts({}, OLD_NAMES)
        self.assertEqual(f.families, ["xmlrpc", "jsonrpc"])
        self.assertEqual(f.missing, ["families", "default_adapter:xml|json",
                                     "link:<name>, link_model:*"])
        self.assertEqual(f.links, [])
        self.assertIsNone(f.default_bench_name("json"))


if __name__ == "__main__":
    main()
