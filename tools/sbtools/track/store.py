"""The store: one SQLite file in WAL mode (the default), or a PostgreSQL server shared by many
machines (`--db postgresql://...`), with the same tables (schema.py).

Every run is written in one transaction: a run is in the store whole or not at all. SQL is
written once with `?` placeholders; PostgreSQL's driver gets them as `%s`.
"""
import contextlib
import datetime as dt
import json
import os
import re
import sqlite3
import statistics
from dataclasses import dataclass

from . import TrackError
from .schema import MIGRATIONS, SCHEMA_VERSION

DB_ENV = "SOAPBENCH_TRACK_DB"  # the store when --db is not given
DATE_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # a run's date in the store, UTC (sorts as text)
_LOCK_ID = 0x50AB7  # PostgreSQL advisory lock held while a store's tables are created/migrated
_RETRIES = 3       # tries of a run's transaction that a deadlock between recorders rolled back


def default_db():
    """$SOAPBENCH_TRACK_DB, else $XDG_DATA_HOME/soapbench/track.sqlite (~/.local/share/...):
    outside any checkout, so history survives fresh clones and `git clean`."""
    if os.environ.get(DB_ENV):
        return os.environ[DB_ENV]
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return os.path.join(data, "soapbench", "track.sqlite")


def is_postgres(url):
    return url.startswith(("postgresql://", "postgres://"))


def redact(url):
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def now_utc():
    return dt.datetime.now(dt.timezone.utc).strftime(DATE_FORMAT)


class DuplicateRun(TrackError):
    """The same file (byte for byte) is already recorded: nothing to do."""


@dataclass
class RunRow:
    id: int
    machine: str
    suite: str
    commit: str
    parent: str
    merge_base: str
    branch: str
    date: str
    build_key: str
    job: str
    source: str


_RUN_COLUMNS = ("id, machine, suite, commit_sha, parent_sha, merge_base, branch, run_date, "
                "build_key, job, source")


