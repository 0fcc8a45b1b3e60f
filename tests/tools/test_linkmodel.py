#!/usr/bin/python3
"""sbtools.linkmodel (label unit): a measured call projected onto a link, the parsers' share, and
the formula as printed, with the link model of a committed roundtrip_bench run's context."""
import os
import unittest

from tools_common import REPO, gb_result as result, load, main
from sbtools import linkmodel
from sbtools.facts import Facts

ROUNDTRIP = os.path.join(REPO, "results", "bab0702471ef",
                         "20261202-175209_6790742da1f5.roundtrip_bench.json")


class LinkModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.facts = Facts(load(ROUNDTRIP)["context"], [])
        # 40 µs of CPU (10 of them parsing) and 1,000 bytes each way.
        cls.call = result(50_000, client_encode_ns=5_000, server_decode_ns=6_000,
                          dispatch_ns=1_000, server_encode_ns=24_000, client_decode_ns=4_000,
                          bytes_sent=1_000, bytes_received=1_000, total_ns=50_000)

    def test_the_committed_model_sums_these_counters(self):
        self.assertEqual(self.facts.model["parser"], ["server_decode_ns", "client_decode_ns"])
        self.assertEqual(self.facts.round_trips["newconn"], 2)
        self.assertEqual([name for name, _b, _r in self.facts.links],
                         ["datacenter", "LAN", "WAN", "mobile"])

    def test_projected_adds_round_trips_and_wire_time(self):
        total, parser = linkmodel.projected(self.facts.model, self.call, 2, 1e8, 0.03)
        self.assertAlmostEqual(total, 40e-6 + 0.06 + 16_000 / 1e8)
        self.assertAlmostEqual(parser, 10e-6)

    def test_measured_share_is_of_the_loopback_call(self):
        self.assertAlmostEqual(linkmodel.measured_share(self.facts.model, self.call), 20.0)
        self.assertAlmostEqual(linkmodel.measured_share(self.facts.model, result(100_000,
                               server_decode_ns=1_000)), 1.0)  # no total_ns: the call's time
        self.assertIsNone(linkmodel.measured_share(self.facts.model, result(0)))

    def test_the_formula_names_the_runs_counters(self):
        lines = linkmodel.formula_lines(self.facts.model, {"keepalive": 1, "newconn": 2})
        self.assertTrue(lines[0].startswith("projected call time = client_encode_ns + "))
        self.assertIn("keepalive 1, newconn 2", lines[3])
        self.assertEqual(lines[4], "parser share        = (server_decode_ns + client_decode_ns) "
                                   "/ projected call time")

    def test_links_in_words(self):
        self.assertEqual(linkmodel.link_text(1e10, 0.0001), "10 Gbit/s, 0.1 ms RTT")
        self.assertEqual(linkmodel.link_text(1e7, 0.08), "10 Mbit/s, 80 ms RTT")
        self.assertEqual(linkmodel.link_text(56_000, 0.2), "56 kbit/s, 200 ms RTT")
        self.assertEqual(linkmodel.link_text(300, 1), "300 bit/s, 1000 ms RTT")


if __name__ == "__main__":
    main()
