#!/usr/bin/python3
"""Tests of tools/icount (tools/sbtools/icount.py): two runs under callgrind give identical counts
(label unit). SB_PARSE_BENCH=path/to/parse_bench (skipped when unset, missing, or valgrind is
not installed)."""
import os
import re
import unittest

from tools_common import *  # noqa: E402,F401,F403  (paths, tool(), the samples, Tmp)


class IcountTest(Tmp):
    # libxml2 (hash seeds from time()) and Expat (a random hash salt per document) are the
    # adapters whose counts would vary without tools/icount's determinism shim.
    FILTER = (r"^decode/(pugixml-dom|libxml2-dom|libxml2-sax|expat-sax|rapidjson-dom)/"
              r"(xmlrpc|soap11-rpc-encoded|jsonrpc)/(getRate|complex)\.call")

    def setUp(self):
        super().setUp()
        self.bench = os.environ.get("SB_PARSE_BENCH", "")
        if not self.bench or not os.access(self.bench, os.X_OK):
            self.skipTest("SB_PARSE_BENCH does not name a parse_bench binary")
        if not shutil.which("valgrind"):
            self.skipTest("valgrind is not installed")

    def test_two_runs_give_identical_counts(self):
        docs = []
        for i in range(2):
            out = self.path(f"icount{i}.json")
            tool("icount", "--bench", self.bench, "--filter", self.FILTER, "--iterations", "3",
                 "--out", out, "--quiet", check=0)
            docs.append(load(out))
        a, b = (d["instructions"] for d in docs)
        self.assertEqual(len(a), 18, sorted(a))
        self.assertEqual(a, b)
        for name, count in a.items():
            self.assertGreater(count, 100, name)
        self.assertTrue(docs[0]["context"].get("machine_id"))
        self.assertEqual(docs[0]["icount"]["iterations"], 3)
        # Keyed by build: the facts that decide counts, the same for both runs.
        meta = docs[0]["icount"]
        self.assertRegex(meta["build_key"], r"^[0-9a-f]{12}$")
        self.assertEqual(meta["build_key"], docs[1]["icount"]["build_key"])
        self.assertRegex(meta["build"]["isa_level"], r"^x86-64-v\d$")
        self.assertTrue(any(n.startswith("libc.so") for n in meta["build"]["shared_libraries"]))
        self.assertIn("pugixml", meta["build"]["libraries"])
        # And compare calls two identical counts `same`.
        _proc, v = self.compare(self.path("icount0.json"), self.path("icount1.json"), check=0)
        self.assertEqual(set(v.values()), {"same"})


if __name__ == "__main__":
    main()
