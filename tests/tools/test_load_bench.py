#!/usr/bin/python3
"""sbtools.load.load_bench (label unit): the study's families and how `soapbench load` is told
each, which family a server's open-loop sweep takes, the command line's defaults, and the table
it prints. The sweeps themselves against real servers: tests/load/test_load.py LoadBenchTest
(load.bench_tool) and the JVM slices (load.axis, load.jaxws)."""
import contextlib
import io
import os
import unittest

from tools_common import main
from sbtools.load import load_bench as lb

POINT = {"mode": "closed", "connections": 4, "rate": None, "tps": 1234.4, "p50_us": 800.04,
         "p99_us": 2000.0, "p999_us": None, "errors_total": 0, "server_cpu_us_per_call": 41.25}


class LoadBenchTest(unittest.TestCase):
    def test_the_study_families_in_corpus_order(self):
        self.assertEqual(lb.FAMILIES, ["xmlrpc", "soap11-rpc-encoded", "soap11-rpc-literal",
                                       "soap11-doc-literal", "jsonrpc"])
        self.assertNotIn("jsonrpc", lb.XML_FAMILIES)

    def test_how_soapbench_load_is_told_a_family(self):
        self.assertEqual(lb.load_options("soap11-rpc-literal"),
                         ["--protocol", "soap11", "--style", "rpc-literal"])
        self.assertEqual(lb.load_options("jsonrpc"), ["--protocol", "jsonrpc"])

    def test_the_open_family_is_the_one_asked_for_else_the_first_served(self):
        args = lb.parse_args(["--open-family", "soap11-doc-literal",
                              "--families", "xmlrpc,soap11-rpc-encoded"])
        self.assertEqual(lb.open_family(args, ["soap11-doc-literal", "xmlrpc"]),
                         "soap11-doc-literal")
        self.assertEqual(lb.open_family(args, ["soap11-rpc-encoded"]), "soap11-rpc-encoded")
        self.assertIsNone(lb.open_family(args, ["jsonrpc"]))

    def test_the_command_lines_defaults_and_paths(self):
        args = lb.parse_args(["--build-dir", "/b", "--connections", "1,8", "--calls", "getRate"])
        self.assertEqual(args.connections, [1, 8])
        self.assertEqual(args.calls, ["getRate"])
        self.assertEqual(args.soapbench, "/b/soapbench")
        self.assertEqual(args.json, os.path.join("/b", "results", "load_bench.json"))
        self.assertEqual(lb.jvm_log(args, "axis"), "/b/results/load_bench.json.axis.log")
        self.assertEqual(lb.parse_args([]).open_family, "soap11-doc-literal")

    def test_the_table_one_line_a_point(self):
        run = {"mode": "closed", "server_id": "soapbench-default", "family": "xmlrpc",
               "call": "respond.2500B", "points": [POINT, dict(POINT, mode="open", rate=900.0)]}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            lb.print_table([run])
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertEqual(lines[1].split(), ["closed", "soapbench-default", "xmlrpc",
                                            "respond.2500B", "c=4", "1234", "800.0", "2000.0",
                                            "0.0", "0", "41.2"])
        self.assertIn(" r=900 ", lines[2])


if __name__ == "__main__":
    main()
