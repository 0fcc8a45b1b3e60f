#!/usr/bin/python3
"""Where tools/report takes the documents of other tools from (issue 25, items 4 and 9): the
instruction counts from results/icount/<build-key>/ by build, the newest of the matrices and load
runs tools/results keeps per run, and a note at the top of a section drawn from another run's
document with its date and commit (label unit)."""
import os
import re
import unittest

from tools_common import BUILD, RUN1, ROUNDTRIP, Tmp, build_key, dump, load, main, tool  # noqa: E402

RUN_DATE = "2026-11-29T22:15:02+00:00"   # the samples' context date
RUN_SHA = "ce90aae04665-dirty"           # and commit


class SourcesTest(Tmp):
    def setUp(self):
        super().setUp()
        self.results = self.path("results")
        self.mid = load(RUN1)["context"]["machine_id"]
        self.mdir = os.path.join(self.results, self.mid)
        tool("results", "--results-dir", self.results, "save", RUN1, ROUNDTRIP, check=0)

    def report(self):
        tool("report", "--results-dir", self.results, "--machine", self.mid, "--no-charts",
             check=0)
        with open(os.path.join(self.mdir, "report.md"), encoding="utf-8") as f:
            return f.read()

    @staticmethod
    def section(text, title):
        return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0].strip()

    def icount(self, name, sha, date, ctx=None, count=1000400.0):
        """A tools/icount file of the samples' build in results/icount/<key>/."""
        ctx = dict(ctx or load(RUN1)["context"], git_sha=sha, date=date)
        key = build_key(BUILD)
        doc = {"context": ctx, "icount": {"iterations": 10, "build_key": key, "build": BUILD},
               "instructions": {"parse/pugixml-dom-direct/xmlrpc/respond.64KB.response": 1e6,
                                "parse/pugixml-dom/xmlrpc/respond.64KB.response": count}}
        path = os.path.join(self.results, "icount", key, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        dump(doc, path)
        return os.path.relpath(path, self.results)

    def test_counts_of_the_runs_build_and_commit(self):
        text = self.report()
        self.assertIn("No instruction counts of this run's build are stored in", text)
        # Another compiler's counts are not this build's; the run's own commit's are taken over
        # a newer file of another commit.
        other = dict(load(RUN1)["context"], compiler="clang 14.0.6")
        self.icount("20261130-000000_0000aaaa0000.json", "0000aaaa0000", "2026-11-30T00:00:00Z",
                    ctx=other, count=2e6)
        self.assertIn("No instruction counts of this run's build", self.report())
        mine = self.icount("20261129-221600_ce90aae04665-dirty.json", RUN_SHA,
                           "2026-11-29T22:16:00+00:00")
        self.icount("20261201-000000_1111bbbb1111.json", "1111bbbb1111", "2026-12-01T00:00:00Z",
                    count=1000800.0)
        text = self.report()
        self.assertIn(f"instructions per iteration: `{mine}`", text.replace(self.results + "/", ""))
        self.assertIn("`pugixml/dom` +0.04% in instructions", text)
        self.assertNotIn("Not from this run", text)

    def test_counts_of_an_older_commit_say_so(self):
        self.icount("20261128-100000_0123456789ab.json", "0123456789ab", "2026-11-28T10:00:00Z")
        text = self.report()
        overhead = self.section(text, "Adapter overhead vs direct calls")
        self.assertRegex(overhead.split("\n")[0],
                         r"^\*Not from this run: `.*20261128-100000_0123456789ab\.json` was "
                         r"written 2026-11-28 10:00 UTC at commit `0123456789ab`, before the "
                         r"benchmark run this report is about \(2026-11-29 22:15 UTC, commit "
                         r"`ce90aae04665-dirty`\)\.\*$")
        self.assertIn("+0.04% in instructions", overhead)

    def test_an_older_load_run_says_so_and_the_runs_own_does_not(self):
        doc = {"tool": "tools/load_bench", "machine_id": self.mid, "runs": [], "capacity": None,
               "context": {"date": "2026-11-20T08:00:00Z", "command": "tools/load_bench"}}
        dump(doc, self.path("load_bench.json"))
        tool("results", "--results-dir", self.results, "save", self.path("load_bench.json"),
             check=0)
        section = self.section(self.report(), "Load: transactions per second against concurrency")
        self.assertRegex(section, r"^\*Not from this run: `.*20261120-080000_unknown\.load_bench"
                                  r"\.json` was written 2026-11-20 08:00 UTC at commit `unknown`, "
                                  r"before the benchmark run")
        # A load run after the benchmarks, at their commit: no note.
        doc["context"].update(date="2026-11-29T23:00:00Z", git_sha=RUN_SHA)
        dump(doc, self.path("load_bench.json"))
        tool("results", "--results-dir", self.results, "save", self.path("load_bench.json"),
             check=0)
        section = self.section(self.report(), "Load: transactions per second against concurrency")
        self.assertTrue(section.startswith("From `"), section[:200])

    def test_matrices_kept_per_run_and_the_newest_read(self):
        def conformance(sha, adapter, when):
            doc = {"tool": "soapbench conformance", "machine_id": self.mid, "git_sha": sha,
                   "level": "walk", "records": [
                       {"adapter": adapter, "file": "corpus/hostile/xml/deep.xml", "mode": "policy",
                        "error_class": "depth", "result": "rejected", "time_ns": 1000}]}
            path = self.path("conformance.json")
            dump(doc, path)
            os.utime(path, (when, when))  # soapbench conformance writes no date: the file's
            tool("results", "--results-dir", self.results, "save", path, check=0)
        conformance("0000aaaa0000", "pugixml/dom", 1764000000)     # 2025-11-24
        conformance(RUN_SHA, "expat/sax", 1764500000)              # 2025-11-30
        kept = sorted(f for f in os.listdir(self.mdir) if f.endswith(".conformance.json"))
        self.assertEqual(kept, ["20251124-160000_0000aaaa0000.conformance.json",
                                "20251130-105320_ce90aae04665-dirty.conformance.json"])
        section = self.section(self.report(), "Conformance: hostile inputs")
        self.assertIn("`expat-sax`", section)          # the newest
        self.assertNotIn("`pugixml-dom`", section)
        self.assertNotIn("Not from this run", section)  # the run's commit
        # The benchmark runs are still told apart from these: the report reads only its benchmarks.
        command = re.search(r"\ntools/report (.*)\n", self.report()).group(1)
        self.assertEqual([os.path.basename(p).split(".", 1)[1] for p in command.split()],
                         ["parse_bench.json", "roundtrip_bench.json"])
        listed = tool("results", "--results-dir", self.results, "list", check=0).stdout
        self.assertIn("conformance: 2 kept, newest 20251130-105320_", listed)

    def test_an_old_folders_single_document_is_still_read(self):
        dump({"tool": "soapbench interop", "context": {"git_sha": "0000aaaa0000", "only": "all"},
              "cells": [{"family": "xmlrpc", "client": "soapbench", "server": "soapbench",
                         "operation": "add", "status": "ok"}]},
             os.path.join(self.mdir, "interop.json"))
        section = self.section(self.report(), "Interop")
        self.assertTrue(section.startswith("*Not from this run: `"), section[:300])
        self.assertIn("at commit `0000aaaa0000`, apart from the benchmark run", section)
        self.assertIn("1 cells, 0 failed.", section)


if __name__ == "__main__":
    main()