class Store:
    """One connection to a store; SQL shared by both dialects."""
    paramstyle = "?"    # the driver's placeholder
    id_column = ""      # the auto-numbered key column's type (schema.py's {id})
    driver_error = ()   # the driver's exception class (its errors become TrackError)

    def __init__(self, name):
        self.name = name    # the path or redacted URL, for messages
        self.conn = None    # the DB-API connection (autocommit; transactions are explicit)

    # --- plumbing -------------------------------------------------------------------------
    def _sql(self, sql):
        return sql if self.paramstyle == "?" else sql.replace("?", self.paramstyle)

    def execute(self, sql, args=()):
        cur = self.conn.cursor()
        cur.execute(self._sql(sql), tuple(args))
        return cur

    def query(self, sql, args=()):
        return self.execute(sql, args).fetchall()

    def insert_many(self, table, columns, rows, conflict_ignore=False):
        cur = self.conn.cursor()
        marks = ", ".join("?" * len(columns))
        tail = " ON CONFLICT DO NOTHING" if conflict_ignore else ""
        cur.executemany(self._sql(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                                  f"{tail}"), rows)

    def _begin(self, write):
        self.execute("BEGIN")

    @contextlib.contextmanager
    def transaction(self, write=True):
        self._begin(write)
        try:
            yield
        except BaseException:
            self.execute("ROLLBACK")
            raise
        self.execute("COMMIT")

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- schema ---------------------------------------------------------------------------
    def _has_table(self, name):
        raise NotImplementedError

    def _lock_schema(self):
        """Serialises schema creation between concurrent writers (SQLite: BEGIN IMMEDIATE)."""

    def ensure_schema(self):
        """Creates the tables of a new store, migrates an older one, refuses a newer one."""
        with self.transaction():
            self._lock_schema()
            version = 0
            if self._has_table("meta"):
                row = self.query("SELECT value FROM meta WHERE key = 'schema_version'")
                version = int(row[0][0]) if row else 0
            if version > SCHEMA_VERSION:
                raise TrackError(
                    f"{self.name}: written by a newer tools/track (schema version {version}, this "
                    f"one knows {SCHEMA_VERSION}): update tools/track; nothing was written")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for step in MIGRATIONS[v]:
                    if callable(step):
                        step(self)
                    else:
                        self.execute(step.replace("{id}", self.id_column))
            if version < SCHEMA_VERSION:
                self.execute("DELETE FROM meta WHERE key = 'schema_version'")
                self.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                             (str(SCHEMA_VERSION),))

    # --- runs -----------------------------------------------------------------------------
    def add_run(self, run, env):
        """Writes a run (importers.Run) and its environment (fingerprint.environment) in one
        transaction; returns its id. DuplicateRun for a file already recorded (also by another
        recorder at the same moment: the database's uniqueness decides, not a prior look),
        TrackError for another file claiming the same run or a store that refused it."""
        for attempt in range(_RETRIES):
            try:
                return self._add_run(run, env)
            except self.driver_error as e:
                if attempt + 1 < _RETRIES and self._retryable(e):
                    continue  # a deadlock between two recorders: one of them tries again
                raise TrackError(f"{run.source}: the store {self.name} refused it: "
                                 f"{(str(e).strip().splitlines() or ['?'])[0]}; nothing "
                                 "written") from e
        raise AssertionError("unreachable")

    def _add_run(self, run, env):
        with self.transaction():
            git = env.get("git", {})
            row = self.execute(
                "INSERT INTO runs (digest, machine, machine_id, suite, commit_sha, parent_sha, "
                "merge_base, branch, run_date, recorded_at, build_key, job, source, context, "
                "environment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (run.digest, run.machine, run.machine_id, run.suite, run.commit,
                 git.get("parent"), git.get("merge_base"), git.get("branch"), run.date,
                 now_utc(), run.build_key, env.get("job"), run.source,
                 json.dumps(run.context, sort_keys=True),
                 json.dumps(env, sort_keys=True))).fetchone()
            if row is None:
                raise self._conflict(run)
            run_id = row[0]
            ids = self._series_ids(run.machine, run.suite, run.samples.keys())
            self.insert_many("samples", ("series_id", "run_id", "n", "median", "reps"),
                             [(ids[key], run_id, len(reps), statistics.median(reps), json.dumps(reps))
                              for key, reps in run.samples.items()])
        return run_id

    def _conflict(self, run):
        """Why a run's row was not inserted: the same file recorded (DuplicateRun), or another
        file of the same run (TrackError). Read after the conflict, so a run another recorder
        just committed is seen."""
        dup = self.query("SELECT id, source FROM runs WHERE digest = ?", (run.digest,))
        if dup:
            return DuplicateRun(f"{run.source}: already recorded (run {dup[0][0]}, from "
                                f"{dup[0][1]}); nothing written")
        clash = self.query("SELECT id, source FROM runs WHERE machine = ? AND suite = ? AND "
                           "run_date = ? AND commit_sha = ?",
                           (run.machine, run.suite, run.date, run.commit))
        where = f"run {clash[0][0]} from {clash[0][1]}" if clash else "another run"
        return TrackError(f"{run.source}: a different file of the same run ({run.suite} of "
                          f"machine {run.machine} at {run.date}, commit {run.commit}) is "
                          f"recorded as {where}; nothing written")

    def _retryable(self, error):
        return False

    def _series_ids(self, machine, suite, keys):
        """{(benchmark, metric): series id}, creating the series that are new."""
        def known():
            return {(b, m): i for i, b, m in self.query(
                "SELECT id, benchmark, metric FROM series WHERE machine = ? AND suite = ?",
                (machine, suite))}
        ids = known()
        missing = sorted(k for k in keys if k not in ids)  # one order: no deadlock
        if missing:
            self.insert_many("series", ("machine", "suite", "benchmark", "metric"),
                             [(machine, suite, b, m) for b, m in missing], conflict_ignore=True)
            ids = known()
        return ids

    def runs(self, machine=None, suite=None):
        """[RunRow] oldest first (by run date)."""
        where, args = _where(machine=machine, suite=suite)
        return [RunRow(*row) for row in self.query(
            f"SELECT {_RUN_COLUMNS} FROM runs{where} ORDER BY run_date, id", args)]

    def run_details(self, run_id):
        """(context, environment) of a run, parsed."""
        row = self.query("SELECT context, environment FROM runs WHERE id = ?", (run_id,))
        return (json.loads(row[0][0]), json.loads(row[0][1])) if row else ({}, {})

    def machines(self):
        return [r[0] for r in self.query("SELECT DISTINCT machine FROM runs ORDER BY machine")]

    def machine_ids(self, machine):
        """{machine_id: compiler} of the files recorded for a machine (results/ folder names)."""
        out = {}
        for mid, ctx in self.query("SELECT machine_id, context FROM runs WHERE machine = ? "
                                   "ORDER BY run_date", (machine,)):
            if mid:
                out[mid] = json.loads(ctx).get("compiler") or out.get(mid)
        return out

    def machine_of(self, machine_id):
        """The machine the store's files of a machine_id were measured on, None if unknown."""
        rows = self.query("SELECT DISTINCT machine FROM runs WHERE machine_id = ? AND "
                          "machine != machine_id", (machine_id,))
        return rows[0][0] if len(rows) == 1 else None

    def resolve_machine(self, name):
        """A machine as the user names it: the tracker's machine, or a file's machine_id (the
        results/ folder name) of one."""
        if name is None or name in self.machines():
            return name
        rows = self.query("SELECT DISTINCT machine FROM runs WHERE machine_id = ?", (name,))
        return rows[0][0] if len(rows) == 1 else name

    def count(self, table):
        return self.query(f"SELECT COUNT(*) FROM {table}")[0][0]

    # --- series ---------------------------------------------------------------------------
    def series(self, machine=None, suite=None, metrics=None):
        """[(id, machine, suite, benchmark, metric)]."""
        where, args = _where(machine=machine, suite=suite)
        if metrics:
            where += (" AND " if where else " WHERE ") + \
                f"metric IN ({', '.join('?' * len(metrics))})"
            args += list(metrics)
        return self.query(f"SELECT id, machine, suite, benchmark, metric FROM series{where} "
                          "ORDER BY machine, suite, benchmark, metric", args)

    def medians(self, machine, suite, metrics):
        """{series id: {run id: median}} of one machine and suite."""
        out = {}
        rows = self.query(
            "SELECT s.series_id, s.run_id, s.median FROM samples s JOIN series se ON "
            f"se.id = s.series_id WHERE se.machine = ? AND se.suite = ? AND se.metric IN "
            f"({', '.join('?' * len(metrics))})", [machine, suite, *metrics])
        for sid, rid, med in rows:
            out.setdefault(sid, {})[rid] = med
        return out

    def repetitions(self, run_id):
        """{(benchmark, metric): [values]} of one run."""
        return {(b, m): json.loads(reps) for b, m, reps in self.query(
            "SELECT se.benchmark, se.metric, s.reps FROM samples s JOIN series se ON "
            "se.id = s.series_id WHERE s.run_id = ?", (run_id,))}

    # --- gate verdicts and the change-point cache ---------------------------------------------
    def add_verdict(self, machine, commit, base, verdict, summary, details):
        with self.transaction():
            self.execute("INSERT INTO verdicts (created_at, machine, commit_sha, base_sha, verdict, "
                         "summary, details) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (now_utc(), machine, commit, base, verdict, summary,
                          json.dumps(details, sort_keys=True)))

    def verdicts(self, limit=20):
        return [(c, m, h, b, v, s, json.loads(d)) for c, m, h, b, v, s, d in self.query(
            "SELECT created_at, machine, commit_sha, base_sha, verdict, summary, details FROM "
            "verdicts ORDER BY id DESC LIMIT ?", (limit,))]

    def cached_changes(self, series_ids):
        """{series id: (runs key, result JSON)}."""
        out = {}
        ids = list(series_ids)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            for sid, key, result in self.query(
                    "SELECT series_id, runs_key, result FROM changepoint_cache WHERE series_id IN "
                    f"({', '.join('?' * len(chunk))})", chunk):
                out[sid] = (key, result)
        return out

    def cache_changes(self, rows):
        """rows: [(series id, runs key, result JSON)], replacing older entries."""
        if not rows:
            return
        with self.transaction():
            ids = [r[0] for r in rows]
            for i in range(0, len(ids), 500):
                chunk = ids[i:i + 500]
                self.execute("DELETE FROM changepoint_cache WHERE series_id IN "
                             f"({', '.join('?' * len(chunk))})", chunk)
            self.insert_many("changepoint_cache", ("series_id", "runs_key", "result"), rows)


    # --- retention ----------------------------------------------------------------------------
    def prune(self, keep_runs=None, before=None, keep_verdicts=None, dry_run=False):
        """Removes the runs beyond the newest keep_runs of each machine and suite and those
        dated before `before` (YYYY-MM-DDTHH:MM:SSZ), with their samples, the series left
        without any and their cached change points, and the verdicts beyond the newest
        keep_verdicts; in one transaction (dry_run: rolled back). {what: how many}."""
        gone = set()
        if keep_runs is not None:
            for machine, suite in self.query("SELECT DISTINCT machine, suite FROM runs"):
                rows = self.query("SELECT id FROM runs WHERE machine = ? AND suite = ? ORDER BY "
                                  "run_date DESC, id DESC", (machine, suite))
                gone.update(r[0] for r in rows[keep_runs:])
        if before:
            gone.update(r[0] for r in self.query("SELECT id FROM runs WHERE run_date < ?",
                                                 (before,)))
        counts = {"runs": len(gone), "samples": 0, "series": 0, "verdicts": 0}
        try:
            with self.transaction():
                ids = sorted(gone)
                for i in range(0, len(ids), 500):
                    chunk = ids[i:i + 500]
                    marks = ", ".join("?" * len(chunk))
                    counts["samples"] += self.query(
                        f"SELECT COUNT(*) FROM samples WHERE run_id IN ({marks})", chunk)[0][0]
                    self.execute("DELETE FROM changepoint_cache WHERE series_id IN (SELECT "
                                 f"series_id FROM samples WHERE run_id IN ({marks}))", chunk)
                    self.execute(f"DELETE FROM samples WHERE run_id IN ({marks})", chunk)
                    self.execute(f"DELETE FROM runs WHERE id IN ({marks})", chunk)
                empty = "NOT EXISTS (SELECT 1 FROM samples s WHERE s.series_id = series.id)"
                counts["series"] = self.query(f"SELECT COUNT(*) FROM series WHERE {empty}")[0][0]
                self.execute(f"DELETE FROM series WHERE {empty}")
                if keep_verdicts is not None:
                    old = [r[0] for r in self.query("SELECT id FROM verdicts ORDER BY id DESC")
                           [keep_verdicts:]]
                    counts["verdicts"] = len(old)
                    for i in range(0, len(old), 500):
                        chunk = old[i:i + 500]
                        self.execute(f"DELETE FROM verdicts WHERE id IN "
                                     f"({', '.join('?' * len(chunk))})", chunk)
                if dry_run:
                    raise _DryRun()
        except _DryRun:
            return counts
        self.compact()
        return counts

    def compact(self):
        """Gives the space of removed rows back (SQLite: VACUUM; PostgreSQL's autovacuum)."""

    def size(self):
        """The store's size in bytes, None when it cannot tell."""
        return None


