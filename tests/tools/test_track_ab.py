#!/usr/bin/python3
"""Tests of tools/track ab (ctest tools.track.ab, label unit; real parse_bench binaries, each
A/B well under a minute): a calibrated 30% slowdown planted into one parse row (--plant:
SOAPBENCH_PLANTED_SLOWDOWN in head, at 0% in base; measure/planted_slowdown.h) decided
"different", slower, with an interval that covers 30%; A/A (one binary on both sides) never
"different" over more rounds than a decision needs; the outputs (JSON, Markdown, GitHub
annotations, exit codes); the planted switch's calibration (5% more instructions under
callgrind, 0% none); bad input answered with one line; the command's own pieces (durations).
The rounds and the report have their own tests (test_track_ab_runs.py, test_track_ab_report.py).
"""
import json
import os
import shutil
import subprocess
import tempfile
from types import SimpleNamespace
import unittest

from tools_common import PY, REPO, TOOLS
from sbtools import icount
from sbtools.track import ab, ab_runs

BENCH = os.environ.get("SB_PARSE_BENCH") or os.path.join(REPO, "build", "bench", "parse_bench")
ROW = "decode/pugixml-dom/soap11-rpc-encoded/getRate.call"
OTHER = "decode/rapidjson-dom/jsonrpc/getRate.call"
PLANTED = 0.30


def tree(root, side):
    """A build tree holding bench/parse_bench (a link to the real binary)."""
    path = os.path.join(root, side)
    os.makedirs(os.path.join(path, "bench"))
    os.symlink(BENCH, os.path.join(path, "bench", "parse_bench"))
    return path


def track_ab(*args, env=None):
    return subprocess.run([PY, os.path.join(TOOLS, "track"), "ab", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})),
                          timeout=120, check=False)


def setUpModule():
    if not os.access(BENCH, os.X_OK):
        raise RuntimeError(f"needs {BENCH}: cmake --build --preset release --target parse_bench")


class Decisions(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-ab-")
        self.base, self.head = tree(self.tmp, "base"), tree(self.tmp, "head")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_planted_slowdown_is_different_slower_and_covered(self):
        out, md = os.path.join(self.tmp, "ab.json"), os.path.join(self.tmp, "ab.md")
        summary = os.path.join(self.tmp, "summary.md")
        proc = track_ab(self.base, self.head, "--parse", ab_runs.exact_filter([ROW]),
                        "--plant", f"{PLANTED * 100:g}:^{ROW}",
                        "--metrics", "cpu_time", "--budget", "50s", "--seed", "1",
                        "--json", out, "--markdown", md,
                        env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary})
        print(proc.stderr[-600:])
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        (c,) = doc["comparisons"]
        self.assertEqual((c["benchmark"], c["metric"], c["state"], c["slower"]),
                         (ROW, "cpu_time", "different", True))
        self.assertGreater(c["shift"], 0)
        self.assertLessEqual(c["low"], PLANTED)
        self.assertGreaterEqual(c["high"], PLANTED)
        self.assertEqual(len(c["base"]), c["rounds"])
        self.assertEqual((doc["base"]["env"], doc["head"]["env"]),
                         ({ab_runs.PLANTED: f"00:^{ROW}"}, {ab_runs.PLANTED: f"30:^{ROW}"}))
        self.assertEqual(doc["verdict"], "FAIL")
        self.assertIn("::error title=cpu_time +", proc.stdout)
        for path in (md, summary):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("### soapbench timing A/B: FAIL", text)
            self.assertIn(f"`parse:{ROW}`", text)
        self.assertIn("verdict: FAIL (1 slower", proc.stdout)

    def test_aa_is_never_different(self):
        """The same binary on both sides, interleaved: same or undecided, never different,
        over more rounds than a decision needs (so the test could fail). At alpha 0.001 the
        coin bounds this test's false failures at 1 in 1,000 runs, however loaded the machine."""
        out = os.path.join(self.tmp, "aa.json")
        proc = track_ab(self.base, self.head, "--parse", ab_runs.exact_filter([ROW]), "--mode",
                        "interleaved", "--alpha", "0.001", "--max-rounds", "40", "--budget",
                        "60s", "--seed", "2", "--json", out)
        print(proc.stderr[-600:])
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        fewest = ab.sequential.Family(range(2), alpha=0.001).fewest_rounds(0)
        self.assertGreater(doc["rounds"], fewest, "too few rounds to ever decide 'different'")
        self.assertEqual({c["metric"] for c in doc["comparisons"]}, {"cpu_time", "real_time"})
        for c in doc["comparisons"]:
            self.assertIn(c["state"], ("same", "undecided"), c)
        self.assertEqual(doc["verdict"], "PASS")


