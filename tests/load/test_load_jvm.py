#!/usr/bin/python3
"""tools/load_bench against a JVM server (Apache Axis: peers/java/axis_server; the JAX-WS RI:
peers/java/jaxws/jaxws_server): the load sweep's rows of that stack run and yield numbers with no
error (the full sweep is bench.load, label `load`).

Usage: /usr/bin/python3 tests/load/test_load_jvm.py BUILD_DIR SERVER_ID [unittest args]

A slice: the server per family it serves in the study (tools/load_bench's table, from the peer's
declaration in `soapbench list --peers`; after a
short JIT warm-up, logged to <json>.<id>.log), a closed loop of 1 and 4 connections on
respond.2500B, then the open loop on it at fractions of the closed-loop peak it reached; every
point answered right (each answer checked by `soapbench load`), with TPS, latencies and the
server's CPU per call.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.dont_write_bytecode = True
from sbtools.load.load_bench import parse_args, server_table  # noqa: E402

BUILD = None  # the build tree, from the command line
SERVER = None  # the JVM server's id in tools/load_bench, from the command line
TABLE = None  # tools/load_bench's servers of that build: {id: (name, families, argv of family)}
WARMUP_CALLS = 200


class JvmLoadSliceTest(unittest.TestCase):
    def run_slice(self):
        """tools/load_bench on the slice: (its JSON document, the server's log)."""
        with tempfile.TemporaryDirectory(prefix=f"sb-load-{SERVER}-") as tmp:
            out = os.path.join(tmp, "load_bench.json")
            proc = subprocess.run(
                ["/usr/bin/python3", os.path.join(REPO, "tools", "load_bench"), "--build-dir",
                 BUILD, "--servers", SERVER, "--families", ",".join(TABLE[SERVER][1]),
                 "--calls", "respond.2500B", "--connections", "1,4", "--duration", "0.5",
                 "--warmup", "0.2", "--jvm-warmup", str(WARMUP_CALLS), "--open-servers", SERVER,
                 "--open-connections", "8", "--capacity-connections", "0", "--machine",
                 "unit-test", "--json", out],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=400)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
            with open(f"{out}.{SERVER}.log", encoding="utf-8") as f:
                return doc, f.read()

    def test_slice_runs_with_numbers_and_no_error(self):
        doc, log = self.run_slice()
        families = TABLE[SERVER][1]
        runs = [(r["mode"], r["family"], r["server"]) for r in doc["runs"]]
        self.assertEqual(runs, [("closed", f, SERVER) for f in families]
                         + [("open", families[0], SERVER)])
        closed = doc["runs"][0]
        self.assertEqual([p["connections"] for p in closed["points"]], [1, 4])
        peak = max(p["tps"] for p in closed["points"])
        self.assertAlmostEqual(doc["runs"][-1]["points"][-1]["rate"], 1.2 * peak, delta=1)
        for r in doc["runs"]:
            self.assertNotIn("error", r)
            for p in r["points"]:
                self.assertEqual(p["errors_total"], 0, p)
                if r["mode"] == "open" and p["rate"] > 0.5 * peak:
                    # Beyond what the stack keeps up with, a point may send nothing in its window
                    # (every connection still busy: `unsent`, saturation, not an error).
                    self.assertGreater(p["calls"] + p["unsent"], 0, p)
                    continue
                self.assertGreater(p["calls"], 0, p)
                self.assertGreater(p["tps"], 0, p)
                self.assertIsNotNone(p["p50_us"], p)
                self.assertIsNotNone(p["server_cpu_us_per_call"], p)
        # The JIT warm-up, logged apart from the timed points.
        program = TABLE[SERVER][2](families[0])[0]
        self.assertIn(f"{os.path.basename(program)}: warm-up: "
                      f"{WARMUP_CALLS} calls", log)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: test_load_jvm.py BUILD_DIR SERVER_ID [unittest args]")
    BUILD, SERVER = sys.argv[1], sys.argv[2]
    args = parse_args(["--build-dir", BUILD])
    TABLE = server_table(args)
    if SERVER not in args.jvm or SERVER not in TABLE:
        sys.exit(f"test_load_jvm.py: {SERVER} is no JVM peer of {BUILD} declared for load "
                 f"({'|'.join(args.jvm)})")
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)
