"""The store's tables, the same in SQLite and PostgreSQL, and how an older store is migrated.

A run is one result file as recorded: its context and environment as JSON, every repetition of
every benchmark and metric in `samples` (one row per run and series: the repetitions as a JSON
list, and their median for the queries that draw and test series). `verdicts` keeps what the
gate said; `changepoint_cache` what change-point detection found for a series' history (keyed
by the runs it saw, so only series with new runs are computed again).
"""

import json

from sbtools import gbench

SCHEMA_VERSION = 2

# {id}: the auto-numbered key column, spelled per dialect (store.py fills it in).
_V1 = [
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL)""",
    """CREATE TABLE runs (
        id {id},
        digest TEXT NOT NULL UNIQUE,
        machine TEXT NOT NULL,
        suite TEXT NOT NULL,
        commit_sha TEXT NOT NULL,
        parent_sha TEXT,
        merge_base TEXT,
        branch TEXT,
        run_date TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        build_key TEXT,
        job TEXT,
        source TEXT NOT NULL,
        context TEXT NOT NULL,
        environment TEXT NOT NULL,
        UNIQUE (machine, suite, run_date, commit_sha))""",
    "CREATE INDEX runs_by_machine ON runs (machine, suite, run_date)",
    """CREATE TABLE series (
        id {id},
        machine TEXT NOT NULL,
        suite TEXT NOT NULL,
        benchmark TEXT NOT NULL,
        metric TEXT NOT NULL,
        UNIQUE (machine, suite, benchmark, metric))""",
    """CREATE TABLE samples (
        series_id BIGINT NOT NULL REFERENCES series (id),
        run_id BIGINT NOT NULL REFERENCES runs (id),
        n INTEGER NOT NULL,
        median DOUBLE PRECISION NOT NULL,
        reps TEXT NOT NULL,
        PRIMARY KEY (series_id, run_id))""",
    "CREATE INDEX samples_by_run ON samples (run_id)",
    """CREATE TABLE verdicts (
        id {id},
        created_at TEXT NOT NULL,
        machine TEXT NOT NULL,
        commit_sha TEXT NOT NULL,
        base_sha TEXT,
        verdict TEXT NOT NULL,
        summary TEXT NOT NULL,
        details TEXT NOT NULL)""",
    """CREATE TABLE changepoint_cache (
        series_id BIGINT PRIMARY KEY REFERENCES series (id),
        runs_key TEXT NOT NULL,
        result TEXT NOT NULL)""",
]



def _hardware_machines(store):
    """Version 2: a run's machine is its hardware (gbench.hardware_id), not its machine_id,
    which names the compiler too: a compiler upgrade no longer starts new series. Each run
    keeps its file's machine_id in its own column; a machine set by --machine stays; a matrix
    (only a machine_id) joins the hardware its id's other runs name; the series of ids that
    are one machine are merged (their runs are distinct, so their samples never collide)."""
    runs = store.query("SELECT id, machine, context FROM runs")
    new, ids = {}, {}    # old machine -> hardware; run id -> its file's machine_id
    for rid, machine, ctx in runs:
        ctx = json.loads(ctx)
        ids[rid] = str(ctx.get("machine_id") or machine)
        if ids[rid] == machine and gbench.hardware_id(ctx):
            new[machine] = gbench.hardware_id(ctx)
    for rid, machine, _ctx in runs:
        store.execute("UPDATE runs SET machine = ?, machine_id = ? WHERE id = ?",
                      (new.get(machine, machine), ids[rid], rid))
    survivors = {}
    for sid, machine, suite, bench, met in store.query(
            "SELECT id, machine, suite, benchmark, metric FROM series ORDER BY id"):
        key = (new.get(machine, machine), suite, bench, met)
        if key not in survivors:
            survivors[key] = sid
            store.execute("UPDATE series SET machine = ? WHERE id = ?", (key[0], sid))
            continue
        store.execute("UPDATE samples SET series_id = ? WHERE series_id = ?", (survivors[key], sid))
        store.execute("DELETE FROM changepoint_cache WHERE series_id IN (?, ?)",
                      (sid, survivors[key]))
        store.execute("DELETE FROM series WHERE id = ?", (sid,))
    for old, hardware in new.items():
        store.execute("UPDATE verdicts SET machine = ? WHERE machine = ?", (hardware, old))


_V2 = ["ALTER TABLE runs ADD COLUMN machine_id TEXT", _hardware_machines,
       "CREATE INDEX runs_by_machine_id ON runs (machine_id)"]

# version -> the steps (SQL, or a function of the store) that bring a store of version - 1 to
# it (1: a new store).
MIGRATIONS = {1: _V1, 2: _V2}
