#!/usr/bin/python3
"""Tests of tools/report (tools/sbtools/report/): the report from the committed samples and
each section from fabricated result files (label unit)."""
import os
import re
import unittest

from tools_common import *  # noqa: E402,F401,F403  (paths, tool(), the samples, Tmp)
import xml.etree.ElementTree as ET  # noqa: E402
from sbtools import gbench  # noqa: E402

class ReportTest(Tmp):
    def run_report(self, *extra):
        results = self.path("results")
        mid = load(RUN1)["context"]["machine_id"]
        mdir = os.path.join(results, mid)
        os.makedirs(mdir, exist_ok=True)
        tool("results", "--results-dir", results, "save", RUN1, ROUNDTRIP, check=0)
        proc = tool("report", "--results-dir", results, "--machine", mid, "--summary", *extra,
                    check=0)
        return proc, mdir

    def check_charts(self, mdir, text, at_least=8):
        links = re.findall(r"\]\((charts/[^)]+)\)", text)
        self.assertGreaterEqual(len(links), at_least, links)
        for link in links:
            path = os.path.join(mdir, link)
            self.assertTrue(os.path.exists(path), link)
            root = ET.parse(path).getroot()
            self.assertEqual(root.tag.rsplit("}", 1)[-1], "svg", link)
        return links

    def test_report_from_the_committed_samples(self):
        proc, mdir = self.run_report()
        with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
            text = f.read()
        links = self.check_charts(mdir, text)
        # Every chart in the folder is linked (no stale ones).
        self.assertEqual(sorted(os.listdir(os.path.join(mdir, "charts"))),
                         sorted(os.path.basename(l) for l in links))
        for heading in ("Decode throughput per adapter and family", "Parse vs walk vs decode",
                        "Throughput against message size", "Allocations and peak memory",
                        "Round trip: where the time goes", "Wire bytes per family",
                        "Parser share of a call per link model", "Adapter flags",
                        "2001 DOM vs pull, now", "Adapter overhead vs direct calls",
                        "Run and reproduction"):
            self.assertIn(f"## {heading}", text)
        self.assertNotIn("## Conformance", text)   # no conformance.json: skipped silently
        # The link model comes from the roundtrip file's context (the sample carries it).
        self.assertIn("projected call time = client_encode_ns + server_decode_ns", text)
        self.assertIn("LAN 1 Gbit/s, 0.5 ms RTT", text)
        self.assertIn("Decode per protocol family on its headline message", text.split("##")[0])
        self.assertIn("on loopback", text.split("##")[0])
        self.assertIn("`rapidxml/dom-fastest`", text)   # flags of every adapter in the context
        self.assertIn("decode per family on its headline message", proc.stdout)  # --summary
        self.assertIn("## Statistics", text)

    def stacks_report(self, benchmarks):
        """report.md from RUN1 and a stacks_bench file holding `benchmarks`."""
        ctx = dict(load(RUN1)["context"], executable="build/peers/stacks_bench")
        ctx["default_adapter:xml"] = "pugixml/dom"  # RUN1 predates the key
        stacks = self.path("stacks_bench.json")
        dump({"context": ctx, "benchmarks": benchmarks}, stacks)
        out = self.path("out")
        tool("report", RUN1, stacks, "--out-dir", out, "--no-charts", check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            return f.read()

    def test_real_stacks_section(self):
        # A small stacks_bench file: round trips of every pair on one call (the xmlrpc-c client
        # counts no bytes) and one stack deserializer row on a message parse_bench ran.
        def row(name, us, **counters):
            return dict({"name": name, "run_name": name, "run_type": "iteration", "iterations": 100,
                         "real_time": us, "cpu_time": us, "time_unit": "us"}, **counters)
        rt = "roundtrip/keepalive/xmlrpc/{}/getRate"
        text = self.stacks_report([
            row(rt.format("soapbench~soapbench"), 100, total_ns=100e3, bytes_sent=328,
                bytes_received=218),
            row(rt.format("xmlrpc-c"), 250, total_ns=250e3),
            row(rt.format("xmlrpc-c~soapbench"), 150, total_ns=150e3),
            row(rt.format("soapbench~xmlrpc-c"), 200, total_ns=200e3, bytes_sent=328,
                bytes_received=360),
            row("decode/gsoap/soap11-rpc-encoded/getRate.call", 30)])
        section = text.split("## Real stacks", 1)[1].split("\n## ", 1)[0]
        self.assertIn("| call | `soapbench~soapbench` µs | bytes | `xmlrpc-c` µs | bytes | "
                      "`xmlrpc-c~soapbench` µs | bytes | `soapbench~xmlrpc-c` µs | bytes |", section)
        self.assertIn("| `getRate` | 100 | 328 / 218 | 250 (2.5×) | – | 150 (1.5×) | – | "
                      "200 (2×) | 328 / 360 |", section)
        self.assertIn("No byte counts for `xmlrpc-c`, `xmlrpc-c~soapbench`", section)
        self.assertIn("no phase split", section)
        # The deserializer beside our fastest and our default adapter on the same file.
        ours = load(RUN1)
        default = "pugixml-dom"
        times = {b["run_name"].split("/")[1]: b["real_time"] for b in ours["benchmarks"]
                 if b["run_name"].endswith("/soap11-rpc-encoded/getRate.call")
                 and b.get("run_type") == "iteration" and b["run_name"].startswith("decode/")}
        self.assertIn(default, times)
        decode_row = next(l for l in section.splitlines() if l.startswith("| `gsoap` |"))
        self.assertIn(f"`{min(times, key=times.get)}`", decode_row)
        self.assertIn("| s11-enc | `getRate.call` | 30 |", decode_row)
        # Stack rows stay out of the adapters' sections.
        self.assertNotIn("gsoap", text.split("## Real stacks", 1)[0].split("## Contents", 1)[1]
                         .split("## ", 1)[1])

    def test_load_section(self):
        # tools/load_bench's file: TPS per connection count per family and server, the open-loop
        # latency table, the charts; a point with errors shows its count.
        def point(mode, conns, tps, errors=0, rate=None):
            return {"mode": mode, "connections": conns, "rate": rate, "tps": tps,
                    "p50_us": 100.0, "p90_us": 150.0, "p99_us": 900.0, "p999_us": 4000.0,
                    "errors_total": errors, "unsent": 0, "server_cpu_us_per_call": 42.0}
        runs = [
            {"server": "soapbench", "server_id": "soapbench-default", "parser": "pugixml/dom",
             "family": "soap11-rpc-encoded", "call": "respond.2500B", "mode": "closed",
             "points": [point("closed", 1, 3790), point("closed", 16, 8738)]},
            {"server": "gsoap", "server_id": "gsoap", "parser": "gSOAP's own",
             "family": "soap11-rpc-encoded", "call": "respond.2500B", "mode": "closed",
             "points": [point("closed", 1, 3469),
                        dict(point("closed", 16, 5336, errors=3), generator_cpu_share=0.97)]},
            {"server": "soapbench", "server_id": "soapbench-default", "parser": "pugixml/dom",
             "family": "soap11-doc-literal", "call": "respond.2500B", "mode": "open",
             "points": [point("open", 64, 2000, rate=2000.0), point("open", 64, 7595, rate=8000.0)]},
        ]
        # The capacity step: 36,000 TPS against nginx with the generator 45% busy: 80,000 calls
        # per CPU-second, against our peak 8,738: 9.16x, a PASS.
        nginx = dict(point("closed", 64, 36000), calls=36000, elapsed_s=1.0,
                     generator_cpu_share=0.45, generator_threads=1)
        capacity = {"server": "nginx", "parser": "none (fixed answer)",
                    "family": "soap11-doc-literal", "call": "getRate", "connections": 64,
                    "generator_cpus": 1, "points": [nginx], "calls_per_cpu_s": 80000.0,
                    "ceiling_tps": 80000.0}
        path = self.path("load_bench.json")

        def render():
            """The report of runs and capacity (and its folder)."""
            dump({"tool": "tools/load_bench", "machine_id": "x", "context": {"command": "lb"},
                  "runs": runs, "capacity": capacity}, path)
            proc, mdir = self.run_report("--load", path)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
                return f.read(), mdir

        text, mdir = render()
        section = text.split("## Load: transactions per second against concurrency", 1)[1]
        self.assertIn("| family | server | TPS c=1 | TPS c=16 | errors | CPU µs/call |", section)
        self.assertIn("| `soap11-rpc-encoded` | soapbench (pugixml/dom) | 3,790 | 8,738 | 0 | 42 |",
                      section)
        self.assertIn("| `soap11-rpc-encoded` | gsoap | 3,469 | 5,336 | 3 | 42 |", section)
        self.assertIn("| `soap11-doc-literal` | soapbench (pugixml/dom) | respond.2500B | 8,000 | "
                      "7,595 | 100 | 900 | 4,000 | 0 | 0 |", section)
        self.assertIn("Generator-bound points (1;", section)
        self.assertIn("`gsoap` soap11-rpc-encoded respond.2500B c=16.", section)
        self.assertIn("its ceiling is **80,000 calls/s** against the fixed answer", section)
        self.assertIn("Our server's peak in the same run: 8,738 TPS (`soap11-rpc-encoded` "
                      "respond.2500B, soapbench (pugixml/dom), c=16); ceiling / peak = 9.16× "
                      "(target 3×): **PASS**.", section)
        # A ceiling under 3x the peak: the figures above a third of it are flagged.
        self.assertIn("where nginx on its one CPU was the limit.)", section)
        capacity["ceiling_tps"] = 20000.0
        nginx["generator_cpu_share"] = 1.0  # the generator, not nginx, limited what was driven
        text, mdir = render()
        self.assertIn("ceiling / peak = 2.29× (target 3×): **generator-bound: figures above "
                      "6,667 TPS may be limited by the generator**.", text)
        self.assertIn("where the generator's threads, busy all the time, were the limit.)", text)
        for chart in ("load_tps_respond.2500B.svg", "load_latency_rate.svg"):
            self.assertTrue(os.path.exists(os.path.join(mdir, "charts", chart)), chart)

    def test_scripting_section(self):
        # stacks_bench --set=scripting rows: per server and query, µs per call and the server's
        # split; the ratio of server times between the servers per query.
        def row(name, us, handling, send):
            return {"name": name, "run_name": name, "run_type": "iteration", "iterations": 50,
                    "real_time": us, "cpu_time": us, "time_unit": "us", "total_ns": us * 1e3,
                    "server_handling_ns": handling * 1e3, "server_send_ns": send * 1e3,
                    "bytes_sent": 300, "bytes_received": 400}
        text = self.stacks_report([
            row("roundtrip/keepalive/soap11-rpc-encoded/soapbench~soaplite/add", 2000, 1500, 100),
            row("roundtrip/newconn/xmlrpc/soapbench~frontier/add", 600, 300, 100),
            row("roundtrip/newconn/xmlrpc/soapbench~python-xmlrpc/add", 300, 120, 40),
            row("roundtrip/newconn/xmlrpc/soapbench~python-xmlrpc/getChain", 5000, 200, 4000),
            row("roundtrip/keepalive/xmlrpc/soapbench~soapbench/add", 50, 0, 0)])
        section = text.split("## Scripting stacks", 1)[1].split("\n## ", 1)[0]
        self.assertIn("| server | family | connection | call | µs per call | handling µs | "
                      "sending µs | rest µs | server share |", section)
        self.assertIn("| `soaplite` | s11-enc | keepalive | `add` | 2,000 | 1,500 | 100 | 400 | "
                      "80% |", section)
        self.assertIn("| `python-xmlrpc` | xmlrpc | newconn | `getChain` | 5,000 | 200 | 4,000 | "
                      "800 | 84% |", section)
        # soaplite 1600 µs against python-xmlrpc 160 µs on add: ten times.
        self.assertIn("- `add`: `python-xmlrpc` 160 µs, `frontier` 400 µs (2.5×), `soaplite` "
                      "1,600 µs (10.0×)\n", section)
        self.assertNotIn("- `getChain`", section)  # one server only: no ratio
        self.assertNotIn("soapbench~soapbench", section)
        self.assertIn("[Scripting stacks](#scripting-stacks)", text)

    def test_floor_and_classic_messaging_sections(self):
        # The roundtrip sample plus floor rows and binary-newconn messaging rows, and a synthetic
        # stacks_bench file with the CORBA and gRPC messaging rows other stacks write.
        doc = load(ROUNDTRIP)
        def row(name, ns, **counters):
            return dict({"name": name, "run_name": name, "run_type": "iteration",
                         "iterations": 100, "real_time": ns, "cpu_time": ns, "time_unit": "ns",
                         "total_ns": ns}, **counters)
        doc["benchmarks"] += [
            row("roundtrip/floor/blocking/300", 20000, bytes_sent=304, bytes_received=304),
            row("roundtrip/floor/blocking/2500", 26000, bytes_sent=2504, bytes_received=2504),
            row("roundtrip/floor/same-cpu/300", 9000, bytes_sent=304, bytes_received=304),
            row("roundtrip/floor/busy-poll/300", 7000, bytes_sent=304, bytes_received=304)]
        doc["benchmarks"] += [row(f"messaging/binary-newconn/{c}/iterations:5000", 90000,
                                  bytes_sent=46, bytes_received=30)
                              for c in ("sendString", "receiveString", "sendInt")]
        rt_path = self.path("roundtrip_bench.json")
        dump(doc, rt_path)
        ctx = dict(load(RUN1)["context"], executable="build/peers/stacks_bench")
        stacks = self.path("stacks_bench.json")
        dump({"context": ctx, "benchmarks": [
            row("messaging/corba/sendInt/iterations:5000", 10000, bytes_sent=60, bytes_received=24),
            row("messaging/grpc/sendInt/iterations:5000", 40000, bytes_sent=120,
                bytes_received=80)]}, stacks)
        res = gbench.results_of(doc)
        def total(name):
            return res[name].counter("total_ns")
        def wire(name):
            return res[name].counter("bytes_sent") + res[name].counter("bytes_received")
        def report(*files):
            out = self.path("out")
            tool("report", RUN1, *files, "--out-dir", out, "--no-charts", check=0)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
                return f.read()
        def section(text, title):
            return text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]

        text = report(rt_path, stacks)
        floor = section(text, "Raw loopback floor")
        self.assertIn("| mode | 300 B | 2,500 B |", floor)
        self.assertIn("| `blocking` | 20 | 26 |", floor)
        self.assertIn("| `same-cpu` | 9 | – |", floor)
        # The binary control against the floor nearest its bytes, PASS/SHORT at 1.3×.
        bin_rate = "roundtrip/keepalive/binary/none/getRate"
        ratio = total(bin_rate) / 20000
        self.assertLess(ratio, 1.3)
        self.assertRegex(floor, r"\| `getRate` \| [0-9.]+ \| 76 \| 300 B \| 20 \| "
                         + re.escape(f"{ratio:.2f}×") + r" \| PASS \|")
        self.assertRegex(floor, r"\| `respond\.7500B` \|.*\| SHORT \|")
        # Every keep-alive round trip as a multiple of the blocking floor nearest its bytes.
        rtsec = section(text, "Round trip: where the time goes")
        self.assertIn("| total | × floor | bytes sent |", rtsec)
        xml = "roundtrip/keepalive/xmlrpc/pugixml-dom/getRate"
        self.assertIn(f"| {total(xml) / 20000:.1f}× | {res[xml].counter('bytes_sent'):.0f} |",
                      rtsec)
        # The classic table: every stack's µs and bytes, CORBA and gRPC from stacks_bench.
        msg = section(text, "Messaging (the classic table)")
        self.assertIn("| raw socket, new connection per call | 90 | 76 |", msg)
        self.assertRegex(msg, r"\| CORBA \(omniORB, stacks_bench\) \| – \| – \| 10 \| 84 \|")
        self.assertIn("| gRPC (stacks_bench) |", msg)
        soap = "messaging/soap11-rpc-encoded/sendInt/iterations:5000"
        xr = "messaging/xmlrpc/sendInt/iterations:5000"
        binary = "messaging/binary/sendInt/iterations:5000"
        self.assertIn(f"| SOAP ÷ CORBA, bytes per call | 14× | {wire(soap) / 84:.1f}× | "
                      f"{wire(soap) / wire(binary):.1f}× |", msg)
        self.assertIn(f"| SOAP ÷ CORBA, time for 5,000 integers | 882× | {total(soap) / 1e4:.1f}× |",
                      msg)
        self.assertIn(f"| XML-RPC ÷ CORBA, time for 5,000 integers | 66× | {total(xr) / 1e4:.1f}× |",
                      msg)
        # Per call: the binary control against omniORB, gRPC and the floor.
        b = total(binary)
        self.assertIn(f"| `sendInt` | {b / 1e3:.3g} | 10 ({b / 1e4:.2f}×) | 40 ({b / 4e4:.2f}×) | "
                      f"20 ({b / 2e4:.2f}×, 300 B) |", msg)
        # Without stacks_bench and floor rows: the CORBA column is empty and says why.
        text = report(ROUNDTRIP)
        self.assertNotIn("## Raw loopback floor", text)
        self.assertIn("No `messaging/corba/...` rows were loaded", text)
        self.assertIn("| SOAP ÷ CORBA, time for 5,000 integers | 882× | – |", text)
        self.assertIn("No floor rows in these results", text)

    def test_conformance_section(self):
        results = self.path("results")
        mid = load(RUN1)["context"]["machine_id"]
        os.makedirs(os.path.join(results, mid))
        # The shape `soapbench conformance --json` writes (tests/cli_test.cpp checks the writer).
        def record(adapter, name, error_class, mode, error=None, time_ns=1000, peak=4096):
            return {"adapter": adapter, "file": f"hostile/xml/{name}", "error_class": error_class,
                    "mode": mode, "result": "accepted" if error is None else "rejected",
                    "accepted": error is None, "error": error or "", "time_ns": time_ns,
                    "peak_bytes": peak}
        dump({"tool": "soapbench conformance", "machine_id": mid, "git_sha": "abc", "level": "walk",
              "records": [
                  record("pugixml/dom", "billion-laughs.xml", "entity-expansion", "policy",
                         "DTD not allowed", 1200),
                  record("libxml2/sax", "billion-laughs.xml", "entity-expansion", "policy",
                         "line 2: DOCTYPE", 4000),
                  record("pugixml/dom", "deep.xml", "deep-nesting", "policy", None, 3500),
                  record("libxml2/sax", "deep.xml", "deep-nesting", "policy",
                         "nesting deeper than 256", 2000, 48 << 20),
                  record("pugixml/dom", "billion-laughs.xml", "entity-expansion", "library",
                         None, 9000)]}, os.path.join(results, mid, "conformance.json"))
        _proc, mdir = self.run_report()
        with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("## Conformance: hostile inputs", text)
        self.assertIn("DTD not allowed", text)
        section = text.split("## Conformance: hostile inputs", 1)[1].split("\n## ", 1)[0]
        self.assertIn("**policy**", section)
        self.assertIn("**library**", section)
        # pugixml accepted the deep file (a bold cell: a library fact), libxml2 rejected it.
        self.assertRegex(section, r"\| `deep-nesting` \| \*\*0/1\*\* \| 1/1 \|")
        self.assertIn("| policy | `pugixml-dom` | `deep.xml` | `deep-nesting` |", section)
        self.assertIn("48.0", section)   # the largest peak heap, MiB

    def test_interop_section(self):
        results = self.path("results")
        mid = load(RUN1)["context"]["machine_id"]
        os.makedirs(os.path.join(results, mid))
        # The shape `soapbench interop --json` writes (tests/interop/test_interop_command.py).
        def cell(client, server, family, op, status="ok", detail=""):
            return {"client": client, "server": server, "family": family, "operation": op,
                    "status": status, "detail": detail}
        dump({"tool": "soapbench interop",
              "context": {"machine_id": mid, "git_sha": "abc", "only": "all"},
              "cells": [cell("soapbench", "gsoap", "soap11-doc-literal", "add"),
                        cell("soapbench", "gsoap", "soap11-doc-literal", "complex", "fail",
                             "canonical JSON differs at 3: got 0 expected 5"),
                        cell("gsoap", "gsoap", "soap11-doc-literal", "add"),
                        cell("xmlrpc-c", "gsoap", "soap11-doc-literal", "*", "off",
                             "no common protocol"),
                        cell("malformed", "gsoap", "soap11-doc-literal", "add", "fault-ok",
                             "HTTP 500 fault"),
                        cell("soapbench", "xmlrpc-c", "xmlrpc", "*", "off", "xmlrpc-c not built"),
                        # A scripting server leaves operations out: not counted in its cell.
                        cell("soapbench", "soaplite", "soap11-rpc-encoded", "add"),
                        cell("soapbench", "soaplite", "soap11-rpc-encoded", "complex", "off",
                             "not expressible (not implemented by that server)")]},
             os.path.join(results, mid, "interop.json"))
        _proc, mdir = self.run_report()
        with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
            text = f.read()
        section = text.split("## Interop", 1)[1].split("\n## ", 1)[0]
        self.assertIn("**soap11-doc-literal**", section)
        self.assertIn("| client \\ server | gsoap |", section)
        self.assertIn("| soapbench | **1/2** |", section)
        self.assertIn("| gsoap | 1/1 |", section)
        self.assertIn("| xmlrpc-c | no common protocol |", section)
        self.assertIn("| malformed request | fault |", section)
        self.assertIn("| soapbench | off (not built) |", section)
        self.assertIn("| client \\ server | soaplite |\n|---|---|\n| soapbench | 1/1 |", section)
        self.assertIn("| soapbench | gsoap | soap11-doc-literal | `complex` | canonical JSON differs",
                      section)

    def test_parse_results_only(self):
        out = self.path("out")
        tool("report", RERUN_A, "--out-dir", out, check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertNotIn("## Round trip", text)
        self.check_charts(out, text, at_least=1)

    def test_status_line_comes_first(self):
        # tools/run_bench.sh writes the page after bench.parse with the other sets still running,
        # and after a Ctrl-C with what was measured: the line says which, before the answer.
        out = self.path("status")
        status = "Still running: the other benchmark sets <ctest -L bench -E bench.parse>"
        tool("report", RERUN_A, "--out-dir", out, "--no-charts", "--html", "--status", status,
             check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertLess(text.index(f"> **{status}**"), text.index("## Contents"))
        self.assertIn(f"--status '{status}'", text)  # the command as it can be run again
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = f.read()
        line = ('<p class="note run-status" role="status"><b>Still running: the other benchmark '
                "sets &lt;ctest -L bench -E bench.parse&gt;</b></p>")
        self.assertIn(line, page)
        self.assertLess(page.index(line), page.index('<section id="summary"'))
        tool("report", RERUN_A, "--out-dir", out, "--no-charts", "--html", check=0)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            self.assertNotIn("run-status", f.read())  # written again without it: gone

    def test_help(self):
        proc = tool("report", "--help", check=0)
        self.assertIn("report.md", proc.stdout)
        self.assertIn("--icount", proc.stdout)


if __name__ == "__main__":
    main()
