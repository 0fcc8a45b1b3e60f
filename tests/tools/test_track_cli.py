#!/usr/bin/python3
"""Tests of sbtools.track.cli (ctest label unit): `--help` on every verb, the committed results
imported (and again: nothing new), record / changes / site from the command line, and each kind
of bad input answered with one line naming the file or store and the reason, nothing
half-written, the store still readable."""
import os
import shutil
import sqlite3
import tempfile
import unittest

import track_testlib as lib
from sbtools.track import importers
from sbtools.track.schema import SCHEMA_VERSION

VERBS = ("import", "record", "gate", "changes", "site", "prune")


class CliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-cli-")
        self.db = os.path.join(self.tmp, "t.sqlite")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def one_line(self, proc, *words):
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        for w in words:
            self.assertIn(w, lines[0])
        return lines[0]

    def counts(self):
        with sqlite3.connect(self.db) as conn:
            return tuple(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                         for t in ("runs", "series", "samples"))

    def test_help_on_every_verb(self):
        self.assertIn("VERB", lib.track("--help", check=0).stdout)
        helps = {}
        for verb in VERBS:
            out = lib.track(verb, "--help", check=0).stdout
            self.assertIn(f"usage: tools/track {verb}", out)
            helps[verb] = out.split("\n\n", 1)[1].split("positional arguments:")[0]
        # Each verb says what it does (site printed the help of changes, issue 44 item 14).
        self.assertEqual(len(set(helps.values())), len(VERBS), helps)
        self.assertIn("dashboard", helps["site"])

    def test_import_the_committed_results_twice(self):
        first = lib.track("import", lib.RESULTS, db=self.db, check=0)
        n = len([p for p in __import__("glob").glob(os.path.join(lib.RESULTS, "**", "*.json"),
                                                     recursive=True)
                 if not os.path.basename(p).startswith("baseline")])
        self.assertIn(f"imported {n} runs", first.stdout)
        again = lib.track("import", lib.RESULTS, db=self.db, check=0)
        self.assertIn(f"imported 0 runs", again.stdout)
        self.assertIn(f"({n} already there", again.stdout)
        # The machine is the hardware (gbench.hardware_id); --machine takes a results/ folder's
        # machine_id too.
        machine = importers.read(os.path.join(lib.RESULTS, "bab0702471ef",
                                              "20261202-174809_6790742da1f5.parse_bench.json"))
        changes = lib.track("changes", "--suite", "icount", "--limit", "3", "--machine",
                            "bab0702471ef", db=self.db, check=0)
        self.assertIn(f"{machine.machine} icount", changes.stdout)
        self.assertIn("changed:", changes.stdout)

    def test_record_then_changes_and_site(self):
        files = [lib.icount_variant(lib.ICOUNT, os.path.join(self.tmp, f"r{i}.json"),
                                    f"abc{i:09d}", f"2026-12-04T0{i}:00:00+00:00",
                                    lambda n, i=i: 1.02 if i >= 4 and "/expat-sax/" in n else 1)
                 for i in range(6)]
        proc = lib.track("record", "--no-probe", *files, db=self.db, check=0)
        self.assertIn("6 runs recorded", proc.stdout)
        proc = lib.track("changes", "--json", db=self.db, check=0)
        groups = __import__("json").loads(proc.stdout)
        self.assertEqual(len(groups), 1)
        self.assertEqual((groups[0]["from_commit"], groups[0]["to_commit"]),
                         ("abc000000003", "abc000000004"))
        self.assertTrue(all("/expat-sax/" in s["benchmark"] and s["regression"]
                            for s in groups[0]["series"]))
        out = os.path.join(self.tmp, "site")
        lib.track("site", out, db=self.db, check=0)
        self.assertTrue(os.path.exists(os.path.join(out, "index.html")))
        self.assertTrue(os.path.exists(os.path.join(out, "chart.min.js")))

    def test_record_probes_this_machine(self):
        # A file measured here, just now, gets this machine's fingerprint and package versions;
        # the committed one (another VM, days ago) does not.
        from sbtools.track import study, store
        path = study.as_if_measured_here([lib.ICOUNT], self.tmp)[0]
        lib.track("record", path, db=self.db, check=0)
        lib.track("record", lib.RUN1, db=self.db, check=0)
        with store.open_store(self.db) as db:
            envs = {r.suite: db.run_details(r.id)[1] for r in db.runs()}
        self.assertNotIn("machine", envs["parse_bench"])
        env = envs["icount"]
        self.assertIn("kernel", env["machine"])
        self.assertNotIn("bogomips", str(env["machine"]).lower())
        self.assertIn("libc6", env["packages"])

    def test_bad_input_one_line_each(self):
        lib.track("record", "--no-probe", lib.ICOUNT, db=self.db, check=0)
        before = self.counts()
        text = lib.text(lib.ICOUNT)
        cut = os.path.join(self.tmp, "cut.json")
        with open(cut, "w") as f:
            f.write(text[:5000])
        self.one_line(lib.track("record", "--no-probe", cut, db=self.db, check=1),
                      cut, "not valid JSON", "truncated")
        foreign = lib.dump({"compilerOptions": {}}, os.path.join(self.tmp, "tsconfig.json"))
        self.one_line(lib.track("record", "--no-probe", foreign, db=self.db, check=1),
                      foreign, "not a result file")
        doc = lib.load(lib.ICOUNT)
        del doc["context"]["machine_id"]
        doc["context"]["git_sha"] = "0000deadbeef"
        nomachine = lib.dump(doc, os.path.join(self.tmp, "nomachine.json"))
        self.one_line(lib.track("record", "--no-probe", nomachine, db=self.db, check=1),
                      nomachine, "unknown machine")
        dup = lib.track("record", "--no-probe", lib.ICOUNT, db=self.db, check=0)
        self.one_line(dup, lib.ICOUNT, "already recorded")
        self.assertEqual(self.counts(), before)  # nothing half-written
        with sqlite3.connect(self.db) as conn:
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                         (str(SCHEMA_VERSION + 1),))
        newer = lib.track("record", "--no-probe", lib.ICOUNT, db=self.db, check=2)
        self.one_line(newer, self.db, "newer tools/track")
        with sqlite3.connect(self.db) as conn:
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                         (str(SCHEMA_VERSION),))
        lib.track("changes", db=self.db, check=0)  # still readable
        self.assertEqual(self.counts(), before)

    def test_a_file_that_lies_is_refused(self):
        # Issue 39 item 13: +inf in a row was stored; a key written twice kept the last value; a
        # Google Benchmark file holding every run twice was read as repetitions.
        doc = lib.load(lib.ICOUNT)
        name = sorted(doc["instructions"])[3]
        doc["instructions"][name] = float("inf")
        inf = lib.dump(doc, os.path.join(self.tmp, "inf.json"))
        self.one_line(lib.track("record", "--no-probe", inf, db=self.db, check=1),
                      inf, "refused", name, "Infinity is not a number")
        twice = os.path.join(self.tmp, "twice.json")
        with open(twice, "w", encoding="utf-8") as f:
            f.write(lib.text(lib.ICOUNT).replace('"instructions": {',
                                                 f'"instructions": {{"{name}": 1.0, ', 1))
        self.one_line(lib.track("record", "--no-probe", twice, db=self.db, check=1),
                      twice, "refused", "written twice")
        doc = lib.load(lib.RUN1)
        doc["benchmarks"] += doc["benchmarks"]
        double = lib.dump(doc, os.path.join(self.tmp, "double.json"))
        self.one_line(lib.track("record", "--no-probe", double, db=self.db, check=1),
                      double, "refused", "written twice")
        proc = lib.track("gate", "--no-probe", inf, db=self.db, check=2)
        self.one_line(proc, inf, "Infinity")
        self.assertFalse(os.path.exists(self.db) and self.counts()[0])

    def test_one_bad_file_does_not_stop_the_others(self):
        cut = os.path.join(self.tmp, "cut.json")
        with open(cut, "w") as f:
            f.write("{\"benchmarks\": [")
        proc = lib.track("record", "--no-probe", cut, lib.ICOUNT, db=self.db, check=1)
        self.assertIn("1 runs recorded", proc.stdout)
        self.assertEqual(self.counts()[0], 1)

    def test_prune_gives_the_space_back(self):
        # Issue 44 item 14: a CI that keeps the store as a cache needs retention.
        files = [lib.gb_variant(lib.RUN1, os.path.join(self.tmp, f"g{i}.json"), f"abc{i:09d}",
                                f"2026-12-0{i + 1}T10:00:00+00:00") for i in range(6)]
        lib.track("record", "--no-probe", *files, db=self.db, check=0)
        before = os.path.getsize(self.db)
        self.one_line(lib.track("prune", db=self.db, check=2), "say what to keep")
        proc = lib.track("prune", "--keep-runs", "2", "--dry-run", db=self.db, check=0)
        self.assertIn("would remove 4 runs", proc.stdout)
        self.assertEqual(self.counts()[0], 6)
        proc = lib.track("prune", "--keep-runs", "2", db=self.db, check=0)
        self.assertIn("removed 4 runs", proc.stdout)
        self.assertEqual(self.counts()[0], 2)
        self.assertLess(os.path.getsize(self.db), before * 0.6)
        lib.track("changes", db=self.db, check=0)  # still a store

    def test_reading_a_store_that_does_not_exist(self):
        proc = lib.track("changes", db=os.path.join(self.tmp, "none.sqlite"), check=2)
        self.one_line(proc, "none.sqlite", "no store there")


if __name__ == "__main__":
    unittest.main(verbosity=2)