class _DryRun(Exception):
    """Rolls a prune back after counting what it would remove."""


def _where(**filters):
    parts = [(k, v) for k, v in filters.items() if v is not None]
    if not parts:
        return "", []
    return " WHERE " + " AND ".join(f"{k} = ?" for k, _v in parts), [v for _k, v in parts]


class SqliteStore(Store):
    """A SQLite file in WAL mode: readers never wait for the writer, a crash loses no commit."""
    paramstyle = "?"
    id_column = "INTEGER PRIMARY KEY"
    driver_error = sqlite3.Error

    def __init__(self, path, create=True):
        super().__init__(path)
        if not create and not os.path.exists(path):
            raise TrackError(f"{path}: no store there (tools/track import results, or record, "
                             "creates it)")
        try:
            if create:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self.conn = sqlite3.connect(path, timeout=60, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.ensure_schema()
        except sqlite3.DatabaseError as e:
            self.close()
            raise TrackError(f"{path}: not a usable SQLite store: {e}") from e
        except OSError as e:
            raise TrackError(f"{path}: cannot open the store: {e.strerror}") from e

    def _begin(self, write):
        # IMMEDIATE: take the write lock now, so two recorders queue instead of failing later.
        self.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    def _has_table(self, name):
        return bool(self.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                               (name,)))

    def compact(self):
        self.execute("VACUUM")
        self.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def size(self):
        return sum(os.path.getsize(p) for p in (self.name, self.name + "-wal")
                   if os.path.exists(p))


