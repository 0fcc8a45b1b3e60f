#!/usr/bin/python3
"""Tests of sbtools.track.ab_runs (ctest tools.track.ab_runs, label unit; a real parse_bench,
seconds): rounds of two build trees in both modes, each side's values taken from its own run,
the coin placing sides evenly; a load point (soapbench serve and load of each tree); the default set read from parse_bench's own context; the exact
filters, load point names and the planted slowdown's environments."""
import os
import random
import re
import tempfile
import unittest

from tools_common import REPO
from sbtools.track import TrackError, ab_runs

BENCH = os.environ.get("SB_PARSE_BENCH") or os.path.join(REPO, "build", "bench", "parse_bench")
SOAPBENCH = os.environ.get("SB_SOAPBENCH") or os.path.join(REPO, "build", "soapbench")
ROW = "decode/pugixml-dom/soap11-rpc-encoded/getRate.call"


def setUpModule():
    for exe, target in ((BENCH, "parse_bench"), (SOAPBENCH, "soapbench")):
        if not os.access(exe, os.X_OK):
            raise RuntimeError(f"needs {exe}: cmake --build --preset release --target {target}")


def tree(root, side, env=None):
    """A build tree holding bench/parse_bench (a link to the real binary)."""
    path = os.path.join(root, side)
    os.makedirs(os.path.join(path, "bench"))
    os.symlink(BENCH, os.path.join(path, "bench", "parse_bench"))
    os.symlink(SOAPBENCH, os.path.join(path, "soapbench"))
    return ab_runs.Tree(side, path, env or {})


class RealRounds(unittest.TestCase):
    def run_rounds(self, mode, rounds, plant=None):
        with tempfile.TemporaryDirectory(prefix="sb-ab-runs-") as tmp:
            base_env, head_env = ab_runs.planted_envs(plant) if plant else ({}, {})
            trees = (tree(tmp, "base", base_env), tree(tmp, "head", head_env))
            settings = ab_runs.Settings(mode, 0.002, cpus=ab_runs.duet_cpus())
            runner = ab_runs.Rounds(trees, settings, random.Random(4), tmp)
            out = [runner.round({"parse": [ROW]}) for _ in range(rounds)]
            return out, runner

    def test_both_modes_measure_both_sides(self):
        for mode in ("interleaved", "duet"):
            with self.subTest(mode=mode):
                out, runner = self.run_rounds(mode, 3)
                for values, errors in out:
                    self.assertEqual(errors, {})
                    for side in ("base", "head"):
                        v = values[side][("parse", ROW)]
                        self.assertGreater(v["cpu_time"], 0)
                        self.assertGreater(v["real_time"], 0)
                self.assertIn("git_sha", runner.contexts["head"])

    def test_the_coin_places_the_sides_evenly(self):
        _out, runner = self.run_rounds("interleaved", 24)
        first = [side for _suite, side in runner.placement]
        self.assertEqual(len(first), 24)
        self.assertTrue(6 <= first.count("head") <= 18, first)

    def test_a_planted_row_is_slower_in_head_only(self):
        """300% planted: head does the row's work 4 times an iteration, base (0%) once."""
        out, _runner = self.run_rounds("interleaved", 3, f"300:^{ROW}")
        key = ("parse", ROW)
        ratios = sorted(v["head"][key]["cpu_time"] / v["base"][key]["cpu_time"] for v, _e in out)
        self.assertGreater(ratios[1], 2.5, ratios)

    def test_a_load_point_measures_both_sides(self):
        """soapbench serve and soapbench load of each tree, the coin choosing the order."""
        with tempfile.TemporaryDirectory(prefix="sb-ab-runs-") as tmp:
            trees = (tree(tmp, "base"), tree(tmp, "head"))
            settings = ab_runs.Settings("interleaved", 0.002, cpus=ab_runs.duet_cpus())
            point = ab_runs.load_points(["soap11-doc-literal:getRate:2"])[0]
            values, errors = ab_runs.Rounds(trees, settings, random.Random(1), tmp).round(
                {"load": [point]})
        self.assertEqual(errors, {})
        for side in ("base", "head"):
            self.assertGreater(values[side][("load", point)]["tps"], 0)
            self.assertGreater(values[side][("load", point)]["p50_us"], 0)

    def test_default_set_from_the_context(self):
        with tempfile.TemporaryDirectory(prefix="sb-ab-runs-") as tmp:
            base = tree(tmp, "base")
            adapters = ab_runs.default_adapters(base)
            filters = ab_runs.default_filters(adapters)
            rows = ab_runs.list_rows(base, "parse", filters["parse"], ["--set=default"])
        self.assertEqual(len(adapters), 2, adapters)
        self.assertEqual(len(rows), 24, rows)   # 6 families x (getRate, add, parse/decode 64 KB)
        self.assertTrue(all(any(f"/{a}/" in r for a in adapters) for r in rows))

    def test_a_missing_program_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(TrackError, "no bench/roundtrip_bench"):
                ab_runs.check_tree(ab_runs.Tree("base", tmp), ["roundtrip"])


class Pieces(unittest.TestCase):
    def test_exact_filter_matches_only_its_names(self):
        names = ["decode/a-b/x/getRate.call", "parse/c+d/x/respond.64KB.response"]
        rx = re.compile(ab_runs.exact_filter(names))  # POSIX ERE here is also Python's
        for n in names:
            self.assertTrue(rx.match(n))
            self.assertTrue(rx.match(n + "/min_time:0.002"))
        for n in ("decode/a-b/x/getRateXcall", "decode/a-b/x/getRate.call.more", "x" + names[0]):
            self.assertFalse(rx.match(n), n)

    def test_load_points(self):
        self.assertEqual(ab_runs.load_points(["soap11-doc-literal:getRate:4"]),
                         ["load/soap11-doc-literal/getRate/c4"])
        with self.assertRaises(TrackError):
            ab_runs.load_points(["getRate:4"])

    def test_planted_envs_differ_in_one_digit(self):
        base, head = ab_runs.planted_envs("5:^decode/x$")
        self.assertEqual(base, {ab_runs.PLANTED: "0:^decode/x$"})
        self.assertEqual(head, {ab_runs.PLANTED: "5:^decode/x$"})
        base, head = ab_runs.planted_envs("2.5:^y")
        self.assertEqual(len(base[ab_runs.PLANTED]), len(head[ab_runs.PLANTED]))
        for bad in ("5", "five:^x", "5:", ":^x"):
            with self.assertRaises(TrackError):
                ab_runs.planted_envs(bad)


if __name__ == "__main__":
    unittest.main(verbosity=2)
