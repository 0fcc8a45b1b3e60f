#!/usr/bin/python3
"""Tests of tools/server_load, its report section and its place in tools/results (label unit).

LoadTest runs real servers under wrk for a second: `soapbench serve` (every connection served)
and xmlrpc_c_server with --max-conn 1 at 2 connections (Abyss accepts the second connection
and never serves it: the tool must flag it). SB_BUILD_DIR: the build tree (default build/).

Usage: tests/tools/test_server_load.py [TestClass ...]
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(REPO, "tools")
PY = "/usr/bin/python3"
BUILD = os.environ.get("SB_BUILD_DIR", os.path.join(REPO, "build"))
XMLRPC_C_SERVER = os.path.join(BUILD, "peers", "xmlrpc-c", "xmlrpc_c_server")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
sys.dont_write_bytecode = True


def tool(name, *args, env=None):
    return subprocess.run([PY, os.path.join(TOOLS, name), *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=300, cwd=REPO,
                          env=None if env is None else {**os.environ, **env})


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-server-load-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


@unittest.skipUnless(shutil.which("wrk"), "wrk is not installed (tools/setup.sh installs it)")
class LoadTest(Tmp):
    def run_tool(self, *args, env=None):
        out = os.path.join(self.tmp, "server_load.json")
        # 2 s: wrk must still be running at two connection samples or more on a machine busy
        # with other tests.
        proc = tool("server_load", "--build-dir", BUILD, "--duration", "2", "--reps", "1",
                    "--machine", "unit-test", "--json", out, *args, env=env)
        self.assertTrue(os.path.exists(out), proc.stdout + proc.stderr)
        return proc, load(out)

    def test_every_connection_of_our_server_is_served(self):
        proc, doc = self.run_tool("--servers", "soapbench-default", "--calls", "add",
                                  "--connections", "1,2")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(doc["tool"], "tools/server_load")
        self.assertEqual(doc["machine_id"], "unit-test")
        self.assertEqual([(c["server"], c["call"], c["connections"]) for c in doc["cells"]],
                         [("soapbench", "add", 1), ("soapbench", "add", 2)])
        for c in doc["cells"]:
            self.assertEqual(c["problems"], [])
            self.assertTrue(c["parser"])  # the adapter the server said it uses
            self.assertEqual(c["connections_served"], c["connections"])
            self.assertEqual(len(c["runs"]), 1)
            self.assertGreater(c["requests"], 0)
            self.assertGreater(c["runs"][0]["cpu_s"], 0)
            self.assertGreater(c["cpu_us_per_call"], 0)
            self.assertLessEqual(c["p50_us"], c["p99_us"])
        self.assertIn("soapbench", proc.stdout)

    @unittest.skipUnless(os.access(XMLRPC_C_SERVER, os.X_OK), "no xmlrpc-c peer in this build")
    def test_a_connection_left_unserved_is_flagged(self):
        proc, doc = self.run_tool("--servers", "xmlrpc-c", "--connections", "2",
                                  "--server-args", "xmlrpc-c=--max-conn 1")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        (cell,) = doc["cells"]
        (run,) = cell["runs"]
        self.assertIn("connections_served", run, cell)  # a run error instead says what it was
        # Both connections are accepted; one at most is served (none when Abyss happens to
        # serve neither: then no request completes either, and the cell says so).
        self.assertEqual(run["connections_open"], 2, cell)
        served = run["connections_served"]
        self.assertLess(served, 2, cell)
        if run["requests"] == 0:
            self.assertIn("no request completed", cell["problems"], cell)
        else:
            self.assertIn(f"served {served} of 2 connections", cell["problems"][0])
            self.assertIn(f"!! served {served} of 2", proc.stdout)

    @unittest.skipUnless(os.access(NGINX, os.X_OK), "nginx is not installed (tools/setup.sh)")
    def test_nginx_is_the_floor_of_every_cpu_per_call(self):
        tmpdir = os.path.join(self.tmp, "tmpdir")  # where nginx's directory goes, and must go
        os.makedirs(tmpdir)
        proc, doc = self.run_tool("--servers", "nginx,soapbench-default", "--calls", "getRate",
                                  "--connections", "1", "--nginx", NGINX, env={"TMPDIR": tmpdir})
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        cells = {c["server"]: c for c in doc["cells"]}
        self.assertEqual(sorted(cells), ["nginx", "soapbench"])
        nginx = cells["nginx"]
        self.assertEqual(nginx["problems"], [])  # its answer checked: the corpus response
        self.assertEqual((nginx["call"], nginx["connections_served"]), ("getRate", 1))
        self.assertGreater(nginx["requests"], 0)
        self.assertEqual(nginx["cpu_x_nginx"], 1.0)
        ours = cells["soapbench"]
        self.assertAlmostEqual(ours["cpu_x_nginx"],
                               ours["cpu_us_per_call"] / nginx["cpu_us_per_call"])
        self.assertIn("× nginx", proc.stdout)
        self.assertEqual(os.listdir(tmpdir), [])  # its config directory removed

    @unittest.skipUnless(os.access(NGINX, os.X_OK), "nginx is not installed (tools/setup.sh)")
    def test_nginx_takes_another_port_when_its_port_is_taken(self):
        from test_distributed_load import server_load  # tools/sbtools/load/server_load.py
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            ports = [taken.getsockname()[1], server_load.free_port()]
            real, server_load.free_port = server_load.free_port, lambda: ports.pop(0)
            try:
                nginx = server_load.servers(server_load.parse_args(["--nginx", NGINX]))["nginx"]
                running = server_load.RunningNginx(nginx, 0, [])
            finally:
                server_load.free_port = real
            try:
                self.assertEqual(ports, [])  # the taken port, then the next one
                self.assertNotEqual(running.port_, taken.getsockname()[1])
                self.assertGreater(running.cpu_seconds(), -1)
            finally:
                running.stop()
        self.assertIsNotNone(running.proc_.poll())  # stopped
        self.assertFalse(os.path.exists(running.tmp_))  # its directory removed

    def test_a_wrong_answer_is_an_error_not_a_number(self):
        # A server that refuses the call (--max-body 1: every body is too large, HTTP 413).
        proc, doc = self.run_tool("--servers", "soapbench-default", "--calls", "getRate",
                                  "--connections", "1", "--server-args",
                                  "soapbench-default=--max-body 1")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        (cell,) = doc["cells"]
        self.assertNotIn("rps", cell)
        self.assertEqual(cell["runs"], [])
        self.assertIn("HTTP 413", cell["problems"][0])


def cell(server, parser, call, conns, rps, cpu, served=None, problems=(), floor=None):
    out = {"server": server, "parser": parser, "call": call, "connections": conns,
           "family": "soap11-doc-literal" if call == "getRate" else "xmlrpc",
           "problems": list(problems), "runs": []}
    if floor is not None:
        out["cpu_x_nginx"] = cpu / floor
    if rps is not None:
        out.update({"rps": rps, "p50_us": 80, "p99_us": 200, "cpu_us_per_call": cpu,
                    "connections_served": conns if served is None else served,
                    "range": {"rps": [rps * 0.9, rps * 1.1], "cpu_us_per_call": [cpu, cpu],
                              "p50_us": [80, 80], "p99_us": [200, 200]}})
    return out


# A hand-made server_load.json: ours, gSOAP and nginx (CPU 10 and 6 µs per call) on getRate,
# ours and xmlrpc-c on add, one xmlrpc-c cell with unserved connections.
SAMPLE = {
    "tool": "tools/server_load", "machine_id": "m-load",
    "context": {"machine_id": "m-load", "wrk": "4.1.0", "duration_s": 3, "reps": 5,
                "server_cpu": 0, "load_cpu": 1, "command": "tools/server_load --reps 5"},
    "cells": [cell("soapbench", "rapidxml/dom-fastest", "getRate", 1, 20000, 20.0, floor=10.0),
              cell("soapbench", "rapidxml/dom-fastest", "getRate", 32, 30000, 15.0, floor=6.0),
              cell("soapbench", "pugixml/dom", "getRate", 1, 19000, 20.0, floor=10.0),
              cell("gsoap", "gSOAP's own", "getRate", 1, 15000, 50.0, floor=10.0),
              cell("gsoap", "gSOAP's own", "getRate", 32, 16000, 45.0, floor=6.0),
              cell("nginx", "none (fixed answer)", "getRate", 1, 40000, 10.0, floor=10.0),
              cell("nginx", "none (fixed answer)", "getRate", 32, 60000, 6.0, floor=6.0),
              cell("soapbench", "rapidxml/dom-fastest", "add", 1, 21000, 19.0, floor=10.0),
              cell("xmlrpc-c", "xmlrpc-c's own (Expat)", "add", 1, 5000, 60.0),
              cell("xmlrpc-c", "xmlrpc-c's own (Expat)", "add", 32, 5000, 70.0, served=15,
                   problems=["served 15 of 32 connections (32 open, up to 0 in the accept "
                             "queue)"])],
    "targets": [{"call": "getRate", "parser": "rapidxml/dom-fastest", "peer": "gsoap",
                 "connections": 1, "ratio": 0.4, "target": 0.5, "verdict": "PASS"},
                {"call": "add", "parser": "rapidxml/dom-fastest", "peer": "xmlrpc-c",
                 "connections": 1, "ratio": 19 / 60, "target": 0.33, "verdict": "PASS"}],
}


def sample_result(name):
    return os.path.join(REPO, "tests", "data", "results", name)


class ServerLoadReportTest(Tmp):
    def section(self, *results, sample=SAMPLE):
        """The report's "Servers under load" section from sample and these result files."""
        path = os.path.join(self.tmp, "server_load.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(sample, f)
        out = os.path.join(self.tmp, "report")
        proc = tool("report", *map(sample_result, results), "--no-charts", "--out-dir", out,
                    "--server-load", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("- [Servers under load](#servers-under-load)", text)
        return text.split("## Servers under load", 1)[1].split("\n## ", 1)[0]

    def test_section_from_a_server_load_file(self):
        section = self.section("parse_bench.run1.json")
        self.assertIn("| server | parser | 1 conn: req/s | p50 µs | p99 µs | CPU µs/call | "
                      "× nginx | 32 conn: req/s |", section)
        self.assertIn("| `soapbench` | `rapidxml/dom-fastest` | 20,000 (18,000–22,000) | 80 | "
                      "200 | 20.0 | 2.00× | 30,000 (27,000–33,000) | 80 | 200 | 15.0 | 2.50× | "
                      "1/1, 32/32 |", section)
        self.assertIn("| `nginx` | none (fixed answer) | 40,000 (36,000–44,000) | 80 | 200 | "
                      "10.0 | 1.00× |", section)
        self.assertIn("| `xmlrpc-c` | xmlrpc-c's own (Expat) | 5,000 (4,500–5,500) |", section)
        self.assertIn("1/1, 15/32 **!** |", section)
        self.assertIn("served 15 of 32 connections", section)
        self.assertIn("soapbench (`rapidxml/dom-fastest`) / gsoap CPU per call at 1 connection(s): "
                      "**0.400×** (target at most 0.5×): PASS", section)
        self.assertIn("**0.317×** (target at most 0.33×): PASS", section)
        # Without round-trip results the outside-decode/encode figure says what it lacks.
        self.assertIn("- `getRate`, soapbench (`pugixml/dom`), 1 connection(s): total 2.00× nginx; "
                      "outside decode and encode: no `roundtrip/keepalive/soap11-doc-literal/"
                      "pugixml-dom/getRate` in this report's round-trip results", section)

    def test_outside_decode_and_encode_against_nginx(self):
        # The sample's pugixml-dom getRate round trip: server decode 3,395.7 ns and encode
        # 782.5 ns (medians): (20.0 - 4.178) / 10.0 = 1.58x nginx, over the 1.5x target.
        section = self.section("parse_bench.run1.json", "roundtrip_bench.sample.json")
        self.assertIn("- `getRate`, soapbench (`pugixml/dom`), 1 connection(s): total 2.00× nginx; "
                      "outside decode and encode 20.0 − 4.2 µs = **1.58×** nginx's 10.0 µs "
                      "(target at most 1.5×): SHORT", section)
        # No round trip with the fastest-mode adapter in the sample: said so, no number.
        self.assertIn("- `getRate`, soapbench (`rapidxml/dom-fastest`), 32 connection(s): total "
                      "2.50× nginx; outside decode and encode: no `roundtrip/keepalive/"
                      "soap11-doc-literal/rapidxml-dom-fastest/getRate`", section)

    def test_no_nginx_column_without_the_floor(self):
        # A file from before issue 14 (no nginx cells): the old columns.
        old = dict(SAMPLE, cells=[{k: v for k, v in c.items() if k != "cpu_x_nginx"}
                                  for c in SAMPLE["cells"] if c["server"] != "nginx"])
        section = self.section("parse_bench.run1.json", sample=old)
        self.assertIn("| server | parser | 1 conn: req/s | p50 µs | p99 µs | CPU µs/call | "
                      "32 conn: req/s |", section)
        self.assertIn("| 200 | 20.0 | 30,000 (27,000–33,000) |", section)
        self.assertNotIn("nginx", section)

    def test_no_section_without_the_file(self):
        out = os.path.join(self.tmp, "report")
        proc = tool("report", os.path.join(REPO, "tests", "data", "results",
                                           "parse_bench.run1.json"),
                    "--no-charts", "--out-dir", out, "--server-load",
                    os.path.join(self.tmp, "none.json"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            self.assertNotIn("Servers under load", f.read())

    def test_results_save_keeps_it_in_the_machine_folder(self):
        src = os.path.join(self.tmp, "from")
        os.makedirs(src)
        with open(os.path.join(src, "server_load.json"), "w", encoding="utf-8") as f:
            json.dump(SAMPLE, f)
        store = os.path.join(self.tmp, "results")
        proc = tool("results", "--results-dir", store, "save", "--from", src)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        kept = os.listdir(os.path.join(store, "m-load"))  # per run: <date>_<sha>.server_load.json
        self.assertEqual(len(kept), 1, kept)
        self.assertRegex(kept[0], r"^\d{8}-\d{6}_unknown\.server_load\.json$")
        self.assertEqual(load(os.path.join(store, "m-load", kept[0])), SAMPLE)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:], verbosity=2)
