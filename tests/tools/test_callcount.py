#!/usr/bin/python3
"""Tests of tools/callcount (tools/sbtools/callcount.py, callcount_read.py, bench/callcount*) and
of the gate on its counts and on tools/icount's estimated cycles (label unit, release build only:
valgrind). SB_CALLCOUNT=path/to/callcount, SB_PARSE_BENCH=path/to/parse_bench.

- (the readers on hand-written callgrind dumps and strace logs: test_callcount_read.py);
- the collection: the expected rows, and every count the same on two runs;
- the gate (tools/track gate, a store of its own): a rerun passes; real planted changes
  (callcount --plant, tools/icount --plant-no-reuse) fail it in each metric: instructions of
  either side, system calls (by name and in all), bytes on the wire, allocations, voluntary
  context switches, mutex locks, estimated cycles.
"""
import os
import subprocess
import unittest

from tools_common import *  # noqa: F401,F403  (paths, tool(), load, dump, Tmp)
from sbtools.track import metrics

# Three rows: kept alive with the default adapter, a connection per call, another adapter.
ROWS = (r"^(keepalive/xmlrpc/pugixml-dom/getRate|newconn/jsonrpc/rapidjson-dom/getRate|"
        r"keepalive/jsonrpc/yajl-sax/getRate)$")
COUNTERS = ("instructions", "lock_calls", "syscalls", "allocs_per_call", "voluntary_switches")
PLANTS = "server-write,server-alloc,server-lock,server-sleep,server-spin,client-copy," \
         "client-space,client-spin"

class MetricsTest(unittest.TestCase):
    def test_whole_call_counts_count_every_change(self):
        for name in ("syscalls", "syscalls:sendmsg", "request_bytes", "allocs_per_call",
                     "voluntary_switches", "lock_calls"):
            band = metrics.band(name, 0.2)
            self.assertEqual(band, 0.0, name)
            self.assertTrue(metrics.counts(name, 1 / 328, band), name)  # one byte in 328
            self.assertFalse(metrics.counts(name, 0.0, band), name)
        self.assertEqual(metrics.band("instructions", 0.0), 0.005)

    def test_system_calls_and_bytes_regress_either_way(self):
        for name in ("syscalls:setsockopt", "syscalls", "response_bytes"):
            self.assertTrue(metrics.worse(name, -0.5), name)  # TCP_NODELAY no longer set, say
        self.assertFalse(metrics.worse("allocs_per_call", -0.1))

    def test_cycles_gated_on_the_64kb_rows_only(self):
        self.assertTrue(metrics.gated("estimated_cycles",
                                      "parse/pugixml-dom/xmlrpc/respond.64KB.response"))
        self.assertFalse(metrics.gated("estimated_cycles", "decode/pugixml-dom/xmlrpc/add.call"))
        self.assertTrue(metrics.gated("instructions", "decode/pugixml-dom/xmlrpc/add.call"))


def made_counts(tmp):
    """(callcount file, icount file) written by hand into tmp: one row (xmlrpc getRate kept
    alive, the client 20,000 and the server 30,000 instructions a call) and its parse row (the
    request's decode, 6,000: 20% of the server's)."""
    ctx = {"machine_id": "feedfacecafe", "git_sha": "0123456789ab", "compiler": "g++ 12.2.0",
           "build": "release", "date": "2026-12-05T10:00:00+00:00",
           "executable": "/x/build/bench/callcount", "default_adapter:xml": "pugixml/dom",
           "default_adapter:json": "rapidjson/dom"}
    row = "keepalive/xmlrpc/pugixml-dom/getRate"
    common = {"run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
              "iterations": 20, "real_time": 50000.0, "cpu_time": 20000.0, "time_unit": "ns",
              "lock_calls": 4.0, "voluntary_switches": 0.0}
    client = dict(common, name=f"callcount/client/{row}", run_name=f"callcount/client/{row}",
                  instructions=20000.0, syscalls=9.0, allocs_per_call=9.0, request_bytes=328.0,
                  response_bytes=218.0, **{"syscalls:sendmsg": 1.0})
    server = dict(common, name=f"callcount/server/{row}", run_name=f"callcount/server/{row}",
                  instructions=30000.0, syscalls=4.0, allocs_per_call=10.0,
                  **{"syscalls:sendmsg": 1.0})
    calls = dump({"context": ctx, "benchmarks": [client, server],
                  "callcount": {"calls": 20, "build_key": build_key(BUILD), "build": BUILD}},
                 os.path.join(tmp, "callcount.json"))
    icount = dump({"context": ctx, "instructions": {"decode/pugixml-dom/xmlrpc/getRate.call": 6000.0},
                   "icount": {"iterations": 10, "build_key": build_key(BUILD), "build": BUILD}},
                  os.path.join(tmp, "icount.json"))
    return calls, icount


