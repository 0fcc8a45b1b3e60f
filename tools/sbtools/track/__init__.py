"""sbtools.track: benchmark history, change points, the regression gate and the dashboard.

tools/track is the entry point (cli.py). The modules, in the order data flows:
  importers      result files (Google Benchmark JSON, tools/icount files, the matrices) -> Run
  fingerprint    what recording adds: this machine, its Debian packages, the commit's git facts
  schema, store  the store: SQLite (WAL) or PostgreSQL, one transaction per run
  history        series out of the store, with their change points (cached in the store)
  changepoints   E-divisive means with a permutation test (Matteson & James 2014)
  stats          Hodges-Lehmann, Mann-Whitney, Benjamini-Hochberg, the noise floor
  attribution    what changed between two runs: commits, build-key fields, packages, machine
  gate           a run judged against the history; summary: its Markdown and annotations
  ab, ab_runs    tools/track ab: two build trees timed round by round (duet or interleaved),
  ab_report      decided by sbtools.sequential; its text, Markdown, annotations and JSON
  site           the static dashboard (Chart.js from Debian's libjs-chart.js, copied in)
  study          the tracker measured on itself (tools/track_study; ab_study: the A/B's)
"""


class TrackError(Exception):
    """Bad input or an unusable store: the message is one line for the user, naming the file
    or URL and the reason."""
