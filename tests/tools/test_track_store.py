#!/usr/bin/python3
"""Tests of sbtools.track.store (ctest label unit): the SQLite store (WAL, one transaction per
run, duplicates, a newer schema refused) and the same store on a real PostgreSQL server, a
throw-away cluster that two "machines" record into at the same time.

Usage: tests/tools/test_track_store.py [SqliteTest|PostgresTest]
"""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

import track_testlib as lib
from sbtools.track import TrackError, importers, store


def env_of(run):
    return {"build": run.build, "git": {"parent": None, "branch": "main", "merge_base": None}}


class StoreChecks:
    """Checks run against every backend: self.url is the store."""

    def test_a_run_is_read_back_with_every_repetition(self):
        run = importers.read(lib.RUN1)
        with store.open_store(self.url) as db:
            run_id = db.add_run(run, env_of(run))
            back = db.repetitions(run_id)
            self.assertEqual(back, run.samples)
            row = db.runs(run.machine, run.suite)[-1]
            self.assertEqual((row.commit, row.date, row.suite), (run.commit, run.date, "parse_bench"))
            five = [k for k, v in back.items() if k[1] == "real_time" and len(v) == 5]
            self.assertTrue(five, "run1 has benchmarks with 5 repetitions")

    def test_a_duplicate_is_refused_and_nothing_is_written(self):
        run = importers.read(lib.ICOUNT)
        with store.open_store(self.url) as db:
            db.add_run(run, env_of(run))
            before = (db.count("runs"), db.count("samples"))
            with self.assertRaises(store.DuplicateRun) as ctx:
                db.add_run(run, env_of(run))
            self.assertIn("already recorded", str(ctx.exception))
            self.assertEqual((db.count("runs"), db.count("samples")), before)

    def test_a_failure_mid_run_leaves_nothing(self):
        path = lib.icount_variant(lib.ICOUNT, os.path.join(self.tmp, "mid.json"), "0123abcd0123",
                                  "2026-12-05T10:00:00+00:00")
        run = importers.read(path)
        with store.open_store(self.url) as db:
            before = (db.count("runs"), db.count("series"), db.count("samples"))
            original = db.insert_many

            def failing(table, *args, **kw):
                if table == "samples":
                    raise RuntimeError("disk full (simulated)")
                return original(table, *args, **kw)
            db.insert_many = failing
            with self.assertRaises(RuntimeError):
                db.add_run(run, env_of(run))
            db.insert_many = original
            self.assertEqual((db.count("runs"), db.count("series"), db.count("samples")), before)
            db.add_run(run, env_of(run))  # and the store is still usable
            self.assertEqual(db.count("runs"), before[0] + 1)


    def test_prune_keeps_the_newest_runs(self):
        # Retention (issue 44 item 14: the store grew about 1 MB per parse_bench run, no prune).
        paths = [lib.icount_variant(lib.ICOUNT, os.path.join(self.tmp, f"p{i}.json"),
                                    f"0123abcd{i:04d}", f"2026-12-0{i + 1}T10:00:00+00:00")
                 for i in range(5)]
        with store.open_store(self.url) as db:
            for p in paths:
                run = importers.read(p)
                db.add_run(run, env_of(run))
            db.add_verdict("m", "c", None, "PASS", "", {})
            db.add_verdict("m", "d", None, "PASS", "", {})
            series = db.count("series")
            counts = db.prune(keep_runs=3, keep_verdicts=1, dry_run=True)
            self.assertEqual((counts["runs"], counts["verdicts"]), (2, 1))
            self.assertEqual(db.count("runs"), 5)               # a dry run removes nothing
            counts = db.prune(keep_runs=3, keep_verdicts=1)
            self.assertEqual((counts["runs"], counts["samples"]), (2, 2 * series))
            self.assertEqual([r.commit for r in db.runs()],
                             [f"0123abcd{i:04d}" for i in (2, 3, 4)])
            self.assertEqual((db.count("series"), db.count("samples")), (series, 3 * series))
            self.assertEqual([v[2] for v in db.verdicts()], ["d"])
            counts = db.prune(before="2026-12-05T00:00:00Z")   # the runs before a date
            self.assertEqual([r.commit for r in db.runs()], ["0123abcd0004"])
            db.prune(keep_runs=0)
            self.assertEqual((db.count("runs"), db.count("series"), db.count("samples")),
                             (0, 0, 0))


