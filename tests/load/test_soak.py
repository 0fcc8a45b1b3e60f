#!/usr/bin/python3
"""The soak test of issue 14 (label unit, release build only: docs/load.md "Load").

Our server under 256 keep-alive connections for SB_SOAK_SECONDS (default 30) twice, driven by
`soapbench load` (every answer checked, 1 in 64 decoded in full): no call lost (no error of any
kind, every connection served), and its resident memory after the second run within 10% of its
resident memory after the first (memory does not grow with the load served). Then a server
with --max-connections 8 under 16 connections: the extra ones get 503 while the first 8 keep
being answered right.

Environment: SB_SOAPBENCH (the soapbench executable), SB_SOAK_SECONDS.
Usage: tests/load/test_soak.py [TestClass ...]
"""
import os
import sys
import unittest

sys.dont_write_bytecode = True
from test_load import SOAPBENCH, Server, Tmp  # noqa: E402

SECONDS = float(os.environ.get("SB_SOAK_SECONDS", "30"))
GET_RATE = ["--protocol", "soap11", "--style", "doc-literal", "--call", "getRate"]


class SoakTest(Tmp):
    def setUp(self):
        super().setUp()
        self.server = Server([SOAPBENCH, "serve", "--port", "0"])
        self.addCleanup(self.server.stop)

    def run_point(self, connections, seconds, warmup="0"):
        """One closed-loop point of getRate; (process, the point's record)."""
        proc, doc = self.load(self.server.url, *GET_RATE, "--connections", str(connections),
                              "--duration", str(seconds), "--warmup", warmup, "--server-pid",
                              str(self.server.proc.pid))
        self.assertIsNotNone(doc, proc.stdout + proc.stderr)
        (point,) = doc["points"]
        return proc, point

    def test_no_call_lost_and_memory_flat(self):
        rss = []
        for run in (1, 2):
            proc, p = self.run_point(256, SECONDS)
            summary = (f"run {run}: {p['calls']} calls, {p['errors_total']} errors "
                       f"({p['first_error']}), served {p['connections_served']} of 256, "
                       f"RSS {p['server_rss_kb']} KiB")
            print(summary, file=sys.stderr)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertEqual(p["errors_total"], 0, summary)
            self.assertEqual(p["connections_served"], 256, summary)
            self.assertGreater(p["calls"], 256, summary)
            self.assertGreater(p["decoded"], 0, summary)  # answers were checked in full
            rss.append(p["server_rss_kb"])
        self.assertLessEqual(abs(rss[1] - rss[0]), 0.10 * rss[0], f"RSS KiB after each: {rss}")


class MaxConnectionsTest(Tmp):
    def test_beyond_max_connections_503_and_the_rest_served(self):
        server = Server([SOAPBENCH, "serve", "--port", "0", "--max-connections", "8"])
        self.addCleanup(server.stop)
        proc, doc = self.load(server.url, *GET_RATE, "--connections", "16", "--duration", "2",
                              "--warmup", "0")
        self.assertIsNotNone(doc, proc.stdout + proc.stderr)
        (p,) = doc["points"]
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)  # the 503s are errors
        self.assertGreater(p["errors"]["http_status"], 0, p)
        self.assertIn("503", p["first_error"], p)
        for kind in ("wrong_answer", "fault", "timeout"):
            self.assertEqual(p["errors"][kind], 0, p)
        self.assertGreater(p["calls"], 100, p)  # the 8 admitted connections kept being answered
        self.assertGreaterEqual(p["connections_served"], 8, p)


if __name__ == "__main__":
    unittest.main()
