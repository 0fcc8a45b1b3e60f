#!/usr/bin/python3
"""Tests of sbtools.track.gate and summary (ctest label unit), through tools/track gate: an
instruction-count change of 0.5% caught on the commit itself, the threshold max(0.5%, the
series' noise floor), timings gating only when base and head were measured interleaved (real
A/A runs of this machine, tests/data/track/aa_runs.json), the Markdown summary and the GitHub
Actions annotations."""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import track_testlib as lib
from sbtools import buildkey
from sbtools.track import store

PUGIXML_PARSE = "/pugixml-dom/"


def pugixml_parse(name):
    return name.startswith("parse/") and PUGIXML_PARSE in name


class IcountGateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-gate-")
        self.db = os.path.join(self.tmp, "t.sqlite")
        lib.track("record", "--no-probe", lib.ICOUNT, db=self.db, check=0)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def variant(self, name, scale, commit="feed00000001", date="2026-12-03T10:00:00+00:00"):
        return lib.icount_variant(lib.ICOUNT, os.path.join(self.tmp, name), commit, date, scale)

    def gate(self, *args, check, db=None, env=None):
        """tools/track gate against the store alone (no committed baselines)."""
        return lib.track("gate", "--no-probe", "--results-dir", "", *args, db=db or self.db,
                         check=check, env=env)

    def test_half_a_percent_is_caught_on_the_commit(self):
        head = self.variant("slow.json", lambda n: 1.005 if pugixml_parse(n) else 1.0)
        md = os.path.join(self.tmp, "comment.md")
        summary = os.path.join(self.tmp, "step-summary.md")
        proc = self.gate("--markdown", md, head, check=1,
                         env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary})
        flagged = {line.split()[1].split(":", 1)[1] for line in proc.stdout.splitlines()
                   if line.startswith("regression")}
        expected = {b for b in lib.load(head)["instructions"] if pugixml_parse(b)}
        self.assertEqual(flagged, expected)
        self.assertIn("verdict: FAIL", proc.stdout)
        errors = [l for l in proc.stdout.splitlines() if l.startswith("::error title=")]
        self.assertEqual(len(errors), len(expected))
        self.assertIn("+0.50%", errors[0])
        text = lib.text(md)
        self.assertIn("### soapbench gate: FAIL", text)
        rows = [l for l in text.splitlines() if l.startswith("| `icount:")]
        self.assertEqual(len(rows), len(expected))  # only the significant changes
        self.assertIn("±0.50%", rows[0])              # each with its noise band
        self.assertIn("commits 6790742da1f5..feed00000001", rows[0])
        self.assertEqual(lib.text(summary).strip(), text.strip())

    def test_the_same_counts_pass_quietly(self):
        head = self.variant("same.json", None)
        proc = self.gate(head, check=0)
        self.assertIn("verdict: PASS (612 comparisons", proc.stdout)
        self.assertNotIn("::", proc.stdout)  # no annotations outside GitHub Actions

    def test_a_benchmark_that_is_noisy_in_history_has_a_wider_threshold(self):
        # History: one benchmark's count wanders by about 1% run to run; the others stay.
        noisy = next(b for b in lib.load(lib.ICOUNT)["instructions"] if "/expat-sax/" in b)
        for i in range(8):
            f = 1.0 + (0.01 if i % 2 else 0.0)
            lib.track("record", "--no-probe", self.variant(
                f"h{i}.json", lambda n, f=f: f if n == noisy else 1.0, f"hist0000000{i}",
                f"2026-12-02T2{i}:00:00+00:00"), db=self.db, check=0)
        head = self.variant("head.json", lambda n: 1.008 if n in (noisy,) or
                            n.startswith("decode/tinyxml2-dom/") else 1.0)
        proc = self.gate(head, check=1)
        flagged = {line.split()[1].split(":", 1)[1] for line in proc.stdout.splitlines()
                   if line.startswith("regression")}
        self.assertNotIn(noisy, flagged)  # within its own noise floor (> 0.8%)
        self.assertTrue(flagged and all(b.startswith("decode/tinyxml2-dom/") for b in flagged))

    def test_nothing_to_compare_with_fails_unless_allowed(self):
        # Issue 44 item 11: a CI cache miss gave "WARN (0 comparisons)" and exit 0.
        empty = os.path.join(self.tmp, "empty.sqlite")
        head = self.variant("x.json", None)
        proc = self.gate(head, db=empty, check=3)
        self.assertIn("warning: icount: nothing to compare with", proc.stdout)
        self.assertIn("verdict: EMPTY (0 comparisons)", proc.stdout)
        self.assertIn("--allow-empty", proc.stdout)
        proc = self.gate("--allow-empty", "--json", "-", head, db=empty, check=0)
        verdict = json.loads(proc.stdout)  # standard output holds the JSON alone
        self.assertEqual((verdict["verdict"], verdict["exit_code"], verdict["comparisons"]),
                         ("EMPTY", 0, 0))
        self.assertIn("verdict: EMPTY", proc.stderr)

    def test_the_json_verdict(self):
        head = self.variant("slow.json", lambda n: 1.005 if pugixml_parse(n) else 1.0)
        out = os.path.join(self.tmp, "verdict.json")
        proc = self.gate("--json", out, head, check=1)
        self.assertIn("verdict: FAIL", proc.stdout)
        verdict = lib.load(out)
        self.assertEqual((verdict["verdict"], verdict["exit_code"]), ("FAIL", 1))
        self.assertEqual(verdict["comparisons"], 612)
        self.assertEqual({r["benchmark"] for r in verdict["regressions"]},
                         {b for b in lib.load(head)["instructions"] if pugixml_parse(b)})
        self.assertEqual(verdict["regressions"][0]["cause"], "commits 6790742da1f5..feed00000001")
        self.assertEqual(verdict["environment"], [])

    def test_every_exit_code_is_documented(self):
        text = lib.track("gate", "--help", check=0).stdout
        for code in range(4):
            self.assertRegex(text, rf"(?m)^{code}  \S")
        self.assertIn("--allow-empty", text)

    def upgraded(self, name, scale, commit, **build):
        """A copy of the counts as a new toolchain made them: the build's facts changed, and for
        a compiler also the context's compiler and machine_id (run_context.cpp hashes it)."""
        doc = lib.load(lib.ICOUNT)
        doc["context"].update(git_sha=commit, date="2026-12-03T10:00:00+00:00")
        if "compiler" in build:
            doc["context"].update(compiler=build["compiler"], machine_id="c425c425c425")
        doc["icount"]["build"].update(build)
        doc["icount"]["build_key"] = buildkey.icount_build_key(doc["icount"]["build"])
        doc["instructions"] = {k: v * scale(k) for k, v in doc["instructions"].items()}
        return lib.dump(doc, os.path.join(self.tmp, name))

    def test_a_compiler_upgrade_is_compared_with_the_previous_build(self):
        # Issue 44 item 10: g++ 12.2.0 -> 12.3.0, every count +5%: was "no history of machine",
        # 0 comparisons, and `changes` never showed the +5%.
        head = self.upgraded("gcc.json", lambda n: 1.05, lib.load(lib.ICOUNT)["context"]["git_sha"],
                             compiler="g++ 12.3.0")
        proc = self.gate("--json", os.path.join(self.tmp, "v.json"), head, check=0)
        verdict = lib.load(os.path.join(self.tmp, "v.json"))
        self.assertEqual((verdict["verdict"], verdict["comparisons"]), ("WARN", 612))
        self.assertEqual(len(verdict["environment"]), 612)
        self.assertTrue(all(r["cause"] == "compiler g++ 12.2.0 → g++ 12.3.0"
                            for r in verdict["environment"]), verdict["environment"][0])
        self.assertIn("compared with the previous build", proc.stdout)
        self.assertEqual(verdict["blind_spots"], [])  # the same commit: the compiler alone
        lib.track("record", "--no-probe", head, db=self.db, check=0)
        groups = json.loads(lib.track("changes", "--json", db=self.db, check=0).stdout)
        self.assertEqual(len(groups), 1)
        self.assertEqual(len(groups[0]["series"]), 612)
        self.assertTrue(all(abs(x["shift"] - 0.05) < 1e-9 for x in groups[0]["series"]))
        self.assertIn(["compiler", "g++ 12.2.0", "g++ 12.3.0"], groups[0]["changed"])

    def test_a_glibc_upgrade_is_named_once(self):
        head = self.upgraded("glibc.json", lambda n: 1.05, "feed00000002", glibc="glibc 2.37")
        proc = self.gate(head, check=0)
        self.assertIn("glibc 2.36 → 2.37", proc.stdout)
        self.assertNotIn("glibc glibc", proc.stdout)
        self.assertIn("verdict: WARN (612 comparisons", proc.stdout)

    def test_an_isa_level_change_is_said_as_the_blind_spot_it_is(self):
        # Issue 39 item 15: v3 -> v4 with every count +5% over other commits: every row is the
        # instruction-set level's and the gate passes (kept), saying what it cannot see.
        head = self.upgraded("v4.json", lambda n: 1.05, "feed00000003", isa_level="x86-64-v4")
        md = os.path.join(self.tmp, "comment.md")
        out = os.path.join(self.tmp, "v.json")
        proc = self.gate("--markdown", md, "--json", out, head, check=0)
        self.assertIn("blind spot: icount: 612 benchmarks moved with isa_level x86-64-v3 → "
                      "x86-64-v4 and are not judged; the commits 6790742da1f5..feed00000003 "
                      "changed too", proc.stdout)
        self.assertIn("whether they moved these counts as well is unknown", proc.stdout)
        self.assertIn("Blind spot: moved with the environment, not judged", lib.text(md))
        spots = lib.load(out)["blind_spots"]
        self.assertEqual([(b["fields"], b["benchmarks"]) for b in spots],
                         [("isa_level x86-64-v3 → x86-64-v4", 612)])
        self.assertEqual(lib.load(out)["verdict"], "WARN")


