#!/usr/bin/python3
"""Tests of sbtools.track.site_wholecall (label unit): the dashboard's whole-call table from a
machine's newest callcount and icount series."""
import collections
import unittest

from sbtools.track import site_wholecall

Series = collections.namedtuple("Series", "benchmark metric machine suite values")
ROW = "keepalive/xmlrpc/pugixml-dom/getRate"


def series(machine="m1"):
    calls = {("client", "instructions"): 20000.0, ("server", "instructions"): 30000.0,
             ("client", "syscalls"): 9.0, ("server", "syscalls"): 4.0,
             ("client", "allocs_per_call"): 9.0, ("server", "allocs_per_call"): 10.0,
             ("client", "lock_calls"): 4.0, ("server", "lock_calls"): 4.0,
             ("client", "request_bytes"): 328.0, ("client", "response_bytes"): 218.0}
    out = [Series(f"callcount/{side}/{ROW}", metric, machine, "callcount", [v * 2, v])
           for (side, metric), v in calls.items()]
    out.append(Series("decode/pugixml-dom/xmlrpc/getRate.call", "instructions", machine, "icount",
                      [6000.0]))
    return out


class WholeCallTableTest(unittest.TestCase):
    def test_a_row_per_call_with_the_newest_counts(self):
        rows = site_wholecall.rows(series(), "m1")
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual(row[0], ROW)
        self.assertEqual(row[1], "20,000 / 30,000")  # newest values, not the first
        self.assertEqual(row[2], "6,000")
        self.assertEqual(row[3], "20% of the server")  # the request's decode, on the server
        self.assertEqual(row[4], "9 / 4")
        self.assertEqual(row[7], "328 / 218")

    def test_another_machine_has_no_table(self):
        self.assertEqual(site_wholecall.rows(series("m2"), "m1"), [])
        self.assertEqual(site_wholecall.table(series("m2"), "m1"), "")

    def test_the_table_escapes_and_heads(self):
        page = site_wholecall.table(series(), "m1")
        self.assertIn("<h2>The whole call", page)
        self.assertEqual(page.count("<tr>"), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