class PostgresStore(Store):
    """A PostgreSQL database (python3-psycopg2) shared by every machine that records into it."""
    paramstyle = "%s"
    id_column = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"

    def __init__(self, url, create=True):
        super().__init__(redact(url))
        try:
            import psycopg2  # Debian python3-psycopg2; only a PostgreSQL store needs it
            import psycopg2.extras
        except ImportError as e:
            raise TrackError(f"{self.name}: python3-psycopg2 is not installed "
                             "(tools/setup.sh installs it)") from e
        self._extras = psycopg2.extras  # execute_values: one round trip per page of rows
        self.driver_error = psycopg2.Error
        try:
            self.conn = psycopg2.connect(url, connect_timeout=10)
            self.conn.autocommit = True
        except psycopg2.Error as e:
            reason = (str(e).strip().splitlines() or ["unknown error"])[0]
            raise TrackError(f"{self.name}: cannot connect to PostgreSQL: {reason}") from e
        try:
            self.ensure_schema()
        except psycopg2.Error as e:
            self.close()
            raise TrackError(f"{self.name}: {str(e).strip().splitlines()[0]}") from e

    def insert_many(self, table, columns, rows, conflict_ignore=False):
        tail = " ON CONFLICT DO NOTHING" if conflict_ignore else ""
        self._extras.execute_values(
            self.conn.cursor(), f"INSERT INTO {table} ({', '.join(columns)}) VALUES %s{tail}",
            rows, page_size=2000)

    def _lock_schema(self):
        self.execute("SELECT pg_advisory_xact_lock(?)", (_LOCK_ID,))

    def _retryable(self, error):
        # deadlock_detected, serialization_failure: the transaction was rolled back whole.
        return getattr(error, "pgcode", None) in ("40P01", "40001")

    def _has_table(self, name):
        return self.query("SELECT to_regclass(?)", (name,))[0][0] is not None

    def size(self):
        return self.query("SELECT pg_database_size(current_database())")[0][0]


def open_store(url=None, create=True):
    """The store at url (a path or postgresql://...; default: default_db())."""
    url = url or default_db()
    if is_postgres(url):
        return PostgresStore(url, create)
    return SqliteStore(url, create)
