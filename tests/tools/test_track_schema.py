#!/usr/bin/python3
"""sbtools.track.schema (label unit): a new store gets every table at the current version, and a
version-1 store (a run's machine was its file's machine_id, which names the compiler) is
migrated: runs move to their hardware's id and keep their machine_id, the series of ids that are
one machine merge with their samples, verdicts follow."""
import json
import sqlite3

from tools_common import Tmp, main
from sbtools import gbench
from sbtools.track import schema, store

HARDWARE = {"cpu_model": "AMD EPYC", "cpu_cores": 2, "caches": "L1d 32K"}
TABLES = {"meta", "runs", "series", "samples", "verdicts", "changepoint_cache"}


class SchemaTest(Tmp):
    def tables(self, path):
        with sqlite3.connect(path) as conn:
            return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def test_a_new_store_is_at_the_current_version(self):
        path = self.path("new.sqlite")
        store.open_store(path).close()
        self.assertEqual(self.tables(path), TABLES)
        with sqlite3.connect(path) as conn:
            version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            columns = [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
        self.assertEqual(int(version[0]), schema.SCHEMA_VERSION)
        self.assertIn("machine_id", columns)

    def version_1_store(self, path):
        """Two runs of one machine under two compilers (machine ids a1 and b2), a series each
        for the same benchmark, a verdict: as tools/track wrote them at schema version 1."""
        with sqlite3.connect(path) as conn:
            for step in schema.MIGRATIONS[1]:
                conn.execute(step.replace("{id}", store.SqliteStore.id_column))
            conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
            for rid, machine in ((1, "a1"), (2, "b2")):
                ctx = dict(HARDWARE, machine_id=machine)
                conn.execute("INSERT INTO runs (id, digest, machine, suite, commit_sha, run_date, "
                             "recorded_at, source, context, environment) VALUES "
                             "(?, ?, ?, 'parse_bench', ?, ?, 'now', 'f', ?, '{}')",
                             (rid, f"d{rid}", machine, f"c{rid}", f"2026-12-0{rid}",
                              json.dumps(ctx)))
                conn.execute("INSERT INTO series VALUES (?, ?, 'parse_bench', 'parse/x', "
                             "'real_time')", (rid, machine))
                conn.execute("INSERT INTO samples VALUES (?, ?, 1, 5.0, '[5.0]')", (rid, rid))
            conn.execute("INSERT INTO verdicts (created_at, machine, commit_sha, verdict, summary, "
                         "details) VALUES ('now', 'a1', 'c2', 'PASS', '', '{}')")

    def test_a_version_1_store_is_migrated_to_hardware_machines(self):
        path = self.path("old.sqlite")
        self.version_1_store(path)
        store.open_store(path).close()
        hardware = gbench.hardware_id(HARDWARE)
        with sqlite3.connect(path) as conn:
            self.assertEqual(conn.execute("SELECT machine, machine_id FROM runs ORDER BY id")
                             .fetchall(), [(hardware, "a1"), (hardware, "b2")])
            self.assertEqual(conn.execute("SELECT id, machine FROM series").fetchall(),
                             [(1, hardware)])
            self.assertEqual(conn.execute("SELECT series_id, run_id FROM samples ORDER BY run_id")
                             .fetchall(), [(1, 1), (1, 2)])
            self.assertEqual(conn.execute("SELECT machine FROM verdicts").fetchall(),
                             [(hardware,)])
            self.assertEqual(conn.execute("SELECT value FROM meta WHERE key='schema_version'")
                             .fetchone()[0], str(schema.SCHEMA_VERSION))

    def test_every_version_has_its_steps(self):
        self.assertEqual(sorted(schema.MIGRATIONS), list(range(1, schema.SCHEMA_VERSION + 1)))


if __name__ == "__main__":
    main()
