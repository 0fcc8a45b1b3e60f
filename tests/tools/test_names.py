#!/usr/bin/python3
"""Tests of the benchmark-name schema (bench/benchmark_names.json, tools/sbtools/names.py): every
name in the committed result files and every benchmark parse_bench (default set) and
roundtrip_bench register, and both sides of every callcount row, parses to one kind; names build
back (label unit). SB_PARSE_BENCH, SB_ROUNDTRIP_BENCH and SB_CALLCOUNT name the programs (each
skipped when unset)."""
import glob
import os
import subprocess
import unittest

from tools_common import REPO, load, main  # noqa: E402
from sbtools import gbench, names  # noqa: E402


class NamesTest(unittest.TestCase):
    def test_parse_and_build(self):
        self.assertEqual(names.parse("decode/pugixml-dom/xmlrpc/add.call"),
                         ("level", {"level": "decode", "adapter": "pugixml-dom",
                                    "family": "xmlrpc", "file": "add.call"}))
        self.assertEqual(names.parse("roundtrip/floor/blocking/2500"),
                         ("floor", {"mode": "blocking", "bytes": "2500"}))
        kind, f = names.parse("roundtrip/keepalive/xmlrpc/frontier~soapbench/add")
        self.assertEqual((kind, names.split_pair(f["parser"])), ("roundtrip", ("frontier", "soapbench")))
        self.assertEqual(names.parse("messaging/binary-newconn/sendInt")[0], "messaging")
        self.assertEqual(names.parse("floor/memchr/jsonrpc/add.call")[0], "scan")
        self.assertEqual(names.parse("encode/direct/jsonrpc/add.response")[0], "encode")
        self.assertEqual(names.parse("nothing/of/the/kind"), (None, {}))
        # The last field keeps what follows (Google Benchmark's suffixes).
        self.assertEqual(names.parse("decode/a/b/c.call/min_time:0.010")[1]["file"],
                         "c.call/min_time:0.010")
        # The '/' -> '-' rule on every field built.
        self.assertEqual(names.build("level", level="walk", adapter="libxml2/sax", family="xmlrpc",
                                     file="add.call"), "walk/libxml2-sax/xmlrpc/add.call")

    def test_every_committed_name_has_a_kind(self):
        # The machine folders' runs and tools/callcount's (results/callcount/<build-key>/).
        files = glob.glob(os.path.join(REPO, "results", "*", "2*.json")) + \
            glob.glob(os.path.join(REPO, "results", "callcount", "*", "2*.json"))
        self.assertGreater(len(files), 5)
        seen = set()
        for p in files:
            for name in gbench.results_of(load(p)):
                kind, _f = names.parse(gbench.pair_name(name))
                self.assertIsNotNone(kind, f"{name} ({p})")
                seen.add(kind)
        # jvm: jvm_decode_bench's rows (bench.jvm_decode.full, label full), not in the committed
        # runs; tests/tools/test_report_java.py parses them.
        self.assertEqual(seen, {k["kind"] for k in names.schema()["kinds"]} - {"jvm"})

    def registered(self, variable, *args):
        """The names a benchmark program registers (--benchmark_list_tests), or a skip."""
        bench = os.environ.get(variable, "")
        if not os.access(bench, os.X_OK):
            self.skipTest(f"{variable} does not name the program")
        return subprocess.run([bench, *args, "--benchmark_list_tests"], stdout=subprocess.PIPE,
                              text=True, check=True, timeout=300).stdout.split()

    def test_every_registered_name_has_a_kind(self):
        # parse_bench's default set (the full set has the same shapes over more sizes; listing it
        # builds its corpus, minutes on a loaded machine) and roundtrip_bench's.
        for variable, args, least in (("SB_PARSE_BENCH", ["--set=default"], 1000),
                                      ("SB_ROUNDTRIP_BENCH", [], 100)):
            with self.subTest(variable):
                listed = self.registered(variable, *args)
                self.assertGreater(len(listed), least)
                bad = [n for n in listed if names.parse(gbench.pair_name(n))[0] is None]
                self.assertEqual(bad, [])

    def test_every_callcount_row_names_both_sides(self):
        # callcount --list prints row ids; its benchmarks are callcount/<side>/<id>.
        bench = os.environ.get("SB_CALLCOUNT", "")
        if not os.access(bench, os.X_OK):
            self.skipTest("SB_CALLCOUNT does not name the program")
        ids = subprocess.run([bench, "--list"], stdout=subprocess.PIPE, text=True, check=True,
                             timeout=60).stdout.split()
        self.assertGreater(len(ids), 40)
        for row in ids:
            for side in ("client", "server"):
                kind, f = names.parse(f"callcount/{side}/{row}")
                self.assertEqual(kind, "callcount", row)
                self.assertEqual(names.build("callcount", **f), f"callcount/{side}/{row}")

if __name__ == "__main__":
    main()