class SqliteTest(StoreChecks, unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-store-")
        self.url = os.path.join(self.tmp, "sub", "track.sqlite")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_the_file_is_in_wal_mode(self):
        store.open_store(self.url).close()
        with sqlite3.connect(self.url) as conn:
            self.assertEqual(conn.execute("PRAGMA journal_mode").fetchone()[0], "wal")

    def test_a_newer_schema_is_refused_and_left_readable(self):
        store.open_store(self.url).close()
        with sqlite3.connect(self.url) as conn:
            conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        with self.assertRaises(TrackError) as ctx:
            store.open_store(self.url)
        msg = str(ctx.exception)
        self.assertIn(self.url, msg)
        self.assertIn("newer", msg)
        self.assertEqual(len(msg.splitlines()), 1)
        with sqlite3.connect(self.url) as conn:
            self.assertEqual(conn.execute("SELECT value FROM meta").fetchone()[0], "99")

    def v1_store(self, runs):
        """A store as tools/track schema version 1 wrote it: each run under its file's
        machine_id (which names the compiler), series per machine_id."""
        from sbtools.track.schema import MIGRATIONS
        os.makedirs(os.path.dirname(self.url), exist_ok=True)
        with sqlite3.connect(self.url) as conn:
            for stmt in MIGRATIONS[1]:
                conn.execute(stmt.replace("{id}", "INTEGER PRIMARY KEY"))
            conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
            for i, run in enumerate(runs):
                conn.execute("INSERT INTO runs (id, digest, machine, suite, commit_sha, run_date, "
                             "recorded_at, build_key, source, context, environment) VALUES "
                             "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}')",
                             (i + 1, run.digest, run.machine_id, run.suite, run.commit, run.date,
                              run.date, run.build_key, run.source, json.dumps(run.context)))
                for (bench, met), reps in sorted(run.samples.items())[:3]:
                    conn.execute("INSERT OR IGNORE INTO series (machine, suite, benchmark, "
                                 "metric) VALUES (?, ?, ?, ?)", (run.machine_id, run.suite,
                                                                 bench, met))
                    sid = conn.execute("SELECT id FROM series WHERE machine = ? AND benchmark = ? "
                                       "AND metric = ?", (run.machine_id, bench, met)).fetchone()[0]
                    conn.execute("INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
                                 (sid, i + 1, len(reps), reps[0], json.dumps(reps)))
            conn.execute("INSERT INTO verdicts (created_at, machine, commit_sha, verdict, summary, "
                         "details) VALUES ('x', ?, 'c', 'PASS', '', '{}')", (runs[0].machine_id,))

    def test_a_version_1_store_is_migrated_to_machines_that_are_hardware(self):
        # Issue 44 item 10: version 1 keyed series by machine_id, which names the compiler, so
        # a compiler upgrade started new series; opening the store joins them.
        old = importers.read(lib.ICOUNT)
        doc = lib.load(lib.ICOUNT)
        doc["context"].update(compiler="g++ 12.3.0", machine_id="c425c425c425", git_sha="c0ffee",
                              date="2026-12-05T10:00:00+00:00")
        new = importers.read(lib.dump(doc, os.path.join(self.tmp, "new.json")))
        self.assertNotEqual(old.machine_id, new.machine_id)
        self.v1_store([old, new])
        with store.open_store(self.url) as db:
            self.assertEqual(db.machines(), [old.machine])
            self.assertEqual({r.commit for r in db.runs(old.machine, "icount")},
                             {old.commit, "c0ffee"})
            self.assertEqual(db.count("series"), 3)       # one per benchmark, both runs in it
            self.assertEqual(db.count("samples"), 6)
            self.assertEqual(db.machine_ids(old.machine),
                             {old.machine_id: "g++ 12.2.0", "c425c425c425": "g++ 12.3.0"})
            self.assertEqual(db.resolve_machine("c425c425c425"), old.machine)
            self.assertEqual(db.verdicts()[0][1], old.machine)

    def test_a_file_that_is_not_a_store_is_named(self):
        with open(os.path.join(self.tmp, "junk.sqlite"), "w") as f:
            f.write("this is not a database\n" * 100)
        with self.assertRaises(TrackError) as ctx:
            store.open_store(os.path.join(self.tmp, "junk.sqlite"))
        self.assertIn("junk.sqlite", str(ctx.exception))

    def test_reading_a_missing_store_does_not_create_it(self):
        with self.assertRaises(TrackError):
            store.open_store(self.url, create=False)
        self.assertFalse(os.path.exists(self.url))

    def test_the_default_path_is_outside_the_checkout(self):
        old = os.environ.pop(store.DB_ENV, None)
        try:
            path = store.default_db()
            self.assertTrue(path.endswith(os.path.join("soapbench", "track.sqlite")), path)
            self.assertFalse(os.path.abspath(path).startswith(lib.REPO + os.sep), path)
            os.environ[store.DB_ENV] = "/x/y.sqlite"
            self.assertEqual(store.default_db(), "/x/y.sqlite")
        finally:
            os.environ.pop(store.DB_ENV, None)
            if old is not None:
                os.environ[store.DB_ENV] = old


class PostgresTest(StoreChecks, unittest.TestCase):
    """A real PostgreSQL 15 server (Debian postgresql), not a mock."""

    @classmethod
    def setUpClass(cls):
        cls.cluster = lib.PostgresCluster().start()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.stop()

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-store-")
        # Each test in a database of its own.
        import psycopg2
        self.dbname = f"t_{self._testMethodName[5:40]}"
        conn = psycopg2.connect(self.cluster.url)
        conn.autocommit = True
        conn.cursor().execute(f"CREATE DATABASE {self.dbname}")
        conn.close()
        self.url = self.cluster.url.rsplit("/", 1)[0] + "/" + self.dbname

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_two_machines_record_concurrently_and_read_back(self):
        # Five runs each of two machines, made from real files: the machines' recorders run at
        # the same time, each recording its files one by one (one transaction per run).
        files = {"m1": [], "m2": []}
        for machine in files:
            for i in range(5):
                files[machine].append(lib.gb_variant(
                    lib.RUN1, os.path.join(self.tmp, f"{machine}-{i}.json"), f"c0ffee00000{i}",
                    f"2026-12-0{i + 1}T10:00:00+00:00", lambda n, r, i=i: 1 + 0.01 * i,
                    machine=machine))
        procs = [subprocess.Popen([lib.PY, os.path.join(lib.TOOLS, "track"), "--db", self.url,
                                   "record", "--no-probe", *files[m]], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for m in files]
        outs = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, outs):
            self.assertEqual(p.returncode, 0, out + err)
        with store.open_store(self.url) as db:
            self.assertEqual(len(db.machines()), 2)
            for machine, paths in files.items():
                rows = db.runs(db.resolve_machine(machine), "parse_bench")
                self.assertEqual([r.commit for r in rows], [f"c0ffee00000{i}" for i in range(5)])
                for row, path in zip(rows, paths):
                    self.assertEqual(db.repetitions(row.id), importers.read(path).samples)

    def test_two_records_of_the_same_files_both_succeed(self):
        # Issue 44 item 12: the duplicate check was a SELECT that cannot see the other
        # transaction; the loser died with a UniqueViolation traceback and skipped the rest of
        # its files. Two recorders race on the same files, three times; both must succeed,
        # every file recorded once, the loser saying "already recorded".
        files = [lib.gb_variant(lib.RUN1, os.path.join(self.tmp, f"r{i}.json"),
                                f"c0ffee00001{i}", f"2026-12-0{i + 1}T10:00:00+00:00")
                 for i in range(4)]
        for attempt in range(3):
            with store.open_store(self.url) as db:  # a fresh start: nothing recorded
                for table in ("samples", "changepoint_cache", "series", "runs"):
                    db.execute(f"DELETE FROM {table}")
            procs = [subprocess.Popen([lib.PY, os.path.join(lib.TOOLS, "track"), "--db",
                                       self.url, "record", "--no-probe", *files],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for _ in range(2)]
            outs = [p.communicate(timeout=300) for p in procs]
            for p, (out, err) in zip(procs, outs):
                self.assertEqual(p.returncode, 0, f"attempt {attempt}:\n{out}{err}")
                self.assertNotIn("Traceback", err)
            said = "".join(err for _out, err in outs)
            recorded = sum(out.count("recorded /") for out, _err in outs)
            self.assertEqual(recorded + said.count("already recorded"), 2 * len(files), said)
            with store.open_store(self.url) as db:
                self.assertEqual(sorted(r.commit for r in db.runs()),
                                 [f"c0ffee00001{i}" for i in range(4)])
                for row, path in zip(db.runs(), files):
                    self.assertEqual(db.repetitions(row.id), importers.read(path).samples)

    def test_an_unreachable_server_is_one_line(self):
        url = f"postgresql://postgres:secret@127.0.0.1:{lib.free_port()}/postgres"
        proc = lib.track("import", lib.RESULTS, db=url, check=2, timeout=120)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn("cannot connect to PostgreSQL", lines[0])
        self.assertIn(f"127.0.0.1:{url.rsplit(':', 1)[1].split('/')[0]}", lines[0])
        self.assertNotIn("secret", lines[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
