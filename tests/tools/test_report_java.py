#!/usr/bin/python3
"""The JVM stacks' rows in tools/report (label unit), a test class per report module: Real stacks
(stacks.py: stacks_bench's newconn rows of the Java set, any JVM pair labelled as timed after
warm-up, JAX-WS as well as Axis), the 2001 table's Java rows (classic.py: jvm_decode_bench's
XPP3 vs Xerces-J DOM), Load (load.py: Axis beside gSOAP and ours, its open loop) and Interop
(interop.py: Axis as client and server in both rpc families). Each fails if those rows vanish
or lose their JVM label; peers.is_jvm_stack (the peers' JVM declarations) is the one rule they
share."""
import os
import unittest

from tools_common import RUN1, Tmp, dump, load, main, tool  # noqa: E402
from sbtools import names, peers  # noqa: E402

JVM = "JVM, after warm-up"


def row(name, us, **counters):
    """One Google Benchmark iteration row, µs."""
    return dict({"name": name, "run_name": name, "run_type": "iteration", "iterations": 100,
                 "real_time": us, "cpu_time": us, "time_unit": "us"}, **counters)


def section(text, title):
    return text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


class Report(Tmp):
    def report(self, *files, extra=()):
        """report.md of RUN1 and `files` (no charts)."""
        out = self.path("out")
        tool("report", RUN1, *files, *extra, "--out-dir", out, "--no-charts", check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            return f.read()

    def stacks_file(self, name, benchmarks, bench_set):
        ctx = dict(load(RUN1)["context"], executable="build/peers/stacks_bench",
                   bench_set=bench_set)
        return dump({"context": ctx, "benchmarks": benchmarks}, self.path(name))


class NamesTest(unittest.TestCase):
    def test_jvm_stacks(self):
        for stack in ("axis", "jaxws", "soapbench~axis", "jaxws~soapbench"):
            self.assertTrue(peers.is_jvm_stack(stack), stack)
        for stack in ("gsoap", "soapbench~gsoap", "soaplite", "xmlrpc-c~soapbench"):
            self.assertFalse(peers.is_jvm_stack(stack), stack)
        self.assertEqual(names.parse("jvm/xpp3-pull/soap11-rpc-encoded/getRate.call"),
                         ("jvm", {"decoder": "xpp3-pull", "family": "soap11-rpc-encoded",
                                  "file": "getRate.call"}))


class StacksTest(Report):
    def test_java_set_newconn_table_labelled_jvm(self):
        nc = "roundtrip/newconn/soap11-rpc-encoded/{}/add"
        java = self.stacks_file("stacks_bench_java.json", [
            row(nc.format("soapbench~soapbench"), 150, total_ns=150e3, bytes_sent=400,
                bytes_received=300),
            row(nc.format("soapbench~gsoap"), 650, total_ns=650e3, bytes_sent=400,
                bytes_received=500),
            row(nc.format("soapbench~axis"), 1300, total_ns=1300e3, bytes_sent=400,
                bytes_received=700),
            # JAX-WS keeps its connections: a keep-alive row, labelled too.
            row("roundtrip/keepalive/soap11-doc-literal/soapbench~jaxws/add", 900, total_ns=900e3),
            row("roundtrip/keepalive/soap11-doc-literal/soapbench~soapbench/add", 100,
                total_ns=100e3)], "java")
        scripting = self.stacks_file("stacks_bench_scripting.json", [
            row("roundtrip/newconn/xmlrpc/soapbench~frontier/add", 2000, total_ns=2000e3)],
            "scripting")
        text = section(self.report(java, scripting), "Real stacks")
        self.assertIn("A new connection per call", text)
        self.assertIn("| call | `soapbench~soapbench` µs | bytes | `soapbench~axis` µs (" + JVM +
                      ") | bytes | `soapbench~gsoap` µs | bytes |", text)
        self.assertIn("| `add` | 150 | 400 / 300 | 1,300 (8.7×) | 400 / 700 | 650 (4.3×) | "
                      "400 / 500 |", text)
        self.assertIn("`soapbench~jaxws` µs (" + JVM + ")", text)
        self.assertIn("Columns marked *" + JVM + "* have a JVM stack at one end (`soapbench~axis`)",
                      text)
        self.assertNotIn("frontier", text)  # the scripting stacks' newconn rows: not here


class ClassicTest(Report):
    def test_java_row_beside_the_cpp_adapters(self):
        ctx = {"executable": "jvm_decode_bench", "date": load(RUN1)["context"]["date"],
               "machine_id": load(RUN1)["context"].get("machine_id")}
        f = "jvm/{}/soap11-rpc-encoded/getRate.call"
        jvm = dump({"context": ctx, "benchmarks": [
            dict(row(f.format(d), us, warmup_ns_per_message=w, first_message_ns=1e6),
                 iterations=100000)
            for d, us, w in (("xpp3-pull", 5.71, 34400), ("xerces-dom", 18.39, 59200),
                             ("woodstox-stax", 4.64, 16500))]},
            self.path("jvm_decode_bench.json"))
        text = section(self.report(jvm), "2001 DOM vs pull, now")
        cpp, java = text.split("**Java (" + JVM + ")**", 1)
        self.assertIn("`pugixml-dom`", cpp)     # the C++ rows, as before, in their own table
        self.assertNotIn("xpp3", cpp)
        self.assertIn("XPP3 vs Xerces-J DOM, `getRate` × 100,000, µs per message", java)
        self.assertIn("| JVM decoder | µs per message | × Xerces-J DOM |", java)
        self.assertIn("| `xpp3-pull` | 5.71 | 3.2× |", java)
        self.assertIn("| `xerces-dom` | 18.4 | 1× |", java)
        self.assertIn("JVM now: XPP3 3.2× faster than Xerces-J DOM", java)
        self.assertIn("2001: 4.9×", java)
        self.assertNotIn("pugixml", java)
        # The C++ pull/DOM ratio reads the right way round whichever model is the faster.
        from sbtools.report import classic
        self.assertEqual(classic.faster("`p` (pull)", "`d` (DOM)", 6.7 ** -1),
                         "`d` (DOM) 6.7× faster than `p` (pull)")
        self.assertEqual(classic.faster("XPP3", "Xerces-J DOM", 3.2),
                         "XPP3 3.2× faster than Xerces-J DOM")


class LoadTest(Report):
    def test_axis_and_jaxws_rows_labelled_beside_gsoap(self):
        def point(mode, conns, tps, rate=None):
            return {"mode": mode, "connections": conns, "rate": rate, "tps": tps,
                    "p50_us": 1000.0, "p90_us": 1500.0, "p99_us": 9000.0, "p999_us": 20000.0,
                    "errors_total": 0, "unsent": 0, "server_cpu_us_per_call": 420.0}
        runs = [{"server": s, "server_id": s, "parser": None, "family": "soap11-rpc-encoded",
                 "call": "respond.7500B", "mode": "closed",
                 "points": [point("closed", 1, t), point("closed", 64, 2 * t)]}
                for s, t in (("gsoap", 3000), ("axis", 700))]
        runs.append({"server": "axis", "server_id": "axis", "parser": None,
                     "family": "soap11-rpc-encoded", "call": "respond.7500B", "mode": "open",
                     "points": [point("open", 64, 350, rate=350.0)]})
        runs.append({"server": "jaxws", "server_id": "jaxws", "parser": None,
                     "family": "soap11-doc-literal", "call": "respond.7500B", "mode": "closed",
                     "points": [point("closed", 1, 650), point("closed", 64, 2400)]})
        path = dump({"tool": "tools/load_bench", "machine_id": "x", "context": {"command": "lb"},
                     "runs": runs, "capacity": None}, self.path("load_bench.json"))
        text = section(self.report(extra=("--load", path)),
                       "Load: transactions per second against concurrency")
        self.assertIn("| `soap11-rpc-encoded` | gsoap | 3,000 | 6,000 | 0 | 420 |", text)
        self.assertIn("| `soap11-rpc-encoded` | axis (" + JVM + ") | 700 | 1,400 | 0 | 420 |", text)
        self.assertIn("| `soap11-rpc-encoded` | axis (" + JVM + ") | respond.7500B | 350 | 350 |",
                      text)
        self.assertIn("| `soap11-doc-literal` | jaxws (" + JVM + ") | 650 | 2,400 | 0 | 420 |",
                      text)
        self.assertIn("servers on the JVM (axis, jaxws)", text)
        self.assertIn("closes every connection", text)


class InteropTest(Report):
    def test_axis_client_and_server_in_both_rpc_families(self):
        def cell(client, server, family, op="add", status="ok"):
            return {"client": client, "server": server, "family": family, "operation": op,
                    "status": status, "detail": ""}
        cells = []
        for fam in ("soap11-rpc-encoded", "soap11-rpc-literal"):
            for client in ("soapbench", "gsoap", "axis"):
                cells += [cell(client, server, fam) for server in ("soapbench", "gsoap", "axis")]
            cells.append(cell("malformed", "axis", fam, status="fault-ok"))
        path = dump({"tool": "soapbench interop", "context": {"git_sha": "abc", "only": "all"},
                     "cells": cells}, self.path("interop.json"))
        text = section(self.report(extra=("--interop", path)), "Interop")
        for fam in ("soap11-rpc-encoded", "soap11-rpc-literal"):
            block = text.split(f"**{fam}**", 1)[1].split("**", 1)[0]
            self.assertIn("| client \\ server | soapbench | gsoap | axis |", block)
            self.assertIn("| axis | 1/1 | 1/1 | 1/1 |", block)
            self.assertIn("| malformed request |  |  | fault |", block)


if __name__ == "__main__":
    main()
