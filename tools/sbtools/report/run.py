"""One report's inputs: the benchmark files (Data), the files drawn from other runs (matrices,
load runs, instruction counts) and whether each is older than the run."""
import os

from sbtools import gbench, store
from sbtools.gbench import ResultError
from sbtools.paths import rel
from sbtools.report.data import Data, decode_ranking

# The documents of other tools a section is drawn from, by the --option that names them.
SOURCES = {"conformance": "soapbench conformance",
           "conformance_suites": "soapbench conformance --suite", "interop": "soapbench interop",
           "server_load": "tools/server_load", "load": "tools/load_bench", "wild": "tools/wild"}
# The counts kept per build (results/<source>/<build-key>/), found by the run's build key.
COUNTS = ("icount", "callcount")


class Run:
    """What the sections compute from: data (Data), its round trips and decode ranking, the
    paths of the other documents, and the command line (for the reproduction section)."""

    def __init__(self, data, paths, argv, out_dir, explicit_out):
        self.data = data                  # the benchmark files
        self.rt = data.roundtrip()        # {(variant, family, parser, call): Result}
        self.rank = decode_ranking(data)  # {family: [(adapter, ratio, n files)]}
        self.paths = paths                # source name -> path or None (SOURCES, "icount")
        self.argv = argv                  # tools/report's arguments
        self.out_dir = out_dir            # where report.md goes
        self.explicit_out = explicit_out  # --out-dir was given
        dates = [gbench.parse_date(gbench.context(d).get("date", "")) for _p, d in data.docs]
        self.start = min((d for d in dates if d), default=None)  # the run's first file's date
        self.sha = data.ctx.get("git_sha")  # the run's commit
        self.status = ""                    # the run's state, shown first (tools/report --status)

    def read(self, source):
        """(path, document, error) of a source: document None and the reason when it cannot be
        read; None when there is no such file."""
        path = self.paths.get(source)
        if not path or not os.path.exists(path):
            return None
        try:
            return path, gbench.load_json(path), None
        except ResultError as e:
            return path, None, str(e)

    def stale_note(self, source):
        """The line a section drawn from another run's document starts with, or ''."""
        path = self.paths.get(source)
        if source == "icount":
            doc = self.data.icount_doc
        else:
            got = self.read(source)
            doc = got[1] if got else None
        if not path or not isinstance(doc, dict):
            return ""
        when, sha = store.file_origin(path, doc)
        base_sha = lambda s: str(s or "").replace("-dirty", "")  # noqa: E731
        if sha and self.sha:
            older = base_sha(sha) != base_sha(self.sha)
        else:
            older = when is not None and self.start is not None and when < self.start
        if not older:
            return ""
        at = when.strftime("%Y-%m-%d %H:%M UTC") if when else "an unknown date"
        run_at = self.start.strftime("%Y-%m-%d %H:%M UTC") if self.start else "?"
        order = "before" if when and self.start and when < self.start else "apart from"
        return (f"*Not from this run: `{rel(path)}` was written {at} at commit "
                f"`{sha or 'unknown'}`, {order} the benchmark run this report is about "
                f"({run_at}, commit `{self.sha or '?'}`).*")