class ShownTest(Tmp):
    """The report's section and the dashboard's table: the whole call beside its parse row."""

    def test_report_section(self):
        calls, icount = made_counts(self.tmp)
        tool("report", RUN1, "--icount", icount, "--callcount", calls, "--out-dir",
             self.path("report"), "--no-charts", check=0)
        with open(self.path("report", "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("## The whole call, counted exactly", text)
        self.assertIn("| xmlrpc | `getRate` | 20,000 / 30,000 | 6,000 (20% of the server) | "
                      "9 / 4 | 9 / 10 | 0 / 0 | 4 / 4 | 328 / 218 |", text)
        self.assertIn("(tools/callcount; exact for one binary)", text)

    def test_dashboard_table(self):
        calls, icount = made_counts(self.tmp)
        db = self.path("track.sqlite")
        for path in (calls, icount):
            tool("track", "--db", db, "record", "--no-probe", path, check=0)
        tool("track", "--db", db, "site", self.path("site"), "--jobs", "1", check=0)
        with open(self.path("site", "feedfacecafe.callcount.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("The whole call, newest run, beside its parse rows", page)
        self.assertIn("<td>keepalive/xmlrpc/pugixml-dom/getRate</td><td>20,000 / 30,000</td>"
                      "<td>6,000</td><td>20% of the server</td>", page)


class CollectionTest(Tmp):
    def setUp(self):
        super().setUp()
        self.bench = os.environ.get("SB_CALLCOUNT", "")
        self.assertTrue(self.bench and os.access(self.bench, os.X_OK),
                        "SB_CALLCOUNT must name the callcount binary")

    def track(self, *args, check):
        return tool("track", "--db", self.path("track.sqlite"), *args, check=check)

    def count(self, name, *more):
        out = self.path(name)
        tool("callcount", "--bench", self.bench, "--rows", ROWS, "--calls", "12", "--out", out,
             "--quiet", *more, check=0)
        return out, load(out)

    def test_rows_listed(self):
        ids = subprocess.run([self.bench, "--list"], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.split()
        self.assertIn("keepalive/soap12-doc-literal/pugixml-dom/respond.7500B", ids)
        self.assertIn("newconn/jsonrpc/rapidjson-dom/getRate", ids)
        self.assertIn("keepalive/soap11-rpc-encoded/libxml2-sax/getRate", ids)
        self.assertEqual(len([i for i in ids if i.startswith("keepalive/xmlrpc/")]), 4)
        self.assertEqual(len([i for i in ids if i.startswith("newconn/")]), 6)
        self.assertEqual(len(ids), len(set(ids)))

    def test_two_runs_count_the_same_and_a_rerun_passes_the_gate(self):
        path_a, a = self.count("a.json")
        path_b, b = self.count("b.json")
        names = [e["name"] for e in a["benchmarks"]]
        self.assertEqual(len(names), 6)
        self.assertIn("callcount/server/newconn/jsonrpc/rapidjson-dom/getRate", names)
        for e, f in zip(a["benchmarks"], b["benchmarks"]):
            same = {k: v for k, v in e.items() if k not in ("real_time", "cpu_time")}
            self.assertEqual(same, {k: f.get(k) for k in same}, e["name"])
            for k in COUNTERS:
                self.assertIn(k, e, e["name"])
            # A keep-alive call: the server wakes once, the client finds the answer there.
            if "/keepalive/" in e["name"]:
                side = e["name"].split("/")[1]
                self.assertEqual(e["voluntary_switches"], 1 if side == "server" else 0)
                self.assertGreater(e["instructions"], 5000)
            self.assertEqual(e["syscalls"], int(e["syscalls"]), e["name"])
        client = a["benchmarks"][0]
        self.assertGreater(client["request_bytes"], 200)
        self.assertEqual(a["callcount"]["build_key"], b["callcount"]["build_key"])
        # Against the store's run of the build (no committed baselines: --results-dir '').
        self.track("record", "--no-probe", path_a, check=0)
        proc = self.track("gate", "--no-probe", "--no-save", "--results-dir", "", path_b, check=0)
        self.assertIn("verdict: PASS", proc.stdout)

    def test_planted_changes_fail_the_gate_in_each_metric(self):
        # Against a committed baseline of the build, results/callcount/<build-key>/baseline.json
        # (here in a results folder of the test's own), with an empty store.
        base, doc = self.count("base.json")
        planted, _doc = self.count("planted.json", "--plant", PLANTS)
        results = self.path("results")
        folder = os.path.join(results, "callcount", doc["callcount"]["build_key"])
        os.makedirs(folder)
        dump(doc, os.path.join(folder, "baseline.json"))
        proc = self.track("gate", "--no-probe", "--no-save", "--results-dir", results, planted,
                          check=1)
        self.assertIn("compared with", proc.stdout)
        self.assertIn("baseline.json", proc.stdout)
        flagged = {(line.split()[1].split("/")[1], line.split()[2])
                   for line in proc.stdout.splitlines() if line.startswith("regression")}
        for side, metric in (("client", "instructions"), ("server", "instructions"),
                             ("server", "syscalls"), ("server", "syscalls:write"),
                             ("server", "syscalls:clock_nanosleep"), ("client", "request_bytes"),
                             ("client", "allocs_per_call"), ("server", "allocs_per_call"),
                             ("server", "voluntary_switches"), ("server", "lock_calls")):
            self.assertIn((side, metric), flagged, proc.stdout)
        self.assertIn("verdict: FAIL", proc.stdout)


class CacheCostTest(Tmp):
    # Two 64 KB rows (the cycles gate there) and a small one (information only).
    FILTER = (r"^((parse|decode)/libxml2-dom/xmlrpc/respond\.64KB\.response|"
              r"decode/libxml2-dom/xmlrpc/getRate\.call)(/iterations:[0-9]+)?$")

    def setUp(self):
        super().setUp()
        self.bench = os.environ.get("SB_PARSE_BENCH", "")
        self.assertTrue(self.bench and os.access(self.bench, os.X_OK),
                        "SB_PARSE_BENCH must name the parse_bench binary")

    def track(self, *args, check):
        return tool("track", "--db", self.path("track.sqlite"), *args, check=check)

    def icount(self, name, *more):
        out = self.path(name)
        tool("icount", "--bench", self.bench, "--filter", self.FILTER, "--iterations", "3",
             "--out", out, "--quiet", *more, check=0)
        return out, load(out)

    def test_more_misses_with_the_same_instructions_fail_on_cycles(self):
        base, a = self.icount("base.json")
        again, b = self.icount("again.json")
        planted, c = self.icount("planted.json", "--plant-no-reuse")
        self.assertEqual(a["estimated_cycles"], b["estimated_cycles"])
        self.assertEqual(len(a["estimated_cycles"]), 3)
        for name, cycles in a["estimated_cycles"].items():
            self.assertGreater(cycles, a["instructions"][name], name)
        self.track("record", "--no-probe", base, check=0)
        self.track("gate", "--no-probe", "--no-save", "--results-dir", "", again, check=0)
        proc = self.track("gate", "--no-probe", "--no-save", "--results-dir", "", planted, check=1)
        rows = [line.split() for line in proc.stdout.splitlines() if line.startswith("regression")]
        self.assertEqual({r[2] for r in rows}, {"estimated_cycles"}, proc.stdout)  # not instr.
        self.assertEqual({r[1].split(":", 1)[1] for r in rows},
                         {"parse/libxml2-dom/xmlrpc/respond.64KB.response",
                          "decode/libxml2-dom/xmlrpc/respond.64KB.response"})


if __name__ == "__main__":
    main()
