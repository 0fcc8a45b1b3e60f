#!/usr/bin/python3
"""tools/load_bench against Apache Axis (peers/java/axis_server): the load sweep's Axis rows run
and yield numbers with no error (the full sweep is bench.load, label `load`).

Usage: /usr/bin/python3 tests/load/test_load_axis.py BUILD_DIR [unittest args]

A slice: axis_server per rpc family (after a short JIT warm-up, logged to <json>.axis.log), a
closed loop of 1 and 4 connections on respond.2500B, then the open loop on Axis at fractions of
the closed-loop peak it reached; every point answered right (each answer checked by
`soapbench load`), with TPS, latencies and the server's CPU per call.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = None  # the build tree, from the command line


class AxisLoadSliceTest(unittest.TestCase):
    def test_slice_runs_with_numbers_and_no_error(self):
        with tempfile.TemporaryDirectory(prefix="sb-load-axis-") as tmp:
            out = os.path.join(tmp, "load_bench.json")
            proc = subprocess.run(
                ["/usr/bin/python3", os.path.join(REPO, "tools", "load_bench"), "--build-dir",
                 BUILD, "--servers", "axis", "--families",
                 "soap11-rpc-encoded,soap11-rpc-literal", "--calls", "respond.2500B",
                 "--connections", "1,4", "--duration", "0.5", "--warmup", "0.2",
                 "--axis-warmup", "200", "--open-servers", "axis", "--open-connections", "8",
                 "--capacity-connections", "0", "--machine", "unit-test", "--json", out],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=400)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
            with open(out + ".axis.log", encoding="utf-8") as f:
                log = f.read()
        runs = [(r["mode"], r["family"], r["server"]) for r in doc["runs"]]
        self.assertEqual(runs, [("closed", "soap11-rpc-encoded", "axis"),
                                ("closed", "soap11-rpc-literal", "axis"),
                                ("open", "soap11-rpc-encoded", "axis")])
        closed = doc["runs"][0]
        self.assertEqual([p["connections"] for p in closed["points"]], [1, 4])
        peak = max(p["tps"] for p in closed["points"])
        self.assertAlmostEqual(doc["runs"][2]["points"][-1]["rate"], 1.2 * peak, delta=1)
        for r in doc["runs"]:
            self.assertNotIn("error", r)
            for p in r["points"]:
                self.assertEqual(p["errors_total"], 0, p)
                if r["mode"] == "open" and p["rate"] > 0.5 * peak:
                    # Beyond what Axis keeps up with, a point may send nothing in its window
                    # (every connection still busy: `unsent`, saturation, not an error).
                    self.assertGreater(p["calls"] + p["unsent"], 0, p)
                    continue
                self.assertGreater(p["calls"], 0, p)
                self.assertGreater(p["tps"], 0, p)
                self.assertIsNotNone(p["p50_us"], p)
                self.assertIsNotNone(p["server_cpu_us_per_call"], p)
        self.assertIn("axis_server: warm-up: 200 calls", log)  # the JIT warm-up, logged apart


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_load_axis.py BUILD_DIR [unittest args]")
    BUILD = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)