class BaselineGateTest(unittest.TestCase):
    """Issue 39 item 14: the test command gates with tools/track gate, which keeps the committed
    baseline per build key (results/icount/<build-key>/baseline.json) and tools/compare's rules
    against it: 1%, and a count file that lacks the baseline's benchmarks fails."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-gate-")
        self.db = os.path.join(self.tmp, "empty.sqlite")  # a fresh clone's: nothing recorded
        self.results = os.path.join(self.tmp, "results")
        self.key = lib.load(lib.ICOUNT)["icount"]["build_key"]
        os.makedirs(os.path.join(self.results, "icount", self.key))
        self.baseline = os.path.join(self.results, "icount", self.key, "baseline.json")
        shutil.copy(lib.ICOUNT, self.baseline)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def gate(self, scale, check, drop=()):
        doc = lib.load(lib.ICOUNT)
        doc["context"].update(git_sha="feed00000001", date="2026-12-03T10:00:00+00:00")
        doc["instructions"] = {k: v * scale(k) for k, v in doc["instructions"].items()
                               if k not in drop}
        head = lib.dump(doc, os.path.join(self.tmp, "head.json"))
        return lib.track("gate", "--no-probe", "--results-dir", self.results, head, db=self.db,
                         check=check)

    def test_the_committed_baseline_is_the_reference(self):
        proc = self.gate(lambda n: 1.008 if pugixml_parse(n) else 1.0, 0)  # under 1%
        self.assertIn(f"compared with {self.baseline}", proc.stdout)
        self.assertIn("verdict: PASS (612 comparisons", proc.stdout)
        proc = self.gate(lambda n: 1.012 if pugixml_parse(n) else 1.0, 1)
        self.assertIn("±1.00%", proc.stdout)
        self.assertIn("verdict: FAIL", proc.stdout)

    def test_a_short_file_fails_unless_the_baseline_marks_the_rest_removed(self):
        gone = sorted(lib.load(lib.ICOUNT)["instructions"])[0]
        proc = self.gate(lambda n: 1.0, 1, drop=(gone,))
        self.assertIn(f"lacks 1 benchmarks the baseline {self.baseline} has (e.g. {gone})",
                      proc.stdout)
        doc = lib.load(self.baseline)
        doc["removed"] = {gone: "retired on purpose"}
        lib.dump(doc, self.baseline)
        self.gate(lambda n: 1.0, 0, drop=(gone,))

    def test_the_test_commands_gate_records_only_what_passed(self):
        # tools/run_tests.sh ran `track record` then `compare --against-baseline`: a Qt 6.4.3
        # file with every row +5% passed ("no baseline for build") and entered the history.
        # Its gate step (tools/gate_counts.sh) is now tools/track gate, then record on a pass.
        committed = glob.glob(os.path.join(lib.RESULTS, "icount", "*", "baseline.json"))[0]
        store_env = {"SOAPBENCH_TRACK_DB": self.db}

        def gate_counts(doc, check):
            doc["context"].update(git_sha="feed00000009", date="2026-12-03T10:00:00+00:00")
            path = lib.dump(doc, os.path.join(self.tmp, "counts.json"))
            proc = subprocess.run([os.path.join(lib.TOOLS, "gate_counts.sh"), path],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  timeout=300, env=dict(os.environ, **store_env))
            self.assertEqual(proc.returncode, check, proc.stdout + proc.stderr)
            self.assertEqual(lib.load(os.path.join(self.tmp, "counts.verdict.json"))["exit_code"],
                             check)
            return proc
        doc = lib.load(committed)
        build = doc["icount"]["build"]
        build["libraries"]["Qt 6"] = "6.4.3"
        doc["icount"]["build_key"] = buildkey.icount_build_key(build)
        doc["instructions"] = {k: v * 1.05 for k, v in doc["instructions"].items()}
        proc = gate_counts(doc, 1)
        self.assertIn("verdict: FAIL", proc.stdout)
        with store.open_store(self.db) as db:
            self.assertEqual(db.count("runs"), 0)   # not recorded
        proc = gate_counts(lib.load(committed), 0)  # the baseline's own counts: a pass
        self.assertIn("verdict: PASS", proc.stdout)
        with store.open_store(self.db) as db:
            self.assertEqual([r.commit for r in db.runs()], ["feed00000009"])

    def test_qt_643_with_every_count_up_fails_against_the_baseline(self):
        # The issue's replay: Qt 6.4.3 and every row +5% passed the old gate ("no baseline for
        # build"): the nearest committed baseline now judges it; Qt's rows are Qt's, the rest
        # the commits'.
        doc = lib.load(lib.ICOUNT)
        doc["context"].update(git_sha="feed00000001", date="2026-12-03T10:00:00+00:00")
        build = doc["icount"]["build"]
        build["libraries"]["Qt 6"] = "6.4.3"
        build["shared_libraries"] = [x.replace("6.4.2", "6.4.3") for x in build["shared_libraries"]]
        doc["icount"]["build_key"] = buildkey.icount_build_key(build)
        doc["instructions"] = {k: v * 1.05 for k, v in doc["instructions"].items()}
        head = lib.dump(doc, os.path.join(self.tmp, "qt.json"))
        proc = lib.track("gate", "--no-probe", "--results-dir", self.results, head, db=self.db,
                         check=1)
        self.assertIn("compared with the previous build", proc.stdout)
        self.assertIn("Qt 6 6.4.2 → 6.4.3", proc.stdout)
        self.assertIn("verdict: FAIL (612 comparisons", proc.stdout)


class TimingGateTest(unittest.TestCase):
    """Real A/A runs of one binary: base = even runs, head = odd runs, in time order."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-gate-")
        self.db = os.path.join(self.tmp, "t.sqlite")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def files(self, scale=None, start=0):
        base, head = [], []
        for i in range(start, start + 18):
            side = base if i % 2 == 0 else head
            f = scale if side is head else None
            side.append(lib.aa_file(i, os.path.join(self.tmp, f"aa{i}.json"), f))
        return base, head

    def gate(self, base, head, check):
        args = ["gate", "--no-probe", "--allow-empty"]
        for b in base:
            args += ["--base", b]
        return lib.track(*args, *head, db=self.db, check=check)

    def test_aa_interleaved_passes(self):
        base, head = self.files()
        proc = self.gate(base, head, 0)
        self.assertNotIn("regression", proc.stdout)
        self.assertNotIn("timings are information only", proc.stdout)

    def test_a_slowdown_measured_interleaved_fails(self):
        doc = lib.load(lib.AA)
        slowed = [b for b, reps in zip(doc["benchmarks"], doc["runs"][0]["real_time"])
                  if len(reps) == 5][:3]
        # Three times slower: on this machine's noise under load (one benchmark's single runs
        # spread over 3x in runs 0-17) what 9 interleaved runs a side tell apart for sure; runs
        # 20-37 are the A/A's quieter stretch (docs/ci.md: the power study).
        base, head = self.files(lambda n: 3.0 if n in slowed else 1.0, start=20)
        proc = self.gate(base, head, 1)
        flagged = {line.split()[1].split(":", 1)[1] for line in proc.stdout.splitlines()
                   if line.startswith("regression") and " real_time " in line}
        self.assertEqual(flagged, set(slowed))

    def test_not_interleaved_is_information_only(self):
        base, head = self.files(lambda n: 1.5)
        # Every base file measured before every head file: not ABAB.
        for i, path in enumerate(base):
            doc = lib.load(path)
            doc["context"]["date"] = f"2026-12-01T00:{i:02d}:00+00:00"
            lib.dump(doc, path)
        proc = self.gate(base, head, 0)
        self.assertIn("do not alternate", proc.stdout)
        self.assertNotIn("regression", proc.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
