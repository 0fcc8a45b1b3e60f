"""The store's tables, the same in SQLite and PostgreSQL, and how an older store is migrated.

A run is one result file as recorded: its context and environment as JSON, every repetition of
every benchmark and metric in `samples` (one row per run and series: the repetitions as a JSON
list, and their median for the queries that draw and test series). `verdicts` keeps what the
gate said; `changepoint_cache` what change-point detection found for a series' history (keyed
by the runs it saw, so only series with new runs are computed again).
"""

SCHEMA_VERSION = 1

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

# version -> the statements that bring a store of version - 1 to it (1: a new store).
MIGRATIONS = {1: _V1}