PAD = 128   # the planted setting and its padding together, whatever the setting


class PlantedSwitch(unittest.TestCase):
    """SOAPBENCH_PLANTED_SLOWDOWN=5:REGEX adds 5% of the row's own work, counted by callgrind
    (as tools/icount counts: collection on around the timed loop only); others untouched."""

    def instructions(self, planted):
        """{row: instructions of 200 iterations} of ROW and OTHER, counted in one run."""
        with tempfile.TemporaryDirectory() as tmp:
            # As tools/icount counts: its fixed-length paths, fixed environment and determinism
            # shim (an allocator whose addresses do not depend on the heap's history: the
            # setting's regex allocates at start-up). Without them the same build counted the
            # row +0.13% at 0% in a clone at another path, +0.00% here. The padding keeps the
            # environment one size (its strings sit at the top of the stack) whatever the setting.
            env, _ = icount.prepare(SimpleNamespace(bench=BENCH, corpus=None), tmp)
            env.update(SOAPBENCH_PLANTED_SLOWDOWN=planted, SB_PAD="x" * (PAD - len(planted)))
            subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                            f"--callgrind-out-file={tmp}/cg.%p", os.path.join(tmp, "parse_bench"),
                            "--iterations=200", "--no-pin",
                            f"--benchmark_filter={ab_runs.exact_filter([ROW, OTHER])}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           timeout=300, check=True, cwd=tmp)
            return {row: events["Ir"] for row, events in icount.collect(tmp).items()}

    def test_five_percent_more_instructions_zero_none(self):
        plain, slowed = self.instructions(""), self.instructions(f"5:^{ROW}")
        zero = self.instructions(f"0:^{ROW}")
        moved = {row: slowed[row] / plain[row] - 1 for row in (ROW, OTHER)}
        print(f"planted 5% into {ROW}: instructions {moved}; at 0%: "
              f"{zero[ROW] / plain[ROW] - 1:+.5f}")
        self.assertAlmostEqual(moved[ROW], 0.05, delta=0.005)
        self.assertAlmostEqual(moved[OTHER], 0.0, delta=0.001)
        self.assertAlmostEqual(zero[ROW] / plain[ROW] - 1, 0.0, delta=0.001)

    def test_a_malformed_setting_stops_the_run(self):
        for bad in ("five:^x", "5", "5:(", "-1:^x"):
            proc = subprocess.run([BENCH, "--benchmark_filter=^x$"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, timeout=60, check=False,
                                  env=dict(os.environ, SOAPBENCH_PLANTED_SLOWDOWN=bad))
            self.assertEqual(proc.returncode, 2, bad)
            self.assertIn("SOAPBENCH_PLANTED_SLOWDOWN", proc.stderr)


class BadInput(unittest.TestCase):
    def one_line(self, proc, *words):
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        for w in words:
            self.assertIn(w, lines[0])

    def test_missing_tree(self):
        self.one_line(track_ab("/nonexistent/base", "/nonexistent/head", "--parse", "x"),
                      "base build tree", "not a folder")

    def test_tree_without_the_program(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.one_line(track_ab(tmp, tmp, "--parse", "x"), "no bench/parse_bench",
                          "--target parse_bench")

    def test_bad_options(self):
        for args, word in ((["--budget", "ten minutes"], "duration"),
                           (["--head-env", "NOEQUALS"], "NAME=VALUE"),
                           (["--plant", "five"], "PERCENT:REGEX")):
            proc = track_ab("a", "b", *args)
            self.assertEqual(proc.returncode, 2)
            self.assertIn(word, proc.stderr)

    def test_a_filter_that_picks_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            base = tree(tmp, "base")
            self.one_line(track_ab(base, base, "--parse", "^no-such-row$"), "picks no row")


class Pieces(unittest.TestCase):
    def test_durations(self):
        self.assertEqual(ab.parse_duration("10m"), 600)
        self.assertEqual(ab.parse_duration("1h30m"), 5400)
        self.assertEqual(ab.parse_duration("90s"), 90)
        self.assertEqual(ab.parse_duration("45"), 45)
        for bad in ("", "m", "10 minutes", "-5"):
            with self.assertRaises(Exception):
                ab.parse_duration(bad)


if __name__ == "__main__":
    unittest.main(verbosity=2)
