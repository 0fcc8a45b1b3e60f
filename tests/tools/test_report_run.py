#!/usr/bin/python3
"""sbtools.report.run (label unit): one report's inputs: the documents of other tools read (or
why not), and the line a section drawn from another run's document starts with: none for the
committed run of bab0702471ef's own instruction counts or a document of its commit, one naming
the date and commit of an older matrix, taken from its stored name when it has no other."""
import os

from tools_common import REPO, Tmp, dump, main
from sbtools.report.data import Data
from sbtools.report.run import SOURCES, Run

BAB = os.path.join(REPO, "results", "bab0702471ef")
FILES = [os.path.join(BAB, "20261202-174809_6790742da1f5.parse_bench.json")]
ICOUNT = os.path.join(REPO, "results", "icount", "18c92917448a",
                      "20261202-175341_6790742da1f5.json")


class RunTest(Tmp):
    def run_of(self, **paths):
        data = Data(FILES)
        if "icount" in paths:
            data.load_icount(paths["icount"])
        return Run(data, paths, ["--x"], self.tmp, True)

    def test_what_it_holds(self):
        run = self.run_of()
        self.assertEqual(run.sha, "6790742da1f5")
        self.assertEqual(run.start.strftime("%Y-%m-%d %H:%M"), "2026-12-02 17:48")
        self.assertEqual(run.argv, ["--x"])
        self.assertIn("xmlrpc", run.rank)
        self.assertEqual(sorted(SOURCES), ["conformance", "conformance_suites", "interop", "load",
                                           "server_load", "wild"])

    def test_a_document_read_or_the_reason(self):
        good = dump({"tool": "soapbench interop", "cells": []}, self.path("interop.json"))
        bad = self.path("cut.json")
        with open(bad, "w") as f:
            f.write('{"cells": [')
        run = self.run_of(interop=good, conformance=bad, load=self.path("none.json"))
        self.assertEqual(run.read("interop"), (good, {"tool": "soapbench interop", "cells": []},
                                               None))
        path, doc, error = run.read("conformance")
        self.assertEqual((path, doc), (bad, None))
        self.assertIn("cut.json", error)
        self.assertIsNone(run.read("load"))
        self.assertIsNone(run.read("server_load"))

    def test_the_note_of_a_document_from_another_run(self):
        doc = {"tool": "soapbench conformance", "git_sha": "abcdef123456",
               "context": {"date": "2026-11-30T10:00:00+00:00"}, "cases": []}
        run = self.run_of(icount=ICOUNT, conformance=dump(doc, self.path("conformance.json")))
        self.assertEqual(run.stale_note("icount"), "")  # counted at the run's own commit
        self.assertEqual(run.stale_note("conformance"),
                         f"*Not from this run: `{self.path('conformance.json')}` was written "
                         "2026-11-30 10:00 UTC at commit `abcdef123456`, before the benchmark "
                         "run this report is about (2026-12-02 17:48 UTC, commit "
                         "`6790742da1f5`).*")
        self.assertEqual(run.stale_note("interop"), "")  # none given

    def test_a_document_of_the_same_commit_is_this_runs_else_its_name_tells(self):
        doc = {"tool": "soapbench interop", "git_sha": "6790742da1f5-dirty", "cells": []}
        run = self.run_of(interop=dump(doc, self.path("20200101-000000_x.interop.json")))
        self.assertEqual(run.stale_note("interop"), "")
        older = dict(doc, git_sha=None)
        run = self.run_of(interop=dump(older, self.path("20200101-000000_unknown.interop.json")))
        self.assertIn("was written 2020-01-01 00:00 UTC at commit `unknown`, before",
                      run.stale_note("interop"))


if __name__ == "__main__":
    main()
